#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Calls on file descriptors (reads, writes, waits, locks), each retried when a signal interrupts it.
///
/// A signal whose handler does not restart the call (entityidx's stop signals, see `StopSignal`) makes a blocked
/// call fail with `EINTR`. It is retried here, the one place that writes that loop, unless the caller's `stop`
/// says to give up: the call then returns its failure, with `errno` still `EINTR`, so that the caller can tell a
/// stop from an error (https://man7.org/linux/man-pages/man7/signal.7.html, "Interruption of system calls").
public enum Descriptor {
    /// Calls `call` until it does not fail with `EINTR`, or until `stop` (asked after each interruption) is true;
    /// returns its last result (`errno` is kept as the call left it).
    @inline(__always)
    public static func retrying<Result: BinaryInteger>(
        unless stop: () -> Bool = { false }, _ call: () -> Result
    ) -> Result {
        while true {
            let result = call()
            guard result < 0, errno == EINTR else { return result }
            if stop() {
                errno = EINTR
                return result
            }
        }
    }

    /// Reads at most `buffer.count` bytes from `fd`: the count read, 0 at end of input, -1 on an error (`errno`
    /// says which; `EINTR` when `stop` gave up after a signal).
    public static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, unless stop: () -> Bool = { false }
    )
        -> Int
    {
        retrying(unless: stop) {
            #if canImport(Glibc)
                Glibc.read(fd, buffer.baseAddress, buffer.count)
            #else
                Darwin.read(fd, buffer.baseAddress, buffer.count)
            #endif
        }
    }

    /// Writes all of `bytes` to `fd` (a blocking descriptor); false when a write fails (the reader went away).
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = retrying {
                #if canImport(Glibc)
                    Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                #else
                    Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                #endif
            }
            if n < 0 { return false }
            offset += n
        }
        return true
    }

    /// Reads a whole small file (a `/proc` table); nil when it cannot be opened or read, or passes `maxBytes`.
    public static func readWhole(_ path: String, maxBytes: Int = 64 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, into: $0) }
            guard n >= 0 else { return nil }
            if n == 0 { return result }
            result += buffer[0..<n]
            if result.count > maxBytes { return nil }
        }
    }
}
