import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The pipe's `test`: the cases of an expectations file in a request, the report of `entityidx test --format json`
/// back.
@Suite struct TestMethodTests {
    static let now = Timestamp.parse("2026-03-02T09:00:00Z")!

    func server() throws -> (PipeServer, RequestHandler) {
        let store = try TestSupport.store()
        let handler = RequestHandler(store: store, clock: { Self.now })
        _ = try handler.call(
            "ingest",
            [
                "records": [
                    TestSupport.record("order", "1042", "Order #1042-A", [("subtitle", "Café de Flore")]),
                    TestSupport.record("order", "7", "Order #7", [("subtitle", "Ada Lovelace")]),
                    TestSupport.record("customer", "c1", "Ada Lovelace"),
                ]
            ])
        return (PipeServer(handler: handler), handler)
    }

    func call(_ server: PipeServer, _ params: String) throws -> JSONValue {
        try #require(
            server.handle(line: Array((#"{"jsonrpc":"2.0","id":1,"method":"test","params":"# + params + "}").utf8)))
    }

    static let cases = """
        [
          {"name": "an order by its number", "search": {"query": "1042"}, "expect": {"top": ["order/1042"]}},
          {"name": "ada first", "search": {"query": "ada"}, "expect": {"top": ["order/7"], "total": 2}},
          {"name": "a broken Spotlight query", "spotlight": {"query": "title == \\"open"}, "expect": {"empty": true}},
          {"name": "the customer by id", "get": {"type": "customer", "ids": ["c1"]}, "expect": {"count": 1}}
        ]
        """

    @Test func theReportIsTheCLIsWithoutFileAndLine() throws {
        let (server, handler) = try server()
        let answer = try call(server, #"{"cases": "# + Self.cases + "}")
        let result = try #require(answer["result"], "\(JSONWriter.string(answer))")
        #expect(result["passed"] == JSONValue(2))
        #expect(result["failed"] == JSONValue(1))
        #expect(result["wrong"] == JSONValue(1))
        let cases = try #require(result["cases"]?.array)
        #expect(cases.map { $0["status"]?.string ?? "" } == ["passed", "failed", "wrong", "passed"])
        #expect(cases.map { $0["index"] } == [0, 1, 2, 3])
        #expect(cases.allSatisfy { $0["file"] == nil && $0["line"] == nil })
        #expect(cases[1]["got"] == ["customer/c1", "order/7"])
        #expect(cases[1]["failures"]?.array?.first?["expectation"] == "top")
        #expect(cases[1]["tiers"]?["customer/c1"]?["score"] != nil, "a failed search shows its ranking tiers")
        #expect(cases[2]["error"]?["data"]?["code"] == "invalid_query")

        // The same cases from a file, through the runner `entityidx test` uses: the same report but file and line.
        let file = try ExpectationFile(path: "e.json", bytes: Array(Self.cases.utf8))
        let runner = ExpectationRunner(store: handler.store, now: { Self.now }, timeout: nil)
        let report = ExpectationReport(file.cases.map { runner.run($0, file: file.path) })
        let withoutTimes = { (value: JSONValue) -> [JSONValue] in
            (value["cases"]?.array ?? []).map { c in
                var o = c.object ?? JSONObject()
                o = JSONObject(o.filter { !["file", "line", "seconds"].contains($0.key) })
                return .object(o)
            }
        }
        #expect(withoutTimes(report.json) == withoutTimes(result))
        #expect(report.json["cases"]?.array?.first?["file"] == "e.json")
    }

    @Test func nowFixesTheClockOfCasesWithoutTheirOwn() throws {
        let (server, _) = try server()
        // Records expire a month after their ingest by default: in June none is found, a case's own now wins.
        let cases = """
            [{"name": "expired", "search": {"query": "ada"}, "expect": {"empty": true}},
             {"name": "its own clock", "now": "2026-03-03T00:00:00Z", "search": {"query": "ada"}, "expect": {"count": 2}}]
            """
        let result = try call(server, #"{"now": "2026-06-01T00:00:00Z", "cases": "# + cases + "}")["result"]
        #expect(result?["passed"] == JSONValue(2), "\(JSONWriter.string(result ?? .null))")
        let bad = try call(server, #"{"now": "June", "cases": []}"#)["error"]
        #expect(bad?["code"] == JSONValue(-32602))
        #expect(bad?["message"]?.string?.contains(#"parameter "now" must be an ISO-8601 date-time"#) == true)
    }

    @Test(
        "a case wrong as written is invalid params naming the case, its name and the field; nothing runs",
        arguments: [
            (#"{}"#, #"test: parameter "cases" is required"#),
            (#"{"cases": {}}"#, #"parameter "cases" must be an array"#),
            (#"{"cases": [], "timeout": 3}"#, #"unknown parameter "timeout""#),
            (
                #"{"cases": [{"name": "ok", "get": {"type": "order", "ids": [1]}, "expect": {"count": 1}}, {"name": "typo", "serch": {"query": "a"}, "expect": {"empty": true}}]}"#,
                #"cases[1] ("typo"): serch: unknown method or key"#
            ),
            (
                #"{"cases": [{"name": "n", "search": {"query": "a", "limt": 3}, "expect": {"top": ["order"]}}]}"#,
                #"cases[0] ("n"): search: unknown parameter "limt""#
            ),
            (
                #"{"cases": [{"name": "n", "search": {"query": "a"}, "expect": {"top": ["order"]}}]}"#,
                #"cases[0] ("n"): expect.top[0]: malformed id"#
            ),
            (#"{"cases": [{"search": {"query": "a"}, "expect": {"empty": true}}]}"#, "cases[0]: name: is required"),
        ])
    func wrongCases(_ params: String, _ message: String) throws {
        let (server, _) = try server()
        let answer = try call(server, params)
        let error = try #require(answer["error"], "\(JSONWriter.string(answer))")
        #expect(error["code"] == JSONValue(-32602))
        #expect(error["data"]?["code"] == "invalid_params")
        #expect(error["message"]?.string?.contains(message) == true, "\(error["message"]?.string ?? "")")
    }

    @Test func everyWrongCaseIsNamed() throws {
        let (server, _) = try server()
        let params = """
            {"cases": [{"name": "a", "serch": {}, "expect": {"empty": true}},
                       {"name": "b", "search": {"query": "x"}, "expect": {"rank": 1}}]}
            """
        let message = try call(server, params)["error"]?["message"]?.string ?? ""
        #expect(message.hasPrefix("test: 2 problems in \"cases\", nothing ran: "), "\(message)")
        #expect(message.contains(#"cases[0] ("a"): serch"#) && message.contains(#"cases[1] ("b"): expect.rank"#))
    }

    /// `test` only reads: serve runs it on a reading connection, and a read-only MCP server offers it.
    @Test func itIsARead() {
        #expect(Method.test.reads)
    }
}
