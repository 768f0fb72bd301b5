import EntityIndexPipe
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Hostile requests: each has bounded memory and time, and gets an error that says what to ask for instead.
@Suite struct HostileRequestTests {
    func server(maxResponseBytes: Int = PipeServer.defaultMaxResponseBytes, records: Int = 300) throws -> PipeServer {
        let store = try TestSupport.store()
        _ = try store.ingest(
            (0..<records).map {
                TestSupport.record(
                    "task", "\($0)", "Task \($0) " + String(repeating: "padding ", count: 40),
                    [("properties", ["n": JSONValue($0), "m": JSONValue($0 % 7)])])
            })
        return PipeServer(
            handler: RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! }),
            maxResponseBytes: maxResponseBytes)
    }

    @Test func aBatchsResponsesAreBoundedAndAnOverLimitItemGetsItsOwnError() throws {
        let s = try server(maxResponseBytes: 200_000)
        let line =
            "["
            + (1...5).map {
                #"{"jsonrpc":"2.0","id":"# + "\($0)" + #","method":"all","params":{"type":"task","limit":300}}"#
            }.joined(separator: ",") + #",{"jsonrpc":"2.0","id":6,"method":"state"}]"#
        let bytes = try #require(s.respond(line: Array(line.utf8)))
        #expect(bytes.count <= 200_000 + 2_000, "the line stays within the bound: \(String(bytes.count))")
        let items = try #require(try JSONParser().parse(bytes).array)
        #expect(items.count == 6, "every request is answered")
        #expect(items[0]["result"]?["entities"]?.array?.count == 300)
        #expect(items[1]["error"]?["data"]?["code"] == .string("resource_exhausted"))
        #expect(items[1]["id"] == JSONValue(2))
        #expect(items[5]["result"] != nil, "a small item after the bound is still answered")
        // The next line is served as usual.
        #expect(s.handle(line: Array(#"{"jsonrpc":"2.0","id":7,"method":"state"}"#.utf8))?["result"] != nil)
    }

    @Test func aResultOverTheRecordBudgetIsResourceExhausted() throws {
        let s = try server()
        s.handler!.store.operation.maxResultBytes = 20_000
        let r = try #require(
            s.handle(line: Array(#"{"jsonrpc":"2.0","id":1,"method":"all","params":{"type":"task","limit":300}}"#.utf8))
        )
        #expect(r["error"]?["data"]?["code"] == .string("resource_exhausted"))
        #expect(r["error"]?["message"]?.string?.contains("limit") == true)
        let small = try #require(
            s.handle(line: Array(#"{"jsonrpc":"2.0","id":2,"method":"all","params":{"type":"task","limit":10}}"#.utf8)))
        #expect(small["result"]?["entities"]?.array?.count == 10)
    }

    @Test func tooManyFiltersOrSortKeysAreInvalidParamsWithoutSQL() throws {
        let s = try server()
        func call(_ params: JSONValue) -> JSONValue? {
            s.handle(
                line: Array(JSONWriter.string(["jsonrpc": "2.0", "id": 1, "method": "query", "params": params]).utf8))?[
                    "error"]
        }
        let filters = JSONValue.array((0..<1000).map { ["property": "n", "op": "ne", "value": JSONValue($0)] })
        let many = try #require(call(["type": "task", "filters": filters]))
        #expect(many["code"] == JSONValue(-32602))
        #expect(many["message"]?.string?.contains("the most is \(EntityStore.maxFilters)") == true)
        #expect(many["message"]?.string?.contains("SELECT") == false)
        let sorts = JSONValue.array((0..<40).map { _ in ["property": "n"] })
        let sorted = try #require(call(["type": "task", "sort": sorts]))
        #expect(sorted["code"] == JSONValue(-32602) && sorted["message"]?.string?.contains("sort keys") == true)
        let long = call([
            "type": "task",
            "filters": [["property": "n", "op": "contains", "value": .string(String(repeating: "x", count: 60_000))]],
        ])
        #expect(long?["code"] == JSONValue(-32602))
        #expect(
            call(["type": "task", "filters": .array(Array(filters.array!.prefix(EntityStore.maxFilters))), "limit": 1])
                == nil)
    }

    /// What bounds the time of a huge query is what is analyzed and looked up of it: the first
    /// `SearchQuery.maxQueryBytes`, cut at a space, and `maxTerms` terms of those; a code too long for the trigram
    /// lookup is matched as a whole. (How long it takes is HostileSoakTests', at the sizes it was found at.)
    @Test func aHugeQueryIsCutBeforeItIsAnalyzed() throws {
        let s = try server()
        let words = "task 7 " + (0..<300_000).map { "w\($0)" }.joined(separator: " ")
        let query = SearchQuery(words)
        #expect(query.wasCut && query.raw.utf8.count <= SearchQuery.maxQueryBytes && words.hasPrefix(query.raw + " "))
        #expect(query.terms.count <= SearchQuery.maxTerms)
        #expect(try s.handler!.store.search(SearchRequest(query: words)).isEmpty, "the later words still count")
        let digits = String(repeating: "7", count: 100_000)
        let code = SearchQuery(digits)
        #expect(code.wasCut && code.raw.utf8.count == SearchQuery.maxQueryBytes)
        #expect(!code.searchesCodes, "a code of \(code.raw.utf8.count) digits is not looked up by its trigrams")
        _ = try s.handler!.store.search(SearchRequest(query: digits))
        #expect(try s.handler!.store.search(SearchRequest(query: "task 7")).first?.key.id == "7")
    }

    @Test func highlightOffsetsStayRightOverLongTextAndWideCharacters() throws {
        let store = try TestSupport.store()
        let text = (0..<2000).map { $0 % 100 == 0 ? "😀 needle" : "filler \($0)" }.joined(separator: " ")
        _ = try store.ingest([TestSupport.record("doc", "1", "Doc", [("description", .string(text))])])
        let hits = try #require(store.search(SearchRequest(query: "needle", highlight: true)).first?.highlights)
        let units = Array(text.utf16)
        #expect(hits.count == 20)
        for h in hits where h.field == "description" {
            #expect(String(decoding: units[h.start..<h.end], as: UTF16.self) == "needle")
        }
    }
}

/// The layer's bounds hold for both protocols on it: the pipe and MCP.
@Suite struct BothProtocolsTests {
    static let meta: JSONValue = [
        "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:],
    ]

    /// A pipe or an MCP server on 300 tasks of about 400 bytes, and how each asks for a page of all of them.
    func server(mcp: Bool, maxResponseBytes: Int) throws -> (respond: ([UInt8]) -> [UInt8]?, all: (Int) -> JSONValue) {
        let store = try TestSupport.store()
        _ = try store.ingest(
            (0..<300).map {
                TestSupport.record("task", "\($0)", "Task \($0) " + String(repeating: "padding ", count: 40))
            }
        )
        let handler = RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! })
        let page: JSONValue = ["type": "task", "limit": 300]
        if mcp {
            let s = MCPServer(handler: handler, allowWrites: false, maxResponseBytes: maxResponseBytes)
            return (
                { s.endpoint.respond(to: $0) },
                {
                    [
                        "jsonrpc": "2.0", "id": JSONValue($0), "method": "tools/call",
                        "params": ["name": "list_entities", "arguments": page, "_meta": Self.meta],
                    ]
                }
            )
        }
        let s = PipeServer(handler: handler, maxResponseBytes: maxResponseBytes)
        return ({ s.respond(line: $0) }, { ["jsonrpc": "2.0", "id": JSONValue($0), "method": "all", "params": page] })
    }

    @Test(arguments: [false, true]) func aBatchOfPagesStaysWithinTheBound(_ mcp: Bool) throws {
        let (respond, all) = try server(mcp: mcp, maxResponseBytes: 400_000)
        let line = JSONWriter.string(.array((0..<30).map(all)))
        let bytes = try #require(respond(Array(line.utf8)))
        #expect(bytes.count <= 400_000, "\(bytes.count) bytes")
        let items = try #require(try JSONParser().parse(bytes).array)
        #expect(items.count == 30)
        #expect(items.first?["result"] != nil)
        // MCP gives the engine's refusal as a tool error the model can act on.
        let refusal = items.last?["error"]?["data"]?["code"] ?? items.last?["result"]?["content"]?.array?.first?["text"]
        #expect(refusal?.string?.hasPrefix("resource_exhausted") == true, "\(refusal ?? .null)")
        let next = respond(Array(JSONWriter.string(all(99)).utf8)).map { try? JSONParser().parse($0) }
        #expect(next??["result"] != nil, "the next request is served")
    }

    @Test(arguments: [false, true]) func errorsQuoteAShortPrefixOfAHugeValue(_ mcp: Bool) throws {
        let (respond, _) = try server(mcp: mcp, maxResponseBytes: 1 << 20)
        let huge = String(repeating: "x", count: 5_000_000)
        let requests: [JSONValue] =
            mcp
            ? [
                [
                    "jsonrpc": "2.0", "id": 1, "method": "resources/read",
                    "params": ["uri": .string("entityidx://entity/task/" + huge), "_meta": Self.meta],
                ],
                [
                    "jsonrpc": "2.0", "id": 2, "method": "resources/read",
                    "params": ["uri": .string("nope:" + huge), "_meta": Self.meta],
                ],
                [
                    "jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": ["name": .string(huge), "_meta": Self.meta],
                ],
                ["jsonrpc": "2.0", "id": 4, "method": .string(huge)],
            ]
            : [
                ["jsonrpc": "2.0", "id": 1, "method": .string(huge)],
                ["jsonrpc": "2.0", "id": 2, "method": "get", "params": ["type": "task", "ids": [.string(huge)]]],
                ["jsonrpc": "2.0", "id": 3, "method": "get", "params": ["type": .string(huge), "ids": ["1"]]],
            ]
        for request in requests {
            let answer = try #require(respond(Array(JSONWriter.string(request).utf8)))
            #expect(
                answer.count < 2_000, "\(answer.count) bytes: \(String(decoding: answer.prefix(300), as: UTF8.self))")
        }
    }
}
