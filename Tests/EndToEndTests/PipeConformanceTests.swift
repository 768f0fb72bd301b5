import Foundation
import JSON
import TestSupport
import Testing

/// The pipe as a child process: every method, every error class, hostile streams, concurrency.
@Suite(.serialized) struct PipeConformanceTests {
    func fresh() -> String { TestSupport.temporaryDirectory() + "/index.sqlite" }

    func record(_ id: Int, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        TestSupport.record("task", "\(id)", "Task \(id)", extra)
    }

    @Test func everyMethod() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        func ok(_ method: String, _ params: JSONValue = [:]) -> JSONValue {
            let (result, error) = p.call(method, params)
            #expect(error == nil, "\(method): \(error.map(JSONWriter.string) ?? "")")
            return result ?? .null
        }
        #expect(
            ok(
                "ingest",
                [
                    "records": [
                        record(1, [("properties", ["n": 1])]), record(2, [("related", [["type": "task", "id": "1"]])]),
                    ]
                ])
                == ["inserted": 2, "updated": 0, "unchanged": 0])
        #expect(ok("get", ["type": "task", "ids": ["2", 1]])["entities"]?.array?.count == 2)
        #expect(ok("search", ["query": "task", "limit": 1])["entities"]?.array?.count == 1)
        #expect(ok("suggest", ["limit": 5])["entities"]?.array?.count == 2)
        #expect(ok("all", ["type": "task", "limit": 1])["nextCursor"] == .string("1"))
        #expect(
            ok("query", ["type": "task", "filters": [["property": "n", "op": "eq", "value": 1]]])["entities"]?.array?
                .count == 1)
        #expect(ok("related", ["type": "task", "id": "2"])["entities"]?.array?.first?["id"] == .string("1"))
        #expect(ok("donate", ["type": "task", "id": "1"])["counted"] == .bool(true))
        _ = ok("batch.begin")
        _ = ok("delete", ["type": "task", "ids": ["2"]])
        _ = ok("batch.end", ["clientState": "s"])
        #expect(ok("state")["clientState"] == .string("s"))
        let rid = ok("reindex.request", ["type": "task"])["requestId"] ?? .null
        #expect(ok("reindex.pending")["requests"]?.array?.first?["outstanding"] == ["1"])
        _ = ok("reindex.ack", ["requestId": rid])
        _ = ok("declare", ["type": "task", "properties": [["name": "n", "kind": "integer"]]])
        #expect(ok("declarations")["types"]?["task"]?.array?.count == 1)
        #expect(ok("stats")["entities"] == JSONValue(1))
        #expect(ok("delete", ["all": true])["deleted"] == JSONValue(1))
        _ = p.call(
            "search",
            [
                "query": "task", "explain": true, "highlight": true,
                "filters": [["property": "n", "op": "ge", "value": 0]],
            ])
        _ = p.call("reindex.request", ["type": "task", "ids": ["1"]])
        _ = p.call("reindex.request", [:])
        _ = p.call("reindex.pending")
        _ = p.call("complete", ["prefix": "ta", "limit": 3])
        #expect(p.schemaProblems().isEmpty, "\(p.schemaProblems().prefix(5))")
    }

    @Test func errorClasses() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        let cases: [(Data, Int, String?)] = [
            (Data(#"{"jsonrpc":"2.0","id":1,"method":"get","#.utf8), -32700, nil),
            (Data([0x7B, 0xFF, 0xFE, 0x7D]), -32700, nil),
            (
                Data(#"{"jsonrpc":"2.0","id":1,"method":"get","params":{"type":"a\u0000"}}"#.utf8) + Data([0]), -32700,
                nil
            ),
            (Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), -32700, nil),
            (Data((String(repeating: "[", count: 200) + String(repeating: "]", count: 200)).utf8), -32700, nil),
            (Data(#"{"jsonrpc":"2.0","id":9,"method":"get","params":{"type":"t","ids":[1e999]}}"#.utf8), -32700, nil),
            (Data(#"{"jsonrpc":"2.0","id":9,"id":10,"method":"stats"}"#.utf8), -32700, nil),
            (Data(#"{"jsonrpc":"2.0","id":{"x":1},"method":"stats"}"#.utf8), -32600, nil),
            (Data(#"{"id":3,"method":"stats"}"#.utf8), -32600, "3"),
            (Data(#"{"jsonrpc":"2.0","id":4}"#.utf8), -32600, "4"),
            (Data(#"{"jsonrpc":"2.0","id":5,"method":"no.such"}"#.utf8), -32601, "5"),
            (Data(#"{"jsonrpc":"2.0","id":6,"method":"get","params":{"type":1}}"#.utf8), -32602, "6"),
            (Data(#"{"jsonrpc":"2.0","id":7,"method":"search","params":{"query":"x","limt":3}}"#.utf8), -32602, "7"),
            (
                Data(#"{"jsonrpc":"2.0","id":8,"method":"ingest","params":{"records":[{"type":"t","id":"1"}]}}"#.utf8),
                -32602, "8"
            ),
            (
                Data(#"{"jsonrpc":"2.0","id":"r","method":"related","params":{"type":"t","id":"none"}}"#.utf8), -32000,
                "\"r\""
            ),
            (Data(#"[]"#.utf8), -32600, nil),
            (Data(#"42"#.utf8), -32600, nil),
        ]
        for (line, code, id) in cases {
            p.send(raw: line)
            let response = try #require(
                p.readLine(), "no response to \(String(decoding: line.prefix(60), as: UTF8.self))")
            #expect(
                response["error"]?["code"] == JSONValue(code),
                "\(String(decoding: line.prefix(60), as: UTF8.self)) → \(JSONWriter.string(response).prefix(200))")
            #expect(response["error"]?["data"]?["code"]?.string != nil)
            #expect(JSONWriter.string(response["id"] ?? .null) == (id ?? "null"))
        }
        // An invalid record names the record and field.
        let (_, error) = p.call(
            "ingest",
            [
                "records": [
                    ["type": "t", "id": "1", "title": "x"], ["type": "t", "id": "2", "title": "y", "colour": "red"],
                ]
            ])
        #expect(error?["data"]?["code"] == .string("invalid_record"))
        #expect(error?["message"]?.string?.contains("record 2 (t/2): field \"colour\"") == true)
        #expect(error?["data"]?["records"]?.array?.first?["field"] == .string("colour"))
        // With skipInvalid, the valid record commits and the result lists the skipped one, located the same way.
        let (skipped, skipError) = p.call(
            "ingest",
            [
                "skipInvalid": true,
                "records": [
                    ["type": "t", "id": "1", "title": "x"], ["type": "t", "id": "2", "title": "y", "colour": "red"],
                ],
            ])
        #expect(skipError == nil)
        #expect(skipped?["inserted"] == JSONValue(1) && skipped?["skipped"] == JSONValue(1))
        #expect(skipped?["problems"]?.array?.first?["entity"] == .string("t/2"))
        #expect(skipped?["problems"]?.array?.first?["field"] == .string("colour"))
        #expect(p.schemaProblems().isEmpty, "\(p.schemaProblems().prefix(5))")
    }

    @Test func overlongLinesAreSkipped() throws {
        let p = try PipeProcess(db: fresh(), extra: ["--max-line-bytes", "4096"])
        defer { p.close() }
        for size in [5000, 100_000, 3_000_000] {
            p.send(String(repeating: "x", count: size))
            #expect(p.readLine()?["error"]?["data"]?["code"] == .string("request_too_large"))
            #expect(p.call("stats").error == nil, "the next line is served")
        }
    }

    @Test func notificationsAndBatches() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        p.send(#"{"jsonrpc":"2.0","method":"ingest","params":{"records":[{"type":"t","id":"1","title":"One"}]}}"#)
        p.send(#"{"jsonrpc":"2.0","method":"no.such"}"#)
        p.send(
            #"[{"jsonrpc":"2.0","method":"stats"},{"jsonrpc":"2.0","id":"a","method":"get","params":{"type":"t","ids":["1"]}},{"jsonrpc":"2.0","id":"b","method":"no.such"},7]"#
        )
        let batch = try #require(p.readLine()?.array)
        #expect(batch.count == 3)
        #expect(
            batch[0]["result"]?["entities"]?.array?.count == 1,
            "the notification before was applied and got no response")
        #expect(batch[1]["error"]?["code"] == JSONValue(-32601))
        #expect(batch[2]["error"]?["code"] == JSONValue(-32600))
        p.send(#"[{"jsonrpc":"2.0","method":"stats"}]"#)
        #expect(p.call("state").error == nil, "a batch of notifications gets no response at all")
    }

    @Test func malformedLinesInterleavedWithRequests() throws {
        let p = try PipeProcess(db: fresh())
        defer { p.close() }
        _ = p.call("ingest", ["records": .array((1...50).map { record($0) })])
        let garbage: [String] = [
            "{", "}", "[1,", "null", "\"x\"", "{\"jsonrpc\":\"2.0\",\"id\":1}", "\u{7F}", "{\"a\":\"\\ud800\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"get\"}", "[]", "nul",
            "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"get\"}",
        ]
        var rssAfterWarmup = 0
        for round in 0..<3000 {
            let bad = garbage[round % garbage.count]
            p.send(bad)
            let r = try #require(p.readLine())
            #expect(r["error"] != nil, "\(bad) → \(JSONWriter.string(r))")
            if round % 3 == 0 {
                let id = round % 50 + 1
                let (result, error) = p.call("get", ["type": "task", "ids": .array([.string("\(id)")])])
                #expect(error == nil)
                #expect(result?["entities"]?.array?.first?["title"] == .string("Task \(id)"))
            }
            if round == 500 { rssAfterWarmup = p.residentKiB }
        }
        #expect(p.process.isRunning)
        #expect(p.residentKiB - rssAfterWarmup < 8 * 1024, "memory does not grow with the input")
    }

    @Test func killedInsideABatchAppliesNothing() throws {
        let db = fresh()
        let p = try PipeProcess(db: db)
        _ = p.call("batch.begin")
        _ = p.call("ingest", ["records": [record(1)]])
        _ = p.call("batch.end", ["clientState": "v1"])
        _ = p.call("batch.begin")
        _ = p.call("ingest", ["records": .array((2...500).map { record($0) })])
        p.kill()
        let q = try PipeProcess(db: db)
        defer { q.close() }
        #expect(q.call("state").result?["clientState"] == .string("v1"))
        #expect(q.call("get", ["type": "task", "ids": ["1", "2", "500"]]).result?["entities"]?.array?.count == 1)
        // Resume from the state: redo the batch.
        _ = q.call("batch.begin")
        _ = q.call("ingest", ["records": .array((2...500).map { record($0) })])
        #expect(q.call("batch.end", ["clientState": "v2", "expectedClientState": "v1"]).error == nil)
        #expect(q.call("stats").result?["entities"] == JSONValue(500))
    }

    @Test func closingInsideABatchAppliesNothing() throws {
        let db = fresh()
        let p = try PipeProcess(db: db)
        _ = p.call("batch.begin")
        _ = p.call("ingest", ["records": [record(1)]])
        p.close()
        #expect(p.process.terminationStatus == 0)
        let q = try PipeProcess(db: db)
        defer { q.close() }
        #expect(q.call("get", ["type": "task", "ids": ["1"]]).result?["entities"]?.array?.isEmpty == true)
    }

    @Test func sigtermStopsCleanly() throws {
        let p = try PipeProcess(db: fresh())
        #expect(p.call("stats").error == nil)
        p.process.terminate()
        p.process.waitUntilExit()
        #expect(p.process.terminationStatus == 128 + SIGTERM)
    }

    @Test func twoPipesAndACLIIngestShareADatabase() throws {
        let db = fresh()
        let a = try PipeProcess(db: db, now: nil), b = try PipeProcess(db: db, now: nil)
        defer { a.close(); b.close() }
        let file = TestSupport.temporaryDirectory() + "/big.ndjson"
        TestSupport.write(
            file,
            (1...20_000).map { JSONWriter.string(TestSupport.record("bulk", "\($0)", "Bulk item \($0)")) }.joined(
                separator: "\n"))
        let cli = Process()
        cli.executableURL = URL(fileURLWithPath: Binary.path)
        cli.arguments = ["--db", db, "ingest", file]
        let cliErr = Pipe()
        cli.standardError = cliErr
        cli.standardOutput = FileHandle.nullDevice
        try cli.run()
        var failures: [String] = []
        for i in 0..<200 {
            for (name, p) in [("a", a), ("b", b)] {
                let (_, e1) = p.call("ingest", ["records": [TestSupport.record("live\(name)", "\(i)", "Live \(i)")]])
                let (_, e2) = p.call("search", ["query": "live"])
                for e in [e1, e2].compactMap({ $0 }) { failures.append(JSONWriter.string(e)) }
            }
        }
        cli.waitUntilExit()
        let stderr = String(decoding: cliErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(cli.terminationStatus == 0, "\(stderr)")
        #expect(failures.isEmpty, "\(failures.prefix(3))")
        let stats = a.call("stats").result
        #expect(stats?["types"]?["bulk"]?["entities"] == JSONValue(20_000))
        #expect(stats?["types"]?["livea"]?["entities"] == JSONValue(200))
        #expect(stats?["types"]?["liveb"]?["entities"] == JSONValue(200))
    }
}
