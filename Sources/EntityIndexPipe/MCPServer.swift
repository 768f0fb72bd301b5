import EntityIndex
import JSON
import JSONRPC

/// A Model Context Protocol server on stdio: the pipe's read methods (and, when allowed, its writes) as tools.
///
/// Newline-delimited JSON-RPC 2.0, nothing but protocol messages on the output
/// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports); the envelope, batches, the response
/// bound, memory checks and signals are the JSON-RPC layer's (`RPCEndpoint`, `RPCStreamServer`), as for the pipe. Both eras are served: an
/// `initialize` handshake (2024-11-05 to 2025-11-25) makes the connection legacy; without one, each request is
/// stateless 2026-07-28 and carries its protocol version and client capabilities in `_meta`. A tool's failures,
/// bad arguments included, are results with `isError` (the model sees them and can correct the call); an unknown
/// tool and a `tools/call` whose `name` or `arguments` is malformed are -32602.
public final class MCPServer: RPCService {
    public static let legacyVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    public static let modernVersions = ["2026-07-28"]
    static let versionKey = "io.modelcontextprotocol/protocolVersion"
    static let capabilitiesKey = "io.modelcontextprotocol/clientCapabilities"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"
    /// The `_meta` key of a failed tool call's pipe error (`{code, message, data}`).
    static let errorKey = "entityidx/error"
    static let instructions = """
        An index of the app's entities (orders, products, customers, …) with Spotlight-style search. Use \
        search_entities for words, ids and codes (typo-tolerant, best first; with matching "frequency" for a spoken \
        or natural-language request, whose words need not all match), query_entities for property filters \
        and sorting, get_entities for known ids, get_related_entities for linked entities, index_stats for the \
        types present. Entities are also resources: entityidx://entity/{type}/{id}; so is each tool's whole \
        description and schemas (its result's included): entityidx://tool/{name}.
        """

    /// What runs the tools' methods; `serve` sets it for each HTTP request of a session.
    public var runner: any MethodRunner
    let input: Int32
    let output: Int32
    let tools: [MCPTool]
    public let limits: RPCLimits
    /// The version agreed by `initialize`; nil until then (stateless, per-request versions).
    private(set) var legacyVersion: String?
    /// The version agreed by `initialize`, nil before one (an HTTP transport opens a session on it).
    public var negotiatedVersion: String? { legacyVersion }
    /// Whether `tools/list` shows the write tools: `serve` lists them only to a client that sent the token (a call
    /// is checked on its own, so a client without it is told it needs the token).
    public var listsWrites = true
    /// The tools' entries in `tools/list`, built once: every tool, and the read tools alone.
    private lazy var toolDefinitions: JSONValue = .array(tools.map(\.definition))
    private lazy var readToolDefinitions: JSONValue = .array(tools.filter { !$0.writes }.map(\.definition))

    public convenience init(
        handler: RequestHandler, allowWrites: Bool, input: Int32 = 0, output: Int32 = 1,
        maxMessageBytes: Int = RPCLimits.defaultMaxMessageBytes,
        maxResponseBytes: Int = RPCLimits.defaultMaxResponseBytes
    ) {
        self.init(
            runner: handler, allowWrites: allowWrites, input: input, output: output, maxMessageBytes: maxMessageBytes,
            maxResponseBytes: maxResponseBytes)
    }

    public init(
        runner: any MethodRunner, allowWrites: Bool, input: Int32 = 0, output: Int32 = 1,
        maxMessageBytes: Int = RPCLimits.defaultMaxMessageBytes,
        maxResponseBytes: Int = RPCLimits.defaultMaxResponseBytes
    ) {
        self.runner = runner
        self.input = input
        self.output = output
        tools = MCPTool.offered(allowWrites: allowWrites)
        limits = RPCLimits(maxMessageBytes: maxMessageBytes, maxResponseBytes: maxResponseBytes)
    }

    /// The message handling, apart from the transport (it holds the server: make one per use).
    public var endpoint: RPCEndpoint { RPCEndpoint(service: self, limits: limits) }

    /// Serves until end of input or a stop signal; returns the process exit status (128 + the signal after one).
    public func run() -> Int32 {
        RPCStreamServer(endpoint: endpoint, input: input, output: output, framing: .lines).run()
    }

    /// Answers one message; nil when nothing is to be sent (a notification, a response, a blank line).
    public func handle(line: [UInt8]) -> JSONValue? {
        endpoint.respond(to: line).flatMap { try? JSONParser(maxDepth: RPCLimits.defaultMaxDepth + 8).parse($0) }
    }

    // MARK: - RPCService

    public var dialect: RPCDialect { .mcp }

    public func answer(_ request: RPCRequest, room: Int) -> RPCAnswer {
        // notifications/initialized, notifications/cancelled, …: nothing to do.
        if request.isNotification { return .result(.null) }
        let params = request.params ?? [:]
        guard case .object(let p) = params else {
            return .error(RPCError(code: -32602, message: "params must be an object"))
        }
        return answer(request.method, p, room: room)
    }

    public func isReadOnly(_ request: RPCRequest) -> Bool {
        switch request.method {
        case "initialize": false
        case "tools/call":
            tools.first { $0.name == request.params?["name"]?.string }.map { !$0.writes } ?? true
        default: true
        }
    }

    /// While no request comes: a file moved over the database is let go of within a second (as the pipe does).
    public func idle() { runner.idle() }

    // MARK: - Methods

    static let methods = [
        "initialize", "ping", "server/discover", "tools/list", "tools/call", "resources/list",
        "resources/templates/list", "resources/read",
    ]

    private func answer(_ method: String, _ params: JSONObject, room: Int) -> RPCAnswer {
        switch method {
        case "initialize":
            let asked = params["protocolVersion"]?.string ?? ""
            let version = Self.legacyVersions.contains(asked) ? asked : Self.legacyVersions.last!
            legacyVersion = version
            return .result([
                "protocolVersion": .string(version), "capabilities": capabilities,
                "serverInfo": serverInfo, "instructions": .string(Self.instructions),
            ])
        case "ping":
            return .result([:])
        case "server/discover":
            if let asked = params["_meta"]?[Self.versionKey]?.string, !Self.modernVersions.contains(asked) {
                return .error(unsupported(asked))
            }
            return .result(
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
            if legacyVersion == nil, let problem = checkModernMeta(params) { return .error(problem) }
            return feature(method, params, room: room)
        default:
            // Without data.code: MCP's errors are code and message.
            return .error(RPCError(code: -32601, message: RPCError.methodNotFound(method, known: Self.methods).message))
        }
    }

    private func feature(_ method: String, _ params: JSONObject, room: Int) -> RPCAnswer {
        switch method {
        case "tools/list":
            let listed = listsWrites ? toolDefinitions : readToolDefinitions
            return .result(.object(modern([("tools", listed)], ttlMs: 300_000)))
        case "tools/call":
            return callTool(params, room: room)
        case "resources/list":
            return .result(.object(modern([("resources", [])], ttlMs: 0)))
        case "resources/templates/list":
            return .result(
                .object(
                    modern(
                        [("resourceTemplates", [MCPTool.resourceTemplate, MCPTool.toolResourceTemplate])],
                        ttlMs: 300_000)))
        default:
            return readResource(params)
        }
    }

    // MARK: - Eras

    /// A problem with a stateless request's `_meta`, nil when it names a supported version and the capabilities.
    private func checkModernMeta(_ params: JSONObject) -> RPCError? {
        guard let meta = params["_meta"]?.object, let version = meta[Self.versionKey]?.string else {
            return RPCError(
                code: -32602,
                message:
                    "this request needs _meta[\"\(Self.versionKey)\"] (protocol 2026-07-28) or an initialize handshake first"
            )
        }
        guard Self.modernVersions.contains(version) else { return unsupported(version) }
        guard case .object? = meta[Self.capabilitiesKey] else {
            return RPCError(
                code: -32602,
                message: "this request needs _meta[\"\(Self.capabilitiesKey)\"] (an object; protocol 2026-07-28)")
        }
        return nil
    }

    private func unsupported(_ version: String) -> RPCError {
        RPCError(
            code: -32022,
            message:
                "protocol version \(RPCError.quoted(version)) is not supported without initialize; use \(Self.modernVersions.joined(separator: ", ")) or the initialize handshake (\(Self.legacyVersions.joined(separator: ", ")))",
            data: [
                "supported": .array(Self.modernVersions.map { .string($0) }),
                "requested": .string(RPCError.prefix(version)),
            ])
    }

    /// A result with the 2026-07-28 fields (`resultType`, and `ttlMs`/`cacheScope` for cacheable ones) when the
    /// connection is stateless; as is after an `initialize`.
    func modern(_ pairs: [(key: String, value: JSONValue)], ttlMs: Int?) -> JSONObject {
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
}
