import JSONRPC

/// A service whose writes pass only when the request was allowed to write: the others get an error in their place,
/// and the count of refusals lets the transport answer with 401 or 403.
///
/// It wraps the pipe's and the MCP server's services for one HTTP request, so that `POST /rpc` and `/mcp` run the
/// same endpoint code as `pipe` and `mcp`, with the same answers, around a check of their own.
final class WriteGate: RPCService {
    enum Refusal {
        /// `serve` was started without `--allow-writes`: 403.
        case writesOff
        /// The request has no valid bearer token: 401.
        case noToken
    }

    let inner: RPCService
    let isWrite: (RPCRequest) -> Bool
    /// Why writes are refused; nil when they pass.
    let refusal: Refusal?
    private(set) var refused = 0

    init(_ inner: RPCService, refusal: Refusal?, isWrite: @escaping (RPCRequest) -> Bool) {
        self.inner = inner
        self.refusal = refusal
        self.isWrite = isWrite
    }

    var dialect: RPCDialect { inner.dialect }

    func answer(_ request: RPCRequest, room: Int) -> RPCAnswer {
        guard let refusal, isWrite(request) else { return inner.answer(request, room: room) }
        refused += 1
        switch refusal {
        case .writesOff:
            return .error(
                RPCError(
                    -32000,
                    "\(RPCError.quoted(request.method)) writes, and this server only reads: start it with entityidx serve --allow-writes",
                    name: "read_only"))
        case .noToken:
            return .error(
                RPCError(
                    -32000,
                    "\(RPCError.quoted(request.method)) writes and needs the token serve printed at start (or ENTITYIDX_TOKEN): send the header Authorization: Bearer TOKEN",
                    name: "unauthorized"))
        }
    }

    func isReadOnly(_ request: RPCRequest) -> Bool { inner.isReadOnly(request) }

    /// The HTTP status of a response in which writes were refused, nil when none was.
    var status: Int? {
        guard refused > 0, let refusal else { return nil }
        return refusal == .writesOff ? 403 : 401
    }
}
