import CEntityIdx
import EntityIndex
import JSON

/// A Model Context Protocol server on stdio: the pipe's read methods (and, when allowed, its writes) as tools.
///
/// Newline-delimited JSON-RPC 2.0, nothing but protocol messages on the output
/// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports). Both eras are served: an
/// `initialize` handshake (2024-11-05 to 2025-11-25) makes the connection legacy; without one, each request is
/// stateless 2026-07-28 and carries its protocol version and client capabilities in `_meta`. Tool failures the
/// model can act on (`not_found`, a storage error) are results with `isError`; bad arguments are -32602.
public final class MCPServer {
    public static let legacyVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    public static let modernVersions = ["2026-07-28"]
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    static let instructions = """
        An index of the app's entities (orders, products, customers, …) with Spotlight-style search. Use search for \
        words, ids and codes (typo-tolerant, best first), query for property filters and sorting, get for known ids, \
        related for linked entities, stats for the types present. Entities are also resources: \
        entityidx://entity/{type}/{id}.
        """

    let handler: RequestHandler
    let input: Int32
    let output: Int32
    let tools: [MCPTool]
    /// The version agreed by `initialize`; nil until then (stateless, per-request versions).
    private(set) var legacyVersion: String?

    public init(handler: RequestHandler, allowWrites: Bool, input: Int32 = 0, output: Int32 = 1) {
        self.handler = handler
        self.input = input
        self.output = output
        tools = MCPTool.offered(allowWrites: allowWrites)
    }

    /// Serves until end of input or a stop signal; returns the process exit status.
    public func run() -> Int32 {
        eidx_install_stop_signals()
        let reader = MessageReader(fd: input, maxMessageBytes: PipeServer.defaultMaxLineBytes, framing: .lines)
        let writer = MessageWriter(fd: output)
        while eidx_stop_signal() == 0 {
            let response: JSONValue
            switch reader.next() {
            case .end: return 0
            case .interrupted: continue
            case .tooLong, .badHeader:
                response = Self.error(.null, -32600, "message longer than \(PipeServer.defaultMaxLineBytes) bytes")
            case .tooLargeForMemory(let bytes):
                response = Self.error(
                    .null, -32000,
                    "the message was skipped at \(bytes) bytes: it would not fit in the memory the process has left")
            case .message(let bytes):
                guard let answer = handle(line: bytes) else { continue }
                response = answer
            }
            guard writer.send(response, framing: .lines) else { return 0 }
        }
        return 128 + eidx_stop_signal()
    }

    /// Answers one message; nil when nothing is to be sent (a notification, a response, a blank line).
    public func handle(line: [UInt8]) -> JSONValue? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        if line.count >= MessageReader.roomCheckBytes, !MemoryRoom.fits(line.count * PipeServer.memoryPerRequestByte) {
            return Self.error(
                .null, -32000, "the message of \(line.count) bytes would not fit in the memory the process has left")
        }
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: PipeServer.maxDepth, shouldStop: { eidx_stop_signal() != 0 }).parse(line)
        } catch {
            return Self.error(.null, -32700, "parse error: \(error)")
        }
        if case .array(let items) = value {
            // Batches were removed in 2025-06-18; older clients may still send them.
            if items.isEmpty { return Self.error(.null, -32600, "an empty batch is not a valid request") }
            let responses = items.compactMap(handle(message:))
            return responses.isEmpty ? nil : .array(responses)
        }
        return handle(message: value)
    }

    func handle(message value: JSONValue) -> JSONValue? {
        guard case .object(let message) = value else {
            return Self.error(.null, -32600, "a message must be an object, got \(value.typeName)")
        }
        let id = message["id"]
        switch id {
        case nil, .string?, .number?: break
        case let other?: return Self.error(.null, -32600, "\"id\" must be a string or a number, got \(other.typeName)")
        }
        guard case .string(let method)? = message["method"] else {
            // A response to a request of ours (we send none) or garbage without a method.
            if message["result"] != nil || message["error"] != nil { return nil }
            return Self.error(id ?? .null, -32600, "\"method\" must be a string")
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return id == nil ? nil : Self.error(id!, -32600, "\"jsonrpc\" must be \"2.0\"")
        }
        guard let id else { return nil }  // notifications/initialized, notifications/cancelled, …: nothing to answer
        let params = message["params"] ?? [:]
        guard case .object(let p) = params else { return Self.error(id, -32602, "params must be an object") }
        switch answer(method, p) {
        case .success(let result): return .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("result", result)]))
        case .failure(let failure): return Self.error(id, failure.code, failure.message, data: failure.data)
        }
    }

    struct Failure: Error {
        let code: Int
        let message: String
        var data: JSONValue? = nil
    }

    // MARK: - Methods

    private func answer(_ method: String, _ params: JSONObject) -> Result<JSONValue, Failure> {
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.string ?? ""
            let version = Self.legacyVersions.contains(asked) ? asked : Self.legacyVersions.last!
            legacyVersion = version
            return .success([
                "protocolVersion": .string(version), "capabilities": capabilities,
                "serverInfo": serverInfo, "instructions": .string(Self.instructions),
            ])
        case "ping":
            return .success([:])
        case "server/discover":
            if let asked = params["_meta"]?[Self.versionKey]?.string, !Self.modernVersions.contains(asked) {
                return .failure(unsupported(asked))
            }
            return .success(
                .object(
                    modern(
                        [
                            (
                                "supportedVersions",
                                .array((Self.legacyVersions + Self.modernVersions).map { .string($0) })
                            ),
                            ("capabilities", capabilities), ("instructions", .string(Self.instructions)),
                            ("_meta", .object(JSONObject([(Self.serverInfoKey, serverInfo)]))),
                        ], ttlMs: 300_000)))
        case "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read":
            if legacyVersion == nil, let problem = checkModernMeta(params) { return .failure(problem) }
            return feature(method, params)
        default:
            return .failure(
                Failure(
                    code: -32601,
                    message:
                        "unknown method \"\(method)\" (methods: initialize, ping, server/discover, tools/list, tools/call, resources/list, resources/templates/list, resources/read)"
                ))
        }
    }

    private func feature(_ method: String, _ params: JSONObject) -> Result<JSONValue, Failure> {
        switch method {
        case "tools/list":
            return .success(.object(modern([("tools", .array(tools.map(\.definition)))], ttlMs: 300_000)))
        case "tools/call":
            return callTool(params)
        case "resources/list":
            return .success(.object(modern([("resources", [])], ttlMs: 0)))
        case "resources/templates/list":
            return .success(.object(modern([("resourceTemplates", [MCPTool.resourceTemplate])], ttlMs: 300_000)))
        default:
            return readResource(params)
        }
    }

    private func callTool(_ params: JSONObject) -> Result<JSONValue, Failure> {
        guard let name = params["name"]?.string else {
            return .failure(Failure(code: -32602, message: "tools/call: \"name\" must be a tool name"))
        }
        guard let tool = tools.first(where: { $0.method == name }) else {
            let writes =
                MCPTool.catalog.contains { $0.method == name && $0.writes }
                ? " (writes need `entityidx mcp --allow-writes`)" : ""
            return .failure(
                Failure(
                    code: -32602,
                    message: "unknown tool \"\(name)\"\(writes); tools: \(tools.map(\.method).joined(separator: ", "))")
            )
        }
        let arguments = params["arguments"] ?? [:]
        guard case .object = arguments else {
            return .failure(
                Failure(code: -32602, message: "\(name): arguments must be an object, got \(arguments.typeName)"))
        }
        let content: [(key: String, value: JSONValue)]
        do {
            let result = try handler.call(tool.method, arguments)
            content = [
                ("content", [["type": "text", "text": .string(JSONWriter.string(result))]]),
                ("structuredContent", result), ("isError", false),
            ]
        } catch {
            if error.isInvalidInput {
                return .failure(Failure(code: -32602, message: error.message, data: PipeServer.errorData(error)))
            }
            content = [
                ("content", [["type": "text", "text": .string("\(error.code.rawValue): \(error.message)")]]),
                ("isError", true),
            ]
        }
        return .success(.object(modern(content, ttlMs: nil)))
    }

    private func readResource(_ params: JSONObject) -> Result<JSONValue, Failure> {
        guard let uri = params["uri"]?.string else {
            return .failure(Failure(code: -32602, message: "resources/read: \"uri\" must be a string"))
        }
        guard let (type, id) = MCPTool.entityReference(uri) else {
            return .failure(
                Failure(
                    code: -32602, message: "resources/read: \"\(uri)\" is not an entityidx://entity/{type}/{id} URI",
                    data: ["uri": .string(uri)]))
        }
        let entity: JSONValue?
        do {
            entity = try handler.call("get", ["type": .string(type), "ids": [.string(id)]])["entities"]?.array?.first
        } catch {
            let code = error.isInvalidInput ? -32602 : -32603
            return .failure(Failure(code: code, message: error.message, data: ["uri": .string(uri)]))
        }
        guard let entity else {
            return .failure(
                Failure(
                    code: -32602, message: "resource not found: no entity \(type)/\(id)", data: ["uri": .string(uri)]))
        }
        let contents: JSONValue = [
            ["uri": .string(uri), "mimeType": "application/json", "text": .string(JSONWriter.string(entity))]
        ]
        return .success(.object(modern([("contents", contents)], ttlMs: 0)))
    }

    // MARK: - Eras

    /// A problem with a stateless request's `_meta`, nil when it names a supported version and the capabilities.
    private func checkModernMeta(_ params: JSONObject) -> Failure? {
        guard let meta = params["_meta"]?.object, let version = meta[Self.versionKey]?.string else {
            return Failure(
                code: -32602,
                message:
                    "this request needs _meta[\"\(Self.versionKey)\"] (protocol 2026-07-28) or an initialize handshake first"
            )
        }
        guard Self.modernVersions.contains(version) else { return unsupported(version) }
        guard case .object? = meta[Self.capabilitiesKey] else {
            return Failure(
                code: -32602,
                message: "this request needs _meta[\"\(Self.capabilitiesKey)\"] (an object; protocol 2026-07-28)")
        }
        return nil
    }

    private func unsupported(_ version: String) -> Failure {
        Failure(
            code: -32022,
            message:
                "protocol version \"\(version)\" is not supported without initialize; use \(Self.modernVersions.joined(separator: ", ")) or the initialize handshake (\(Self.legacyVersions.joined(separator: ", ")))",
            data: ["supported": .array(Self.modernVersions.map { .string($0) }), "requested": .string(version)])
    }

    /// A result with the 2026-07-28 fields (`resultType`, and `ttlMs`/`cacheScope` for cacheable ones) when the
    /// connection is stateless; as is after an `initialize`.
    private func modern(_ pairs: [(key: String, value: JSONValue)], ttlMs: Int?) -> JSONObject {
        var result = JSONObject(pairs)
        guard legacyVersion == nil else { return result }
        result["resultType"] = "complete"
        if let ttlMs {
            result["ttlMs"] = JSONValue(ttlMs)
            result["cacheScope"] = "private"
        }
        return result
    }

    private var capabilities: JSONValue { ["tools": ["listChanged": false], "resources": [:]] }
    private var serverInfo: JSONValue {
        ["name": .string(PipeSchema.serverName), "version": .string(PipeSchema.serverVersion)]
    }

    static func error(_ id: JSONValue, _ code: Int, _ message: String, data: JSONValue? = nil) -> JSONValue {
        var error = JSONObject([("code", JSONValue(code)), ("message", .string(message))])
        if let data { error["data"] = data }
        return .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("error", .object(error))]))
    }
}
