#if canImport(Glibc)
    import Glibc
#endif

/// A bounded first-in first-out queue between one producing and one consuming thread.
final class HandoffQueue<Element: Sendable>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Adds an element, waiting while the queue is full; false when the queue was closed (the consumer gave up).
    func push(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while items.count - head >= capacity && !closed { pthread_cond_wait(changed, mutex) }
        guard !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(changed)
        return true
    }

    /// The next element, waiting for one; nil once the queue is closed and empty.
    func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while head == items.count && !closed { pthread_cond_wait(changed, mutex) }
        guard head < items.count else { return nil }
        let element = items[head]
        head += 1
        // Drop what was taken, so that a queue that never runs empty does not keep every element alive.
        if head >= capacity || head == items.count {
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(changed)
        return element
    }

    /// How many elements the queue holds on to, taken or not (for tests: it must stay bounded).
    var retainedCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return items.count
    }

    /// Whether `close()` was called (a producer stops early once the consumer gave up).
    var isClosed: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return closed
    }

    /// No more elements will be pushed (the producer is done) or taken (the consumer gave up).
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// A joinable POSIX thread running a closure.
struct WorkerThread {
    private let handle: pthread_t

    /// Starts a thread; nil when the system cannot (out of memory or threads), so that the caller answers an error.
    static func start(_ body: @escaping @Sendable () -> Void) -> WorkerThread? {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        return WorkerThread(handle: handle)
    }

    func join() { pthread_join(handle, nil) }
}
