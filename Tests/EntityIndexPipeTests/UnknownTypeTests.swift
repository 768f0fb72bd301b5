import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// A type the index does not know is an error on the pipe and in MCP, with the closest known one (as the CLI's
/// `--type`), never an empty answer an assistant would take for "there are none"; an empty index answers empty.
@Suite struct UnknownTypeTests {
    static let clock: @Sendable () -> Int64 = { Timestamp.parse("2026-03-02T09:00:00Z")! }

    func handler(empty: Bool = false) throws -> RequestHandler {
        let handler = RequestHandler(store: try TestSupport.store(), clock: Self.clock)
        if !empty {
            _ = try handler.call(
                "ingest",
                ["records": [["type": "order", "id": "1042", "title": "Order #1042", "properties": ["total": 12]]]])
        }
        return handler
    }

    static let requests: [(String, String)] = [
        ("search", #"{"query":"1042","type":"ordr"}"#),
        ("search", #"{"query":"1042","type":["order","ordr"]}"#),
        ("get", #"{"type":"ordr","ids":["1042"]}"#),
        ("suggest", #"{"type":"ordr"}"#),
        ("all", #"{"type":"ordr"}"#),
        ("query", #"{"type":"ordr","filters":[]}"#),
        ("spotlight", #"{"query":"title == \"*\"","type":"ordr"}"#),
    ]

    @Test(arguments: requests) func thePipeRefusesAnUnknownType(_ method: String, _ params: String) throws {
        let pipe = PipeServer(handler: try handler())
        let answer = pipe.handle(
            line: Array(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#.utf8))
        #expect(answer?["error"]?["data"]?["code"] == "not_found", "\(method): \(answer.map(JSONWriter.string) ?? "")")
        #expect(answer?["error"]?["message"]?.string?.contains(#"did you mean "order"?"#) == true)
    }

    @Test(arguments: requests) func anEmptyIndexAnswersEmpty(_ method: String, _ params: String) throws {
        let pipe = PipeServer(handler: try handler(empty: true))
        let answer = pipe.handle(
            line: Array(#"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#.utf8))
        #expect(answer?["error"] == nil, "\(method): \(answer.map(JSONWriter.string) ?? "")")
    }

    @Test func mcpSaysSoAsAToolError() throws {
        let mcp = MCPServer(handler: try handler(), allowWrites: false)
        let line =
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_entities","arguments":{"query":"1042","type":"ordr"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
        let answer = mcp.handle(line: Array(line.utf8))
        #expect(answer?["result"]?["isError"] == true, "\(answer.map(JSONWriter.string) ?? "")")
        #expect(
            answer?["result"]?["content"]?.array?.first?["text"]?.string?.contains(#"did you mean "order"?"#) == true)
    }

    @Test func relatedInStillListsWhoPointsAtAnyType() throws {
        let pipe = PipeServer(handler: try handler())
        let answer = pipe.handle(
            line: Array(
                #"{"jsonrpc":"2.0","id":1,"method":"related","params":{"type":"gone","id":"1","direction":"in"}}"#.utf8)
        )
        #expect(answer?["result"]?["entities"] == [])
    }
}
