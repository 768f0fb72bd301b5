import EntityIndexPipe
import HTTP
import JSON
import JSONRPC

/// An MCP session of the Streamable HTTP transport: the server of one client after its `initialize`, used by one
/// of its requests at a time.
final class MCPSession: @unchecked Sendable {
    // Safe to share: `server` is used only in `turn`; `lastUsed` is a hint for eviction.
    let server: MCPServer
    let turn = Turn()
    var lastUsed: Double

    init(server: MCPServer, lastUsed: Double) {
        self.server = server
        self.lastUsed = lastUsed
    }
}

/// `/mcp`: MCP's Streamable HTTP transport
/// (https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http), on the stdio
/// server's code.
///
/// A POST carries one JSON-RPC message (or a batch); its answer comes as `application/json`, or as one event of a
/// `text/event-stream` (chunked) when the client accepts only that; notifications and responses alone get 202.
/// `initialize` opens a session (`Mcp-Session-Id` in the answer; later requests send it, an unknown one is 404,
/// DELETE ends it). Requests without a session are the stateless 2026-07-28 era, each answered by a server of its
/// own, as the stdio server answers them before any `initialize`. GET is 405: this server sends nothing unasked.
extension WebServer {
    static let sessionHeader = "Mcp-Session-Id"
    static let versionHeader = "MCP-Protocol-Version"

    /// What the Accept header takes: JSON, events or both.
    static func takes(_ request: HTTPRequest) -> (json: Bool, events: Bool) {
        let accept = (request.header("Accept") ?? "*/*").lowercased()
        let takesJSON =
            accept.contains("application/json") || accept.contains("*/*") || accept.contains("application/*")
        return (takesJSON, accept.contains("text/event-stream"))
    }

    /// The refusals of a POST /mcp that need no worker; nil when it is to run.
    func checkMCP(_ request: HTTPRequest) -> HTTPResponse? {
        let (takesJSON, takesEvents) = Self.takes(request)
        guard takesJSON || takesEvents else {
            return Self.text(406, "answers are application/json or text/event-stream; the Accept header allows neither")
        }
        if let refusal = Self.checkJSONBody(request) { return refusal }
        if let version = request.header(Self.versionHeader),
            !(MCPServer.legacyVersions + MCPServer.modernVersions).contains(version)
        {
            return Self.text(
                400,
                "\(Self.versionHeader) \(RPCError.quoted(version)) is not supported; supported: \((MCPServer.legacyVersions + MCPServer.modernVersions).joined(separator: ", "))"
            )
        }
        return nil
    }

    func mcp(_ request: HTTPRequest) -> HTTPResponse {
        let takesJSON = Self.takes(request).json
        let session: MCPSession?
        if let id = request.header(Self.sessionHeader) {
            guard let found = sessions.withLock({ $0[id] }) else {
                return Self.text(
                    404, "no session \(RPCError.quoted(id)) (it ended, or the server restarted): initialize again")
            }
            found.lastUsed = clock()
            session = found
        } else {
            session = nil
        }
        let runner = ServeRunner(stores: stores, batchId: nil)
        defer { runner.finish() }
        if let session {
            do {
                try session.turn.take(doing: "waiting for this session's previous request")
            } catch {
                return Self.text(503, error.message)
            }
        }
        defer { session?.turn.leave() }
        let server =
            session?.server
            ?? MCPServer(runner: runner, allowWrites: writes, maxMessageBytes: options.maxMessageBytes)
        server.runner = runner
        server.listsWrites = writeRefusal(request) == nil
        let gate = WriteGate(server, refusal: writeRefusal(request)) { call in
            call.method == "tools/call" && !server.isReadOnly(call)
        }
        let answer = RPCEndpoint(service: gate, limits: server.limits).respond(to: request.body)
        var headers: [(name: String, value: String)] = []
        if session == nil, let version = server.negotiatedVersion {
            let id = Self.newSessionId()
            keep(MCPSession(server: server, lastUsed: clock()), id: id)
            headers.append((Self.sessionHeader, id))
            headers.append((Self.versionHeader, version))
        }
        if gate.status == 401 { headers.append(("WWW-Authenticate", "Bearer realm=\"entityidx\"")) }
        guard let bytes = answer else { return HTTPResponse(status: gate.status ?? 202, headers: headers) }
        if takesJSON { return Self.json(gate.status ?? 200, bytes, headers: headers) }
        let event = Array("event: message\ndata: ".utf8) + bytes + Array("\n\n".utf8)
        return HTTPResponse(
            status: gate.status ?? 200,
            headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")] + headers,
            body: .chunks([event]))
    }

    func endSession(_ request: HTTPRequest) -> HTTPResponse {
        guard let id = request.header(Self.sessionHeader) else {
            return Self.text(400, "DELETE /mcp ends a session: send its \(Self.sessionHeader)")
        }
        guard sessions.withLock({ $0.removeValue(forKey: id) }) != nil else {
            return Self.text(404, "no session \(RPCError.quoted(id))")
        }
        return HTTPResponse(status: 204)
    }

    /// Keeps a session; past the bound, the one used the longest ago ends.
    private func keep(_ session: MCPSession, id: String) {
        sessions.withLock { sessions in
            if sessions.count >= options.maxSessions,
                let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed })
            {
                sessions.removeValue(forKey: oldest.key)
            }
            sessions[id] = session
        }
    }

    /// 128 random bits in hex (visible ASCII, as the transport asks).
    static func newSessionId() -> String { randomHex(bytes: 16) }

    /// `bytes` random bytes from the system's secure generator, in hex.
    public static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<bytes {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }
        return text
    }
}
