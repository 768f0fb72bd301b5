import EntityIndex
import EntityIndexPipe
import JSON
import System

#if canImport(Glibc)
    import Glibc
#endif

/// `entityidx ingest --watch FILE`: ingests the file, then again each time it changes, until SIGINT or SIGTERM.
///
/// A round is one ingest of the whole file, all or nothing as any ingest; a rejected round changes nothing and the
/// watch goes on. Changes that come within `quiet` seconds of each other make one round (an editor that creates a
/// file, writes it and renames it over the watched one).
struct IngestWatch {
    let command: IngestCommand
    /// Seconds without a further change before a round starts.
    var quiet = 0.1

    func run(_ context: CommandContext) throws -> Int32 {
        StopSignal.install()
        let watcher = try FileWatcher(command.path)
        defer { watcher.close() }
        var round = 0
        repeat {
            round += 1
            if !self.round(round, context) { break }
            guard watcher.waitForChange(quiet: quiet) else { break }
        } while StopSignal.received == nil
        return 0
    }

    /// Runs one round and prints its line; false when a stop signal interrupted it.
    private func round(_ number: Int, _ context: CommandContext) -> Bool {
        do {
            let (counts, elapsed) = try command.ingestOnce(context)
            if context.json {
                context.print(JSONWriter.string(IngestRequest.encode(counts)))
            } else {
                context.print("round \(number): " + command.summary(counts, elapsed: elapsed))
            }
        } catch {
            if StopSignal.received != nil { return false }
            guard let error = error as? EntityIndexError else {
                context.print("round \(number): rejected: \(error); nothing changed")
                return true
            }
            if context.json {
                context.print(JSONWriter.string(["error": error.json]))
                return true
            }
            // One line a round: the first problem (the record and field), and how many more the input has. A
            // refused input's message is a headline, then one problem a line.
            let lines = error.message.split(separator: "\n").map { String($0.drop { $0 == " " }) }
            var line = "round \(number): rejected: " + (lines.count > 1 ? lines[1] : lines.first ?? "")
            if error.details.count > 1 { line += " (and \(error.details.count - 1) more problems)" }
            context.print(line + "; nothing changed")
        }
        return true
    }
}

/// Waits for a file to be written or replaced, with inotify on its directory.
///
/// The directory is watched rather than the file, for the events on the file's name: a write that ends
/// (`IN_CLOSE_WRITE`), a file moved onto the name (`IN_MOVED_TO`: an editor's write-and-rename) or created with it
/// (`IN_CREATE`). A watch on the file itself would follow the replaced inode and miss the new file. See
/// [inotify(7)](https://man7.org/linux/man-pages/man7/inotify.7.html).
final class FileWatcher {
    let name: [UInt8]
    private var fd: Int32

    init(_ path: String) throws(EntityIndexError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw Self.error("cannot watch \(path)") }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let error = Self.error("cannot watch the directory of \(path)")
            close()
            throw error
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Waits until an event names the file, then until `quiet` seconds pass without another; false when a stop
    /// signal came first (or the watch failed).
    func waitForChange(quiet: Double) -> Bool {
        while true {
            guard let changed = readEvents(timeout: 250) else { return false }
            if changed { break }
        }
        while true {
            guard let changed = readEvents(timeout: Int32(quiet * 1000)) else { return false }
            if !changed { return true }
        }
    }

    /// Reads the events that arrive within `timeout` milliseconds: whether one named the file; nil on a stop
    /// signal or a failed read.
    ///
    /// `poll` with a timeout rather than a blocking read, so that a signal that lands just before the call is seen
    /// at the next timeout instead of never.
    private func readEvents(timeout: Int32) -> Bool? {
        if StopSignal.received != nil { return nil }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeout)
        if StopSignal.received != nil { return nil }
        if ready < 0 { return errno == EINTR ? false : nil }
        if ready == 0 { return false }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR ? false : nil }
        return buffer.withUnsafeBytes { raw in
            var offset = 0, named = false
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let length = Int(event.len)
                let start = offset + header
                // The name is padded with NULs up to `len`.
                var end = start
                while end < start + length && raw[end] != 0 { end += 1 }
                if end - start == name.count && raw[start..<end].elementsEqual(name) { named = true }
                offset = start + length
            }
            return named
        }
    }

    private static func error(_ what: String) -> EntityIndexError {
        EntityIndexError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
