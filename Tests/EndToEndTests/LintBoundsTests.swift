import Foundation
import JSON
import TestSupport
import Testing

/// `lint` and `drill --restore` on endless invalid input: the first problems are kept and the others counted, the
/// input is read as it comes, and a stop signal ends the command at once.
@Suite(.serialized) struct LintBoundsTests {
    let directory = TestSupport.temporaryDirectory()
    var db: String { directory + "/index.sqlite" }
    let now = "2026-11-29T12:00:00Z"

    func run(_ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func monotonic() -> Double { ProcessInfo.processInfo.systemUptime }

    /// Starts `entityidx COMMAND` on the index with its stdin a pipe the test writes, its output discarded.
    func launch(_ command: [String]) throws -> (process: Process, stdin: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db, "--now", now] + command
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, stdin)
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

    /// Invalid lines written without end, as fast as the command reads them (for at most 20 s): its memory stays
    /// that of the problems it lists, and SIGTERM ends it within a quarter of a second (it took seconds, and
    /// gigabytes, before).
    @Test(arguments: [["lint", "-"], ["drill", "--restore", "-"]])
    func endlessInvalidInputTakesBoundedMemoryAndStopsOnSIGTERM(_ command: [String]) throws {
        #expect(try run(["ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "1", "One"))).status == 0)
        Binary.ignoreSIGPIPE
        let (process, stdin) = try launch(command)
        let pid = process.processIdentifier
        nonisolated(unsafe) var written = 0
        let start = monotonic()
        let fd = stdin.fileHandleForWriting.fileDescriptor
        let writer = Thread {
            // Short lines that are not JSON: one problem per 9 bytes, the most problems per byte read.
            let chunk = [UInt8](String(repeating: "not json\n", count: 7282).utf8)
            while ProcessInfo.processInfo.systemUptime - start < 20 {
                let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written += n
            }
        }
        writer.start()
        // Until 8 MB were read (about 900,000 problems: 375 MB for lint, 190 MB for drill before), or 15 s.
        while written < 8 << 20, monotonic() - start < 15 { usleep(10_000) }
        let peak = Binary.statusKiB(pid, "VmHWM:")
        #expect(process.isRunning)
        let sent = monotonic()
        kill(pid, SIGTERM)
        process.waitUntilExit()
        let took = monotonic() - sent
        try? stdin.fileHandleForWriting.close()
        while !writer.isFinished { usleep(1000) }
        #expect(written >= 8 << 20, "only \(written) bytes were read in 15 s")
        #expect(peak > 0 && peak < 64 << 10, "\(command[0]) took \(peak / 1024) MiB after \(written >> 20) MB")
        #expect(process.terminationStatus == 128 + SIGTERM)
        #expect(took < 0.25, "\(command[0]) stopped \(Int(took * 1000)) ms after SIGTERM")

        // Waiting for input that does not come, it stops as soon.
        let (idle, quiet) = try launch(command)
        Thread.sleep(forTimeInterval: 0.5)
        let asked = monotonic()
        kill(idle.processIdentifier, SIGTERM)
        idle.waitUntilExit()
        let waited = monotonic() - asked
        try? quiet.fileHandleForWriting.close()
        #expect(idle.terminationStatus == 128 + SIGTERM)
        #expect(waited < 0.25, "\(command[0]) waiting for input stopped \(Int(waited * 1000)) ms after SIGTERM")
    }
}
