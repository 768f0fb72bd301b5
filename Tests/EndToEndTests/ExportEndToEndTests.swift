import Foundation
import JSON
import TestSupport
import Testing

/// `export` through the binary: a round trip on the sample data; `ingest --watch`: a round a change, until a signal.
@Suite struct ExportEndToEndTests {
    static let now = "2026-03-02T09:00:00Z"

    func run(_ db: String, _ arguments: [String]) throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", Self.now] + arguments)
    }

    @Test func theSampleDataRoundTripsByteForByte() throws {
        let dir = TestSupport.temporaryDirectory()
        let first = dir + "/first.sqlite", second = dir + "/second.sqlite"
        try Binary.ingestSamples(into: first, now: Self.now)
        let exported = try run(first, ["export"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let lines = exported.stdout.split(separator: "\n")
        #expect(lines.count > 300)
        #expect(lines.first?.hasPrefix(#"{"type":"customer","#) == true)
        // Into the same index: every record unchanged.
        TestSupport.write(dir + "/export.ndjson", exported.stdout)
        let again = try run(first, ["ingest", dir + "/export.ndjson", "--json"])
        #expect(again.json["unchanged"] == JSONValue(lines.count) && again.json["inserted"] == 0, "\(again.stdout)")
        // Into a fresh index, then exported to a file: the same bytes.
        let fresh = try run(second, ["ingest", dir + "/export.ndjson"])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let toFile = try run(second, ["export", "--output", dir + "/again.ndjson", "--json"])
        #expect(toFile.json["records"] == JSONValue(lines.count), "\(toFile.stdout) \(toFile.stderr)")
        #expect(TestSupport.read(dir + "/again.ndjson") == exported.stdout)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasSuffix(".partial") })
        // One type: that type's lines.
        let orders = try run(first, ["export", "--type", "order"])
        #expect(orders.stdout.split(separator: "\n") == lines.filter { $0.hasPrefix(#"{"type":"order","#) })
    }

    @Test func anUnknownTypeOrAMissingIndexIsAnError() throws {
        let dir = TestSupport.temporaryDirectory()
        let db = dir + "/index.sqlite"
        let missing = try run(db, ["export"])
        #expect(missing.status == 1 && missing.stderr.contains("no index at"), "\(missing.stderr)")
        try Binary.ingestSamples(into: db, now: Self.now)
        let typo = try run(db, ["export", "--type", "ordr", "--output", dir + "/out.ndjson"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains(#"unknown type "ordr"; did you mean "order"?"#), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.ndjson"))
        let unwritable = try run(db, ["export", "--output", dir + "/missing/out.ndjson"])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("cannot write"), "\(unwritable.stderr)")
        let extra = try run(db, ["export", "order"])
        #expect(extra.status == 64)
    }

    /// Reads a process's standard output line by line on its own thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var collected: [String] = []
        var all: [String] { lock.withLock { collected } }

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                var buffer = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    buffer += chunk
                    while let newline = buffer.firstIndex(of: 0x0A) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer = Data(buffer[(newline + 1)...])
                        lock.withLock { collected.append(line) }
                    }
                }
            }
        }

        /// Waits for the `count`th line; the wait's bound only catches a hang.
        func line(_ count: Int) -> String? {
            _ = TestSupport.waitUntil { all.count >= count }
            let lines = all
            return lines.count >= count ? lines[count - 1] : nil
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aWatchIngestsEachChangeAndEndsCleanlyOnASignal(_ signal: Int32) throws {
        let dir = TestSupport.temporaryDirectory()
        let db = dir + "/index.sqlite", file = dir + "/records.ndjson"
        func record(_ id: Int, _ title: String) -> String {
            JSONWriter.string(TestSupport.record("task", "\(id)", title))
        }
        TestSupport.write(file, record(1, "Buy milk") + "\n")
        let p = try PipeProcess(db: db, extra: ["--watch", file], command: "ingest")
        defer { if p.process.isRunning { kill(p.process.processIdentifier, SIGKILL) } }
        let lines = Lines(p.stdout.fileHandleForReading)
        #expect(lines.line(1)?.hasPrefix("round 1: inserted 1, updated 0, unchanged 0") == true, "\(p.whyClosed)")
        // Written in place (the write ends: IN_CLOSE_WRITE).
        TestSupport.write(file, record(1, "Buy oat milk") + "\n" + record(2, "Call Ada") + "\n")
        #expect(lines.line(2)?.hasPrefix("round 2: inserted 1, updated 1, unchanged 0") == true, "\(lines.all)")
        // A bad record: the round is rejected, naming the record and field, and changes nothing.
        TestSupport.write(file, record(1, "Gone") + "\n" + #"{"type":"task","id":"3","title":7}"# + "\n")
        let rejected = lines.line(3) ?? ""
        #expect(rejected.hasPrefix("round 3: rejected: record 2 (line 2) (task/3): field \"title\""), "\(lines.all)")
        // Written beside and renamed over it, as editors do (IN_MOVED_TO).
        try Data((record(2, "Call Ada") + "\n" + record(4, "Water plants") + "\n").utf8).write(
            to: URL(fileURLWithPath: file), options: .atomic)
        #expect(lines.line(4)?.hasPrefix("round 4: inserted 1, updated 0, unchanged 1") == true, "\(lines.all)")
        kill(p.process.processIdentifier, signal)
        #expect(TestSupport.waitUntil { !p.process.isRunning }, "still running after the signal")
        p.process.waitUntilExit()
        #expect(p.process.terminationReason == .exit && p.process.terminationStatus == 0, "\(p.whyClosed)")
        #expect(lines.all.count == 4, "\(lines.all)")
        // The index holds what the rounds that were applied left.
        let titles = try run(db, ["export"]).stdout.split(separator: "\n").map {
            TestSupport.json(String($0))["title"]?.string ?? ""
        }
        #expect(titles == ["Buy oat milk", "Call Ada", "Water plants"])
    }
}
