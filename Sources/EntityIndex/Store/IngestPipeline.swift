#if canImport(Glibc)
import Glibc
#endif
import JSON

extension Ingestion {
    /// Reads every record of `reader` and adds it, on two threads: a reading thread parses, validates and analyzes
    /// records (the JSON and ICU work) while this thread writes them to SQLite. Records are added in input order, and
    /// the outcome is the same as adding them one by one; at most a few thousand prepared records wait in between.
    ///
    /// `progress` is called on this thread with the records read so far and the bytes read.
    public func addAll(from reader: JSONStreamReader, progress: (_ records: Int, _ bytes: Int) -> Void) throws(EntityIndexError) {
        let queue = HandoffQueue<Chunk>(capacity: 8)
        let producer = Producer(reader: reader, preparer: preparer, queue: queue)
        let thread = Thread.start { producer.run() }
        defer {
            queue.close()
            thread.join()
        }
        while let chunk = queue.pop() {
            for record in chunk.records { try add(record) }
            progress(position, chunk.bytesRead)
        }
    }

    /// Prepared records, handed over in chunks so that the threads meet rarely.
    struct Chunk: Sendable {
        var records: [PreparedRecord] = []
        var bytesRead = 0
    }

    /// The reading side. It owns the reader once started.
    final class Producer: @unchecked Sendable {
        let reader: JSONStreamReader
        let preparer: RecordPreparer
        let queue: HandoffQueue<Chunk>
        static let chunkSize = 256

        init(reader: JSONStreamReader, preparer: RecordPreparer, queue: HandoffQueue<Chunk>) {
            self.reader = reader
            self.preparer = preparer
            self.queue = queue
        }

        /// Words already handed over: the writer adds each to `vocabulary` once (the ingest commits or rolls back whole).
        private var handedTerms = Set<String>()

        private func keepingNewTerms(_ prepared: PreparedRecord) -> PreparedRecord {
            guard case .valid(let record, let text, var derived?) = prepared.outcome else { return prepared }
            derived.terms = derived.terms.filter { handedTerms.insert($0).inserted }
            derived.termsAreNew = true
            return PreparedRecord(position: prepared.position, line: prepared.line, outcome: .valid(record, text: text, derived: derived))
        }

        func run() {
            let parser = JSONParser()
            var chunk = Chunk()
            var position = 0
            func hand() -> Bool {
                chunk.bytesRead = reader.bytesRead
                defer { chunk = Chunk() }
                return queue.push(chunk)
            }
            do {
                while let element = try reader.next() {
                    position = element.position
                    do {
                        let value = try parser.parse(element.bytes)
                        chunk.records.append(keepingNewTerms(preparer.prepare(value, position: element.position, line: element.line, derive: true)))
                    } catch {
                        chunk.records.append(preparer.rejected(RecordProblem(
                            position: element.position, line: element.line, problem: "is not valid JSON: \(error)")))
                    }
                    if chunk.records.count == Self.chunkSize, !hand() { return }
                }
            } catch {
                chunk.records.append(preparer.rejected(RecordProblem(position: position + 1, line: error.line, problem: error.message)))
            }
            if !chunk.records.isEmpty { _ = hand() }
            queue.close()
        }
    }
}

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

    /// No more elements will be pushed (the producer is done) or taken (the consumer gave up).
    func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}

/// A joinable POSIX thread running a closure.
struct Thread {
    private let handle: pthread_t

    static func start(_ body: @escaping @Sendable () -> Void) -> Thread {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, context)
        precondition(rc == 0, "cannot start a thread: \(rc)")
        return Thread(handle: handle)
    }

    func join() { pthread_join(handle, nil) }
}
