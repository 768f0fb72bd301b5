import EntityIndex
import System

#if canImport(Glibc)
    import Glibc
#endif

/// Collects lines into chunks of `capacity` bytes and hands each full chunk to `sink`: one write per chunk instead
/// of one per line, with memory bounded by the chunk whatever the number of lines.
final class BufferedWriter {
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let sink: ([UInt8]) throws(EntityIndexError) -> Void

    init(capacity: Int = 64 << 10, sink: @escaping ([UInt8]) throws(EntityIndexError) -> Void) {
        self.capacity = capacity
        self.sink = sink
        buffer.reserveCapacity(capacity)
    }

    /// Adds `bytes` and a line end.
    func writeLine(_ bytes: [UInt8]) throws(EntityIndexError) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= capacity { try flush() }
    }

    /// Hands what is buffered to the sink.
    func flush() throws(EntityIndexError) {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A file written beside its final name and renamed over it by `commit`, so that a reader never sees it half
/// written and a failed write leaves the previous file as it was.
///
/// See [rename(2)](https://man7.org/linux/man-pages/man2/rename.2.html): the rename replaces the name atomically.
final class OutputFile {
    let path: String
    private let temporary: String
    private var fd: Int32

    init(_ path: String) throws(EntityIndexError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporary = directory + "." + name + ".\(getpid()).partial"
        fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.error("cannot write \(path)") }
    }

    deinit { discard() }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(EntityIndexError) {
        let failed = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR && StopSignal.received == nil { continue }
                    return true
                }
                offset += n
            }
            return false
        }
        if failed { throw Self.error("cannot write \(path)") }
    }

    /// Makes the written bytes durable and gives them the final name.
    func commit() throws(EntityIndexError) {
        guard fsync(fd) == 0 else { throw Self.error("cannot write \(path)") }
        close(fd)
        fd = -1
        guard rename(temporary, path) == 0 else { throw Self.error("cannot rename the export to \(path)") }
    }

    /// Removes the temporary file (nothing once committed).
    func discard() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(temporary)
    }

    private static func error(_ what: String) -> EntityIndexError {
        EntityIndexError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
