import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// A mutex and its condition, for the waits of `serve`'s threads: workers for jobs, requests for a store.
final class Monitor: @unchecked Sendable {
    // Safe to share: the pthread objects are made once, used only through lock/unlock/wait, freed in deinit.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal, or at most `seconds`; call with the lock held.
    func wait(seconds: Double? = nil) {
        guard let seconds else {
            pthread_cond_wait(condition, mutex)
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(seconds * 1e9)
        var until = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        pthread_cond_timedwait(condition, mutex, &until)
    }

    func broadcast() { pthread_cond_broadcast(condition) }
}

/// The threads that answer `serve`'s requests: each job runs on a thread of its own, started when none is idle, up to
/// `maxThreads` (which then stay, idle, for the server's life); past that, jobs wait their turn in order.
///
/// Requests block (a write waits for the lock, a read for a connection), so the answer of one request never waits
/// for the CPU work of another, only for what it needs.
final class WorkerPool: @unchecked Sendable {
    // Safe to share: every field is read and written under `monitor`.
    private let monitor = Monitor()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private var running = 0
    let maxThreads: Int

    init(maxThreads: Int) { self.maxThreads = maxThreads }

    /// Runs `job` on a worker.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let start = monitor.locked {
            jobs.append(job)
            if idle > 0 {
                monitor.broadcast()
                return false
            }
            guard threads < maxThreads else { return false }
            threads += 1
            return true
        }
        if start { startThread() }
    }

    /// Waits until no job runs or waits (for a server that stops).
    func drain() {
        monitor.locked {
            while running > 0 || head < jobs.count { monitor.wait(seconds: 0.05) }
        }
    }

    private func startThread() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(
            &thread, &attributes,
            { context in
                let pool = Unmanaged<WorkerPool>.fromOpaque(context!).takeRetainedValue()
                pool.work()
                return nil
            }, box)
        if rc != 0 {
            Unmanaged<WorkerPool>.fromOpaque(box).release()
            // No thread could be made: the job waits for a running worker.
            monitor.locked { threads -= 1 }
        }
    }

    private func work() {
        while true {
            let job: @Sendable () -> Void = monitor.locked {
                while head == jobs.count {
                    idle += 1
                    monitor.wait()
                    idle -= 1
                }
                let job = jobs[head]
                head += 1
                if head == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    head = 0
                }
                running += 1
                return job
            }
            job()
            monitor.locked {
                running -= 1
                monitor.broadcast()
            }
        }
    }
}
