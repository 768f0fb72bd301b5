import EntityIndex
import EntityIndexPipe
import HTTP
import JSON
import JSONRPC

/// What `entityidx serve` answers: `POST /rpc` (the pipe), `/mcp` (MCP's Streamable HTTP transport), `GET /` (the
/// preview page), behind its checks of `Host`, `Origin` and the write token.
///
/// Built on the HTTP module, which only moves bytes, and on the JSON-RPC layer's endpoint, which `pipe` and `mcp`
/// use too: a message gets the same answer here as there.
public final class WebServer {
    public struct Options: Sendable {
        /// Whether the server listens on a loopback address only (then `Host` must name it).
        public var loopback: Bool
        /// Origins allowed besides the loopback ones (`--allow-origin`), as browsers write them.
        public var allowedOrigins: [String]
        /// The bearer token writes need; nil when writes are off.
        public var token: String?
        /// Whether to write a line per request on stderr (method, path without its query, status, bytes, time).
        public var log: Bool
        public var maxMessageBytes: Int
        /// The most MCP sessions kept; one more ends the one used the longest ago.
        public var maxSessions: Int

        public init(
            loopback: Bool = true, allowedOrigins: [String] = [], token: String? = nil, log: Bool = false,
            maxMessageBytes: Int = RPCLimits.defaultMaxMessageBytes, maxSessions: Int = 64
        ) {
            self.loopback = loopback
            self.allowedOrigins = allowedOrigins
            self.token = token
            self.log = log
            self.maxMessageBytes = maxMessageBytes
            self.maxSessions = maxSessions
        }
    }

    public let options: Options
    let handler: RequestHandler
    let pipe: PipeServer
    var sessions: [String: MCPSession] = [:]
    let errorOutput: (String) -> Void
    /// The clock of the request log and the sessions, in seconds.
    let clock: () -> Double

    public init(
        handler: RequestHandler, options: Options, errorOutput: @escaping (String) -> Void,
        clock: @escaping () -> Double
    ) {
        self.handler = handler
        self.options = options
        self.errorOutput = errorOutput
        self.clock = clock
        pipe = PipeServer(handler: handler, maxLineBytes: options.maxMessageBytes)
    }

    /// Whether writes are allowed at all (`--allow-writes`).
    var writes: Bool { options.token != nil }

    /// Answers one request.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = clock()
        var response = route(request)
        if let origin = request.header("Origin"), originAllowed(origin) {
            response.headers += corsHeaders(origin)
        }
        if options.log {
            let bytes: Int
            switch response.body {
            case .bytes(let b): bytes = b.count
            case .chunks(let c): bytes = c.reduce(0) { $0 + $1.count }
            }
            let ms = (clock() - started) * 1000
            errorOutput(
                "\(request.method) \(RPCError.prefix(request.path)) \(response.status) \(bytes) B \(Double(Int(ms * 10)) / 10) ms\n"
            )
        }
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = checkHostAndOrigin(request) { return refusal }
        let methods: [String]
        switch request.path {
        case "/", "/index.html", "/preview.css", "/preview.js": methods = ["GET", "HEAD"]
        case "/rpc": methods = ["POST"]
        // GET is 405: the server sends no message of its own, so it offers no event stream (MCP 2025-06-18).
        case "/mcp": methods = ["POST", "DELETE"]
        default:
            return Self.text(404, "nothing at \(RPCError.quoted(request.path)): try / (the preview), /rpc or /mcp")
        }
        if request.method == "OPTIONS" { return preflight(request, methods: methods) }
        guard methods.contains(request.method) else {
            return notAllowed(request, methods)
        }
        switch request.path {
        case "/rpc": return rpc(request)
        case "/mcp": return mcp(request)
        default: return asset(request.path)
        }
    }

    func notAllowed(_ request: HTTPRequest, _ methods: [String]) -> HTTPResponse {
        var response = Self.text(
            405, "\(request.method) is not allowed on \(request.path); allowed: \(methods.joined(separator: ", "))")
        response.headers.append(("Allow", (methods + ["OPTIONS"]).joined(separator: ", ")))
        return response
    }

    // MARK: - POST /rpc

    private func rpc(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = Self.checkJSONBody(request) { return refusal }
        let gate = WriteGate(pipe, refusal: writeRefusal(request)) { request in
            !(Method(rawValue: request.method)?.reads ?? true)
        }
        let endpoint = RPCEndpoint(service: gate, limits: pipe.limits)
        guard let bytes = endpoint.respond(to: request.body) else {
            return HTTPResponse(status: gate.status ?? 204)
        }
        var response = Self.json(gate.status ?? 200, bytes)
        if gate.status == 401 { response.headers.append(("WWW-Authenticate", "Bearer realm=\"entityidx\"")) }
        return response
    }

    /// Why this request may not write: nil when it may.
    func writeRefusal(_ request: HTTPRequest) -> WriteGate.Refusal? {
        guard let token = options.token else { return .writesOff }
        guard let authorization = request.header("Authorization"),
            authorization.count > 7, authorization.prefix(7).lowercased() == "bearer "
        else { return .noToken }
        return Self.sameSecret(Array(authorization.dropFirst(7).utf8), Array(token.utf8)) ? nil : .noToken
    }

    /// Compares in time that depends on the lengths only.
    static func sameSecret(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    // MARK: - Responses

    static func text(_ status: Int, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, text: message + "\n")
    }

    static func json(_ status: Int, _ bytes: [UInt8], headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(bytes))
    }

    /// 415 unless the body is declared JSON; 400 when it is empty.
    static func checkJSONBody(_ request: HTTPRequest) -> HTTPResponse? {
        let type = request.header("Content-Type")?.split(separator: ";").first.map {
            String($0).lowercased().trimmingCharacters
        }
        guard type == "application/json" else {
            return text(
                415,
                "the body must be JSON, sent with Content-Type: application/json (got \(RPCError.quoted(type ?? "none")))"
            )
        }
        return nil
    }
}

extension String {
    var trimmingCharacters: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
