import Foundation
import JSON
import TestSupport
import Testing

/// The hostile cases at the sizes they were found at; `make soak` runs them (ENTITYIDX_HOSTILE_SOAK=1), `make test`
/// runs the small versions in HostileRequestTests and SignalAndLockTests.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["ENTITYIDX_HOSTILE_SOAK"] == "1"))
struct HostileSoakTests {
    func fresh() -> String { TestSupport.temporaryDirectory() + "/index.sqlite" }

    func monotonic() -> Double { ProcessInfo.processInfo.systemUptime }

    func request(_ id: Int, _ method: String, _ params: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": JSONValue(id), "method": .string(method), "params": params]
    }

    @Test func aWriterWaitsLongerThanTheOldTenSecondBusyTimeout() throws {
        let db = fresh()
        let holder = try PipeProcess(db: db)
        #expect(holder.call("batch.begin").error == nil)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: Binary.path)
        writer.arguments = ["--db", db, "ingest", "-"]
        let stdin = Pipe()
        writer.standardInput = stdin
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        stdin.fileHandleForWriting.write(Data(JSONWriter.string(TestSupport.record("task", "1", "One")).utf8))
        try stdin.fileHandleForWriting.close()
        Thread.sleep(forTimeInterval: 12)
        #expect(writer.isRunning, "still waiting after 12 s")
        #expect(holder.call("batch.end", ["clientState": "s"]).error == nil)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        holder.close()
    }

    @Test func hostileQueriesAtFullSize() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        _ = p.call(
            "ingest",
            [
                "records": [
                    TestSupport.record(
                        "doc", "big", "Big",
                        [
                            (
                                "description",
                                .string((0..<50_000).map { "lorem ipsum dolor\($0 % 10)" }.joined(separator: " "))
                            )
                        ])
                ]
            ])
        var t = monotonic()
        _ = p.call("search", ["query": .string(String(repeating: "7", count: 300_000))])
        #expect(monotonic() - t < 3, "300,000 digits: \(monotonic() - t) s (was 7.3 s and 4.5 GB)")
        t = monotonic()
        let words = (0..<2_000_000).map { "w\($0 % 1000)" }.joined(separator: " ")
        _ = p.call("search", ["query": .string(words)])
        #expect(monotonic() - t < 10, "2 million words: \(monotonic() - t) s")
        t = monotonic()
        let (result, _) = p.call("search", ["query": "lorem", "highlight": true])
        #expect(result?["entities"]?.array?.first?["highlights"]?.array?.count == 50_000)
        #expect(
            monotonic() - t < 6, "highlighting 960 KB: \(monotonic() - t) s (was 2.9 s in a release build, quadratic)")
        #expect(p.residentKiB < 600_000, "resident \(p.residentKiB) KiB")
    }

    @Test func aBatchOfLargeResultsStaysWithinItsBound() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        for chunk in 0..<4 {
            let records = (0..<5_000).map { i in
                TestSupport.record(
                    "item", String(format: "%06d", chunk * 5_000 + i), "Item \(i)",
                    [("description", .string(String(repeating: "words about the item ", count: 10)))])
            }
            #expect(p.call("ingest", ["records": .array(records)]).error == nil)
        }
        let batch = JSONValue.array((0..<100).map { request($0, "all", ["type": "item", "limit": 10_000]) })
        p.send(JSONWriter.string(batch))
        let answer = try #require(p.readLine()?.array)
        #expect(answer.count == 100)
        #expect(answer.contains { $0["error"]?["data"]?["code"] == .string("resource_exhausted") })
        #expect(p.residentKiB < 800_000, "resident \(p.residentKiB) KiB (was 3.65 GB at 64k entities)")
        #expect(p.call("stats").result?["entities"] == JSONValue(20_000), "the next line is served")
    }
}
