import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The MCP server's message handling in process (the official SDK drives the binary in Tests/Clients).
@Suite struct MCPServerTests {
    static let meta =
        #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    func server(allowWrites: Bool = false) throws -> MCPServer {
        let store = try TestSupport.store()
        let handler = RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! })
        _ = try handler.call(
            "ingest", ["records": [TestSupport.record("doc", "a/b c", "Slash and space", [("properties", ["n": 1])])]])
        return MCPServer(handler: handler, allowWrites: allowWrites)
    }

    func answer(_ server: MCPServer, _ line: String) -> JSONValue? { server.handle(line: Array(line.utf8)) }

    @Test func toolsFollowTheMethodListAndWritesNeedPermission() throws {
        let names = { (s: MCPServer) in
            self.answer(s, #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"# + Self.meta + "}}")?["result"]?[
                "tools"]?
                .array?.compactMap { $0["name"]?.string } ?? []
        }
        let readOnly = names(try server())
        #expect(readOnly.contains("search_entities") && !readOnly.contains("ingest_records"))
        #expect(
            readOnly.allSatisfy { name in
                name.contains("_") && name.first != "_" && name.last != "_"
                    && name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) }
            },
            "snake_case verb_noun names")
        let all = names(try server(allowWrites: true))
        #expect(all == readOnly + ["ingest_records", "delete_entities", "donate_interaction", "declare_type"])
    }

    @Test func everyToolParameterHasADescription() throws {
        let listed = answer(
            try server(allowWrites: true),
            #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"# + Self.meta + "}}")
        let tools = try #require(listed?["result"]?["tools"]?.array)
        var parameters = 0
        for tool in tools {
            let name = tool["name"]?.string ?? "?"
            for (parameter, schema) in tool["inputSchema"]?["properties"]?.object ?? JSONObject() {
                parameters += 1
                #expect(schema["description"]?.string?.isEmpty == false, "\(name).\(parameter) has no description")
                // The objects of filters, sort and declarations too (records carry the record schema).
                guard parameter != "records" else { continue }
                for (field, inner) in schema["items"]?["properties"]?.object ?? JSONObject() {
                    #expect(inner["description"]?.string?.isEmpty == false, "\(name).\(parameter).\(field)")
                }
            }
        }
        #expect(parameters >= 43)
        let search = try #require(tools.first { $0["name"] == "search_entities" }?["inputSchema"]?["properties"])
        #expect(search["limit"]?["default"] == JSONValue(20))
        #expect(search["limit"]?["maximum"] == JSONValue(10_000), "the definition's keywords stay beside it")
        let value = search["filters"]?["items"]?["properties"]?["value"]
        #expect(value?["examples"]?.array?.contains([10, 50]) == true, "between takes [low, high]")
    }

    /// `tools/list` goes into an assistant's context: the read tools' answer, as sent, stays within 12 KB (it was
    /// 35.6 KB with each method's whole schema inlined, result included).
    @Test func theReadToolsListIsSmall() throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"# + Self.meta + "}}"
        let bytes = try #require(try server().endpoint.respond(to: Array(line.utf8)))
        #expect(bytes.count <= 12_000, "tools/list is \(bytes.count) bytes")
        let withWrites = try #require(try server(allowWrites: true).endpoint.respond(to: Array(line.utf8)))
        #expect(withWrites.count <= 16_000, "tools/list with the write tools is \(withWrites.count) bytes")
        let tools = try #require(answer(try server(), line)?["result"]?["tools"]?.array)
        #expect(tools.allSatisfy { $0["outputSchema"] == nil && !JSONWriter.string($0).contains("pattern") })
    }

    @Test func eachToolHasAResourceWithItsWholeSchemas() throws {
        let s = try server()
        let read = { (uri: String) in
            self.answer(
                s,
                #"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":""# + uri + #"","# + Self.meta
                    + "}}")
        }
        let text = try #require(
            read("entityidx://tool/search_entities")?["result"]?["contents"]?.array?.first?["text"]?.string)
        let details = TestSupport.json(text)
        let search = try #require(PipeSchema.method("search"))
        #expect(details["description"] == search["description"])
        #expect(details["inputSchema"] == PipeSchema.inlined(search["params"] ?? [:]))
        #expect(details["outputSchema"] == PipeSchema.inlined(search["result"] ?? [:]))
        #expect(details["inputSchema"]?["properties"]?["type"]?["anyOf"] != nil, "patterns and lengths stay here")
        for uri in ["entityidx://tool/ingest_records", "entityidx://tool/nope", "entityidx://tool/"] {
            #expect(read(uri)?["error"]?["code"] == JSONValue(-32602), "\(uri)")
        }
    }

    @Test func resourceURIsArePercentDecoded() throws {
        let s = try server()
        let read = answer(
            s,
            #"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"entityidx://entity/doc/a%2Fb%20c","#
                + Self.meta + "}}")
        let text = try #require(read?["result"]?["contents"]?.array?.first?["text"]?.string)
        #expect(TestSupport.json(text)["title"] == "Slash and space")
        for uri in [
            "entityidx://entity/doc/a/b", "entityidx://entity/doc/%zz", "entityidx://other/doc/x",
            "entityidx://entity//x",
        ] {
            let bad = answer(
                s,
                #"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":""# + uri + #"","# + Self.meta
                    + "}}")
            #expect(bad?["error"]?["code"] == JSONValue(-32602), "\(uri)")
        }
    }

    @Test func theHandshakeSelectsLegacyResults() throws {
        let s = try server()
        let modern = answer(
            s,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"index_stats","arguments":{},"# + Self.meta
                + "}}")
        #expect(modern?["result"]?["resultType"] == "complete")
        let hello = answer(
            s,
            #"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{}}}"#
        )
        #expect(
            hello?["result"]?["protocolVersion"] == "2025-11-25", "an unknown version gets our latest handshake version"
        )
        #expect(answer(s, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        let legacy = answer(
            s, #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"index_stats","arguments":{}}}"#)
        #expect(legacy?["result"]?["isError"] == false)
        #expect(legacy?["result"]?["resultType"] == nil)
    }

    @Test func malformedMessagesGetTheirErrors() throws {
        let s = try server()
        #expect(answer(s, "{")?["error"]?["code"] == JSONValue(-32700))
        #expect(answer(s, "[]")?["error"]?["code"] == JSONValue(-32600))
        #expect(answer(s, #"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#)?["error"]?["code"] == JSONValue(-32600))
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#)?["error"]?["code"] == JSONValue(-32602)
        )
        #expect(answer(s, #"{"jsonrpc":"2.0","id":1,"result":{}}"#) == nil, "a response is not answered")
        let args = answer(
            s,
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_entities","arguments":[],"#
                + Self.meta + "}}")
        #expect(args?["error"]?["code"] == JSONValue(-32602))
    }

    /// `check_expectations` runs the pipe's `test`: the report as structured content; a case wrong as written is a
    /// tool error naming the case and the field.
    @Test func expectationsAreAReadTool() throws {
        let s = try server()
        let call = { (arguments: String) in
            self.answer(
                s,
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check_expectations","arguments":"#
                    + arguments + "," + Self.meta + "}}")?["result"]
        }
        let report = try #require(
            call(
                #"{"cases":[{"name":"found","search":{"query":"slash"},"expect":{"top":["doc/a/b c"]}},"#
                    + #"{"name":"missing","get":{"type":"doc","ids":["x"]},"expect":{"count":1}}]}"#))
        #expect(report["isError"] == false)
        #expect(report["structuredContent"]?["passed"] == 1 && report["structuredContent"]?["failed"] == 1)
        #expect(
            report["structuredContent"]?["cases"]?.array?.last?["failures"]?.array?.first?["expectation"] == "count")
        let wrong = try #require(call(#"{"cases":[{"name":"n","search":{"query":"x"},"expect":{"top":[1]}}]}"#))
        #expect(wrong["isError"] == true)
        let text = wrong["content"]?.array?.first?["text"]?.string ?? ""
        #expect(text.contains(#"cases[0] ("n"): expect.top[0]"#), "\(text)")
        let tool = try #require(
            answer(s, #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"# + Self.meta + "}}")?["result"]?[
                "tools"]?.array?.first { $0["name"] == "check_expectations" })
        #expect(tool["annotations"]?["readOnlyHint"] == true)
    }

    @Test func badArgumentsAreToolErrorsAndUnknownToolsProtocolErrors() throws {
        let s = try server()
        let call = { (name: String, arguments: String) in
            self.answer(
                s,
                #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":""# + name + #"","arguments":"#
                    + arguments + "," + Self.meta + "}}")
        }
        for (name, arguments, named) in [
            ("search_entities", #"{"query":"x","limt":3}"#, #"unknown parameter "limt""#),
            ("search_entities", #"{"query":"x","limit":"3"}"#, "limit"),
            ("query_entities", #"{"type":"doc","filters":[{"property":"n","op":"between","value":5}]}"#, "between"),
            (
                "query_entities", #"{"type":"doc","filters":[{"property":"m","op":"eq","value":5}]}"#,
                #"unknown property "m""#
            ),
            ("spotlight_query", #"{"query":"title == \"open"}"#, "invalid_query"),
            ("drill_reindex", #"{"records":[{"type":"doc","id":"1","title":7}]}"#, #"field "title""#),
            ("get_related_entities", #"{"type":"doc","id":"none"}"#, "not_found"),
        ] {
            let result = try #require(call(name, arguments)?["result"], "\(name) \(arguments)")
            #expect(result["isError"] == true, "\(name) \(arguments)")
            #expect(result["structuredContent"] == nil)
            let text = try #require(result["content"]?.array?.first?["text"]?.string)
            #expect(text.contains(named), "\(text)")
            let error = try #require(result["_meta"]?["entityidx/error"])
            #expect(error["message"]?.string.map(text.contains) == true)
            #expect(error["data"]?["code"] != nil)
        }
        let drill = call("drill_reindex", #"{"records":[{"type":"doc","id":"1","title":7}]}"#)
        #expect(drill?["result"]?["_meta"]?["entityidx/error"]?["data"]?["records"]?.array?.first?["field"] == "title")
        #expect(call("nope", "{}")?["error"]?["code"] == JSONValue(-32602))
        let old = call("search", #"{"query":"x"}"#)?["error"]
        #expect(old?["code"] == JSONValue(-32602))
        #expect(old?["message"]?.string?.contains(#"did you mean "search_entities"?"#) == true)
        #expect(
            call("ingest_records", #"{"records":[]}"#)?["error"]?["code"] == JSONValue(-32602), "writes need permission"
        )
        #expect(call("get_entities", "[]")?["error"]?["code"] == JSONValue(-32602))
    }
}
