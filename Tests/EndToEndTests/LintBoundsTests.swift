import Foundation
import JSON
import TestSupport
import Testing

/// `lint` and `drill --restore` on endless invalid input: the first problems are kept and the others counted, the
/// input is read as it comes, and a stop signal ends the command, also while it waits for input.
@Suite(.serialized) struct LintBoundsTests {
    let directory = TestSupport.temporaryDirectory()
    var db: String { directory + "/index.sqlite" }
    let now = "2026-11-29T12:00:00Z"

    func run(_ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    /// Starts `entityidx COMMAND` on the index with its stdin a pipe the test writes, its output discarded and its
    /// standard error in a file.
    func launch(_ command: [String]) throws -> (process: Process, stdin: Pipe, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db, "--now", now] + command
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        let stderr = TestSupport.temporaryDirectory() + "/stderr.txt"
        _ = FileManager.default.createFile(atPath: stderr, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderr) ?? FileHandle.nullDevice
        try process.run()
        return (process, stdin, stderr)
    }

    /// Waits for `process` to end, killing it when it has not after `TestSupport.hangSeconds`; false then.
    func ended(_ process: Process) -> Bool {
        let ended = TestSupport.waitUntil { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ended
    }

    /// What `command` says when a stop signal ends its reading.
    func interruption(_ command: [String]) -> String {
        "interrupted by a stop signal while "
            + (command[0] == "lint" ? "reading the records to lint" : "reading the restore input")
    }

    @Test func theFirstProblemsAreListedAndTheOthersCounted() throws {
        #expect(try run(["ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "1", "One"))).status == 0)
        let bad = Array(repeating: "not json", count: 1500).joined(separator: "\n")
        let lint = try run(["lint", "-", "--json"], input: bad)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(lint.json["findings"]?.array?.count == 1000)
        #expect(lint.json["counts"]?["invalid-record"] == JSONValue(1500))
        #expect(lint.json["errors"] == JSONValue(1500))
        #expect(lint.json["unlisted"] == ["invalid-record": 500])
        #expect(lint.json["records"] == JSONValue(1500))
        let human = try run(["lint", "-"], input: bad)
        #expect(human.stdout.contains("invalid-record: 1,500 errors"), "\(human.stdout.prefix(300))")
        #expect(human.stdout.contains("… and 500 more, not listed (the first 1,000 are)"))
        #expect(human.stdout.contains("1,500 findings (1,500 errors, 0 warnings)"))

        let good = JSONWriter.string(TestSupport.record("t", "1", "One"))
        let repeated = Array(repeating: good, count: 1200).joined(separator: "\n")
        let dup = try run(["lint", "-", "--json"], input: repeated)
        #expect(dup.json["counts"]?["duplicate-key"] == JSONValue(1199))
        #expect(dup.json["unlisted"] == ["duplicate-key": 199])

        let drill = try run(["drill", "--restore", "-"], input: good + "\n" + bad)
        #expect(drill.status == 1)
        #expect(drill.stderr.contains("1500 problems in the restore input"), "\(drill.stderr.prefix(200))")
        #expect(drill.stderr.contains("… and 1400 more"))
        #expect(drill.stderr.split(separator: "\n").count < 110)
    }

    /// Invalid lines written without end, as fast as the command reads them: after 8 MiB (about 900,000 problems:
    /// 375 MB for lint, 190 MB for drill before) its memory is still that of the problems it lists, and SIGTERM
    /// ends it while the input still comes, saying so (it took seconds, and gigabytes, before). How fast it reads
    /// is not this test's: a loaded machine reads slower, and the bound holds at any speed (`make soak` prints the
    /// time SIGTERM takes, at full size).
    @Test(arguments: [["lint", "-"], ["drill", "--restore", "-"]])
    func endlessInvalidInputTakesBoundedMemoryAndStopsOnSIGTERM(_ command: [String]) throws {
        #expect(try run(["ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "1", "One"))).status == 0)
        Binary.ignoreSIGPIPE
        let (process, stdin, stderr) = try launch(command)
        let pid = process.processIdentifier
        let written = ByteCount()
        let fd = stdin.fileHandleForWriting.fileDescriptor
        let writer = Thread {
            // Short lines that are not JSON: one problem per 9 bytes, the most problems per byte read. The command
            // reads them until it ends; then a write fails (EPIPE) and the writer stops.
            let chunk = [UInt8](String(repeating: "not json\n", count: 7282).utf8)
            while true {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written.add(n)
            }
        }
        writer.start()
        // A pipe holds 64 KiB: what was written was read, but for that. The wait only catches a command that stops
        // reading.
        let readEnough = TestSupport.waitUntil { written.value >= 8 << 20 || !process.isRunning }
        let peak = Binary.statusKiB(pid, "VmHWM:")
        #expect(readEnough && process.isRunning, "\(command[0]) read \(written.value >> 20) MiB, then stopped reading")
        #expect(peak > 0 && peak < 64 << 10, "\(command[0]) took \(peak / 1024) MiB after \(written.value >> 20) MiB")
        kill(pid, SIGTERM)
        #expect(ended(process), "\(command[0]) still ran \(Int(TestSupport.hangSeconds)) s after SIGTERM")
        try? stdin.fileHandleForWriting.close()
        while !writer.isFinished { usleep(1000) }
        #expect(process.terminationStatus == 128 + SIGTERM)
        let said = TestSupport.read(stderr) ?? ""
        #expect(said.contains(interruption(command)), "\(said.prefix(300))")

        // Waiting for input that does not come, it stops too: the signal ends the read it waits in.
        let (idle, quiet, idleStderr) = try launch(command)
        #expect(TestSupport.waitUntil { TestSupport.isReadingAPipe(idle.processIdentifier) || !idle.isRunning })
        kill(idle.processIdentifier, SIGTERM)
        #expect(ended(idle), "\(command[0]) waiting for input still ran after SIGTERM")
        try? quiet.fileHandleForWriting.close()
        #expect(idle.terminationStatus == 128 + SIGTERM)
        #expect((TestSupport.read(idleStderr) ?? "").contains(interruption(command)))
    }
}

/// Bytes written by one thread, read by another.
final class ByteCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}
