import EntityIndex
import JSON
import System

/// Reads the records of a file or stdin (`-`), a JSON array or NDJSON, one at a time with its position and line,
/// for the commands that check records without ingesting them (`lint`, `drill`).
///
/// A value that is not JSON, or a stream that breaks off, becomes an unreadable entry naming its position and line.
final class RecordFile {
    private let fd: Int32
    private let reader: JSONStreamReader
    private let parser = JSONParser()
    private var position = 0
    private var done = false

    init(_ path: String) throws(EntityIndexError) {
        let (fd, openError) = Platform.openForReading(path)
        guard fd >= 0 else { throw EntityIndexError(.io, "cannot read \(path): \(openError ?? "unknown error")") }
        self.fd = fd
        reader = JSONStreamReader(fd: fd, maxElementBytes: RecordLimits.maxRecordBytes)
        // A stop signal ends a read that waits for input; the command then stops with `interrupted`.
        StopSignal.install()
        reader.stopRequested = { StopSignal.received != nil }
    }

    deinit { Platform.closeFile(fd) }

    /// The records, read as they are asked for.
    var records: RecordSource { RecordSource { self.next() } }

    private func next() -> RecordInput? {
        guard !done else { return nil }
        do {
            guard let element = try reader.next() else {
                done = true
                return nil
            }
            position = element.position
            do {
                return .record(try parser.parse(element.bytes), position: element.position, line: element.line)
            } catch {
                return .unreadable(
                    RecordProblem(
                        position: element.position, line: element.line, problem: "is not valid JSON: \(error)"))
            }
        } catch {
            done = true
            return .unreadable(RecordProblem(position: position + 1, line: error.line, problem: error.message))
        }
    }
}
