import EntityIndex
import JSON
import JSONRPC

extension MCPServer {
    // MARK: - Tools

    func callTool(_ params: JSONObject, room: Int) -> RPCAnswer {
        guard let name = params["name"]?.string else {
            return .error(RPCError(code: -32602, message: "tools/call: \"name\" must be a tool name"))
        }
        guard let tool = tools.first(where: { $0.name == name }) else {
            // A pipe method's name points to its tool; a write tool says what it needs.
            var notes: [String] = []
            if let known = MCPTool.catalog.first(where: { $0.name == name || $0.method.rawValue == name }) {
                if known.name != name { notes.append("did you mean \(Quoting.quoted(known.name))?") }
                if known.writes { notes.append("writes need `entityidx mcp --allow-writes`") }
            }
            let hint = notes.isEmpty ? "" : " (\(notes.joined(separator: " ")))"
            return .error(
                RPCError(
                    code: -32602,
                    message:
                        "unknown tool \(RPCError.quoted(name))\(hint); tools: \(tools.map(\.name).joined(separator: ", "))"
                ))
        }
        let arguments = params["arguments"] ?? [:]
        guard case .object = arguments else {
            return .error(
                RPCError(code: -32602, message: "\(name): arguments must be an object, got \(arguments.typeName)"))
        }
        // The result goes out twice (as text and as structured content): its records may take half the room.
        let result: JSONValue
        do throws(EntityIndexError) {
            result = try runner.run(tool.method, arguments, room: room / 2)
        } catch {
            return RPCAnswer(.success(.object(toolError(error))), outOfRoom: error.code == .resourceExhausted)
        }
        let text: [UInt8]
        switch RPCEndpoint.encode(result, limit: room / 2) {
        case .success(let bytes): text = bytes
        case .failure(.interrupted):
            return .error(.interrupted("interrupted by a stop signal while the result was encoded"))
        case .failure:
            return .error(
                .resourceExhausted(
                    "the tool's result, twice (as text and as structured content), takes more than the \(max(0, room)) bytes left of the \(limits.maxResponseBytes) a response may; ask for fewer entities (limit, cursor, fewer ids) or split the batch"
                ))
        }
        let content: [(key: String, value: JSONValue)] = [
            ("content", [["type": "text", "text": .string(String(decoding: text, as: UTF8.self))]]),
            ("structuredContent", result), ("isError", false),
        ]
        return .result(.object(modern(content, ttlMs: nil)))
    }

    /// A failed call as a tool result (SEP-1303): bad arguments as much as a missing entity, so that the model sees
    /// what to fix. The text is the pipe's code, message and record problems; `_meta` carries the pipe's error
    /// object, `data.records` included (not `structuredContent`, which would have to match the output schema).
    func toolError(_ error: EntityIndexError) -> JSONObject {
        var text = "\(error.code.rawValue): \(error.message)"
        for problem in error.details where !error.message.contains(problem.description) {
            text += "\n\(problem.description)"
        }
        let content: [(key: String, value: JSONValue)] = [
            ("content", [["type": "text", "text": .string(text)]]),
            ("isError", true),
            ("_meta", .object(JSONObject([(Self.errorKey, RPCError(error).json)]))),
        ]
        return modern(content, ttlMs: nil)
    }

    // MARK: - Resources

    func readResource(_ params: JSONObject) -> RPCAnswer {
        guard let uri = params["uri"]?.string else {
            return .error(RPCError(code: -32602, message: "resources/read: \"uri\" must be a string"))
        }
        let quoted = RPCError.quoted(uri)
        let data: JSONValue = ["uri": .string(RPCError.prefix(uri))]
        if let name = MCPTool.toolReference(uri) {
            guard let tool = tools.first(where: { $0.name == name }) else {
                return .error(
                    RPCError(code: -32602, message: "resource not found: no tool \(RPCError.quoted(name))", data: data))
            }
            return resource(uri, tool.details)
        }
        guard let (type, id) = MCPTool.entityReference(uri) else {
            return .error(
                RPCError(
                    code: -32602,
                    message:
                        "resources/read: \(quoted) is not an entityidx://entity/{type}/{id} or entityidx://tool/{name} URI",
                    data: data))
        }
        let entity: JSONValue?
        do {
            entity = try runner.run(
                .get, ["type": .string(type), "ids": [.string(id)]], room: limits.maxResponseBytes
            )["entities"]?.array?.first
        } catch {
            let code = error.isInvalidInput ? -32602 : -32603
            return .error(RPCError(code: code, message: error.message, data: data))
        }
        guard let entity else {
            return .error(
                RPCError(
                    code: -32602,
                    message: "resource not found: no entity \(RPCError.prefix(type))/\(RPCError.prefix(id))",
                    data: data))
        }
        return resource(uri, entity, ttlMs: 0)
    }

    /// A `resources/read` result of one JSON document.
    private func resource(_ uri: String, _ value: JSONValue, ttlMs: Int = 300_000) -> RPCAnswer {
        let contents: JSONValue = [
            ["uri": .string(uri), "mimeType": "application/json", "text": .string(JSONWriter.string(value))]
        ]
        return .result(.object(modern([("contents", contents)], ttlMs: ttlMs)))
    }
}
