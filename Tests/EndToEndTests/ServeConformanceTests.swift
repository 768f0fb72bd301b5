import Foundation
import JSON
import TestSupport
import Testing

/// `POST /rpc` answers as the pipe, byte for byte, and `/mcp` speaks the Streamable HTTP transport.
@Suite struct ServeConformanceTests {
    /// The examples of the JSON-RPC 2.0 specification (https://www.jsonrpc.org/specification#examples), and a few
    /// of the pipe's own methods; nil: no response (notifications).
    static let examples: [(String, String?)] = [
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, "-32601"),
        (#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#, "-32601"),
        (#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, nil),
        (#"{"jsonrpc": "2.0", "method": "foobar"}"#, nil),
        (#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#, "-32601"),
        (#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, "-32700"),
        (#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#, "-32600"),
        (
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method""#
                + "]", "-32700"
        ),
        ("[]", "-32600"),
        ("[1]", "-32600"),
        ("[1,2,3]", "-32600"),
        (
            #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}, {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"}, {"foo": "boo"}, {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"}, {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]"#,
            "-32600"
        ),
        (
            #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#,
            nil
        ),
        (
            #"{"jsonrpc":"2.0","id":7,"method":"search","params":{"query":"ada lo","highlight":true,"explain":true}}"#,
            "Ada"
        ),
        (#"{"jsonrpc":"2.0","id":null,"method":"get","params":{"type":"order","ids":["1042","x"]}}"#, "1042"),
        (#"{"jsonrpc":"2.0","id":8,"method":"get","params":{"type":1}}"#, "-32602"),
        (
            #"[{"jsonrpc":"2.0","id":1,"method":"suggest"},{"jsonrpc":"2.0","id":2,"method":"lint","params":{}}]"#,
            "findings"
        ),
    ]

    @Test func theSpecificationsExamplesAsThePipeAnswersThem() throws {
        let db = try ServeTests.sampleIndex()
        let pipe = try PipeProcess(db: db)
        defer { pipe.close() }
        let server = try ServeProcess(db: db)
        let probe = #"{"jsonrpc":"2.0","id":"probe","method":"complete","params":{"prefix":"wid"}}"#
        for (message, expected) in Self.examples {
            pipe.send(message)
            // After a notification the pipe is silent: the probe's answer comes next.
            pipe.send(probe)
            var line = pipe.readRawLine().map { String(decoding: $0, as: UTF8.self) }
            let reply = server.rpc(message)
            if let expected {
                let piped = try #require(line)
                #expect(piped.contains(expected), "\(message)")
                #expect(reply?.status == 200)
                #expect(reply?.text == piped, "\(message)")
                line = pipe.readRawLine().map { String(decoding: $0, as: UTF8.self) }
            } else {
                #expect(reply?.status == 204, "\(message)")
                #expect(reply?.body.isEmpty == true)
            }
            #expect(line?.contains("\"probe\"") == true, "\(message)")
        }
    }

    static func mcpPost(_ body: String, session: String? = nil, accept: String = "application/json, text/event-stream")
        -> String
    {
        var headers = ["Accept: \(accept)"]
        if let session { headers += ["Mcp-Session-Id: \(session)", "MCP-Protocol-Version: 2025-11-25"] }
        return ServeProcess.post("/mcp", body, headers: headers)
    }

    @Test func mcpSessionsEventsAndErrors() throws {
        let server = try ServeProcess(db: try ServeTests.sampleIndex())
        let initialize =
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
        let opened = try #require(server.request(Self.mcpPost(initialize)))
        #expect(opened.status == 200)
        #expect(opened.json["result"]?["protocolVersion"] == "2025-06-18")
        let session = try #require(opened.header("Mcp-Session-Id"))
        #expect(session.count == 32)
        #expect(opened.header("MCP-Protocol-Version") == "2025-06-18")
        // The notification after initialize: 202 and no body.
        let initialized = server.request(
            Self.mcpPost(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: session))
        #expect(initialized?.status == 202)
        // Only text/event-stream accepted: the answer is one event of a chunked stream.
        let list = #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#
        let events = try #require(server.request(Self.mcpPost(list, session: session, accept: "text/event-stream")))
        #expect(events.status == 200)
        #expect(events.header("Content-Type") == "text/event-stream")
        #expect(events.header("Transfer-Encoding") == "chunked")
        #expect(events.text.hasPrefix("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":["))
        #expect(events.text.hasSuffix("}\n\n"))
        let call =
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_entities","arguments":{"query":"ada lo"}}}"#
        let found = server.request(Self.mcpPost(call, session: session))
        #expect(found?.json["result"]?["structuredContent"]?["entities"]?.array?.first?["title"] == "Ada Lovelace")
        // Stateless (2026-07-28) without a session, as the stdio server answers before initialize.
        let modern = server.request(Self.mcpPost(#"{"jsonrpc":"2.0","id":4,"method":"server/discover","params":{}}"#))
        #expect(modern?.json["result"]?["supportedVersions"]?.array?.contains("2026-07-28") == true)
        #expect(modern?.header("Mcp-Session-Id") == nil)
        #expect(server.request(Self.mcpPost(list, session: "nope"))?.status == 404)
        #expect(server.request(Self.mcpPost(list, accept: "text/html"))?.status == 406)
        let badVersion = ServeProcess.post(
            "/mcp", list, headers: ["Accept: application/json", "MCP-Protocol-Version: 1999-01-01"])
        #expect(server.request(badVersion)?.status == 400)
        let delete = "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: \(session)\r\n\r\n"
        #expect(server.request(delete)?.status == 204)
        #expect(server.request(delete)?.status == 404)
        #expect(server.request(Self.mcpPost(list, session: session))?.status == 404)
    }
}
