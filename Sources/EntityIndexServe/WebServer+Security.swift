import HTTP
import JSONRPC

/// The checks against other sites: `Host` (DNS rebinding), `Origin` (MCP's transport requires it) and CORS.
///
/// A browser on an allowed origin (a loopback one, such as a dev server on `localhost:8100`, or one named by
/// `--allow-origin`) gets CORS headers and is served; any other origin gets 403 and no CORS header, so its page
/// can neither read an answer nor send a write. A client without `Origin` (curl, an SDK, a native app) is not a
/// browser page and is served.
extension WebServer {
    /// 403 for a foreign `Origin`, or, on loopback, a `Host` that is not a loopback name or an allowed origin's
    /// host (a page of another site whose name was made to point here); nil when both pass.
    func checkHostAndOrigin(_ request: HTTPRequest) -> HTTPResponse? {
        if let origin = request.header("Origin"), !originAllowed(origin) {
            return Self.text(
                403,
                "the origin \(RPCError.quoted(origin)) is not allowed: only loopback origins are, and those given with entityidx serve --allow-origin ORIGIN"
            )
        }
        if options.loopback, let host = request.header("Host"), !hostAllowed(host) {
            return Self.text(
                403,
                "the Host \(RPCError.quoted(host)) is not a name of this loopback server (localhost, 127.0.0.1, [::1]); allow a name with --allow-origin"
            )
        }
        return nil
    }

    /// Whether a page of `origin` may use the server: one named by `--allow-origin`, or an `http` or `https` origin
    /// of a loopback host, parsed strictly (`HTTPOrigin`).
    func originAllowed(_ origin: String) -> Bool {
        let lowered = origin.lowercased()
        if options.allowedOrigins.contains(where: { $0.lowercased() == lowered }) { return true }
        guard let parsed = HTTPOrigin(origin), parsed.isWeb else { return false }
        return parsed.authority.isLoopback
    }

    /// Whether `Host` names this loopback server: a loopback name, or the host of an allowed origin.
    func hostAllowed(_ host: String) -> Bool {
        guard let authority = HTTPAuthority(host) else { return false }
        return authority.isLoopback
            || options.allowedOrigins.contains { HTTPOrigin($0)?.authority.host == authority.host }
    }

    // MARK: - CORS

    static let allowedHeaders =
        "Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Entityidx-Batch"

    func corsHeaders(_ origin: String) -> [(name: String, value: String)] {
        [
            ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
            ("Access-Control-Expose-Headers", "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate"),
        ]
    }

    /// The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or to a plain `OPTIONS`.
    func preflight(_ request: HTTPRequest, methods: [String]) -> HTTPResponse {
        var headers: [(name: String, value: String)] = [("Allow", (methods + ["OPTIONS"]).joined(separator: ", "))]
        if request.header("Origin") != nil {
            headers += [
                ("Access-Control-Allow-Methods", (methods + ["OPTIONS"]).joined(separator: ", ")),
                ("Access-Control-Allow-Headers", Self.allowedHeaders), ("Access-Control-Max-Age", "600"),
            ]
        }
        return HTTPResponse(status: 204, headers: headers)
    }
}
