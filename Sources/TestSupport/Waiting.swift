import System

#if canImport(Glibc)
    import Glibc
#endif

/// Waiting in tests for something to happen (a count reached, a process blocked reading, a pipe drained or full)
/// by polling, with a bound that only a hang reaches.
///
/// How long a step takes depends on the machine and on what else runs on it: no test passes or fails on a time.
/// A bound protects something else (bytes read, memory, the next request served), and the tests assert that; a
/// wait only says how long to give the machine before calling it a hang.
extension TestSupport {
    /// Seconds after which a wait is taken for a hang: a loaded machine is slow, not this slow.
    public static let hangSeconds = 120.0

    /// Polls `condition` until it holds (true) or `seconds` have passed (false).
    @discardableResult
    public static func waitUntil(seconds: Double = hangSeconds, _ condition: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !condition() {
            if monotonicSeconds() > deadline { return condition() }
            usleep(2_000)
        }
        return true
    }

    /// The bytes waiting in a pipe (`FIONREAD`, on either end), 0 when it cannot be read.
    public static func bytesWaiting(in fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// How many bytes a pipe holds before a writer blocks (`F_GETPIPE_SZ`), 64 KiB when it cannot be read.
    public static func pipeCapacity(_ fd: Int32) -> Int {
        let size = fcntl(fd, 1032)  // F_GETPIPE_SZ, which Glibc declares only with _GNU_SOURCE
        return size > 0 ? Int(size) : 65536
    }

    /// Whether a thread of process `pid` is blocked reading a pipe (`pipe_read`, or `anon_pipe_read` in newer
    /// kernels, in its /proc wchan): the process has started and waits for input.
    public static func isReadingAPipe(_ pid: Int32) -> Bool {
        guard let tasks = opendir("/proc/\(pid)/task") else { return false }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let wchan = read("/proc/\(pid)/task/\(name)/wchan") else { continue }
            if wchan.hasSuffix("pipe_read") { return true }
        }
        return false
    }

    /// Seconds of the monotonic clock, for a test's deadlines and the figures it prints.
    public static func monotonicSeconds() -> Double { SystemClock.monotonicSeconds() }
}
