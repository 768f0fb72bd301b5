import EntityIndex
import EntityIndexPipe
import HTTP
import JSON
import JSONRPC
import Synchronization

/// What `entityidx serve` answers: `POST /rpc` (the pipe), `/mcp` (MCP's Streamable HTTP transport), `GET /` (the
/// preview page), behind its checks of `Host`, `Origin` and the write token.
///
/// Built on the HTTP module, which only moves bytes, and on the JSON-RPC layer's endpoint, which `pipe` and `mcp`
/// use too: a message gets the same answer here as there. Each JSON-RPC or MCP request runs on a worker thread of
/// its own, under a time budget that its client's hanging up also ends, on the connection it needs
/// (`ServeStores`): reads beside writes, writes one after another, a batch only with its own client's requests.
public final class WebServer: @unchecked Sendable {
    // Safe to share: `options` and the stores' opener never change; `sessions` is read and written under its
    // mutex, a session's server only in its turn; `stores` and `pool` are safe themselves.
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
        /// Seconds one JSON-RPC or MCP request may run (waits for a lock or a connection included); nil: no bound.
        public var requestTimeout: Double?
        /// Seconds a batch may go without a request before it is rolled back.
        public var batchTimeout: Double
        /// The most batches open at once.
        public var maxBatches: Int
        /// The most reading connections (reads beyond wait for one).
        public var maxReaders: Int
        /// The most requests answered at once (more wait their turn).
        public var maxWorkers: Int

        public init(
            loopback: Bool = true, allowedOrigins: [String] = [], token: String? = nil, log: Bool = false,
            maxMessageBytes: Int = RPCLimits.defaultMaxMessageBytes, maxSessions: Int = 64,
            requestTimeout: Double? = 60, batchTimeout: Double = 30, maxBatches: Int = 16, maxReaders: Int = 4,
            maxWorkers: Int = 32
        ) {
            self.loopback = loopback
            self.allowedOrigins = allowedOrigins
            self.token = token
            self.log = log
            self.maxMessageBytes = maxMessageBytes
            self.maxSessions = maxSessions
            self.requestTimeout = requestTimeout
            self.batchTimeout = batchTimeout
            self.maxBatches = maxBatches
            self.maxReaders = maxReaders
            self.maxWorkers = maxWorkers
        }
    }

    public let options: Options
    let stores: ServeStores
    let pool: WorkerPool
    let sessions = Mutex<[String: MCPSession]>([:])
    let errorOutput: @Sendable (String) -> Void
    /// The clock of the request log, the sessions and the batches, in seconds.
    let clock: @Sendable () -> Double
    private let lastUpkeep = Mutex<Double>(0)

    /// A server on `handler`'s store (its writer); `open` opens another connection to the same index, for readers
    /// and batches.
    public init(
        handler: RequestHandler, open: @escaping @Sendable () throws(EntityIndexError) -> RequestHandler,
        options: Options, errorOutput: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> Double
    ) {
        self.options = options
        self.errorOutput = errorOutput
        self.clock = clock
        stores = ServeStores(
            writer: handler, open: open, maxReaders: options.maxReaders, maxBatches: options.maxBatches,
            batchTimeout: options.batchTimeout, clock: clock)
        pool = WorkerPool(maxThreads: options.maxWorkers)
    }

    /// Whether writes are allowed at all (`--allow-writes`).
    var writes: Bool { options.token != nil }

    /// Answers one request: at once (files, refusals), or on a worker (JSON-RPC and MCP).
    public func respond(to request: HTTPRequest, _ exchange: HTTPExchange) {
        let started = clock()
        if let response = routeAtOnce(request) {
            exchange.respond(finish(request, response, started: started))
            return
        }
        let budget = RequestBudget(seconds: options.requestTimeout)
        exchange.onCancel { budget.cancel() }
        pool.submit { [self] in
            let response = budget.run { run(request) }
            if exchange.isCancelled {
                if options.log {
                    let ms = (clock() - started) * 1000
                    errorOutput(
                        "\(request.method) \(RPCError.prefix(request.path)) cancelled: the client went away (\(Double(Int(ms * 10)) / 10) ms)\n"
                    )
                }
                return
            }
            exchange.respond(finish(request, response, started: started))
        }
    }

    /// Answers one request on the calling thread (for tests).
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = clock()
        if let response = routeAtOnce(request) { return finish(request, response, started: started) }
        let response = RequestBudget(seconds: options.requestTimeout).run { run(request) }
        return finish(request, response, started: started)
    }

    /// Runs a JSON-RPC or MCP request on the calling thread.
    private func run(_ request: HTTPRequest) -> HTTPResponse {
        request.path == "/rpc" ? rpc(request) : mcp(request)
    }

    /// While no request comes, about every 200 ms: once a second, idle batches are rolled back and idle connections
    /// let go of a replaced file.
    public func idle() {
        let now = clock()
        let due = lastUpkeep.withLock { last in
            guard now - last >= 1 else { return false }
            last = now
            return true
        }
        if due { pool.submit { [stores] in stores.upkeep() } }
    }

    /// Stops: waits for the requests under way (a stop signal ends them), then rolls back every open batch.
    public func stop() {
        pool.drain()
        stores.closeAll()
    }

    /// How many batches are open.
    public var openBatches: Int { stores.openBatches }

    /// Adds CORS headers and logs the request.
    private func finish(_ request: HTTPRequest, _ answer: HTTPResponse, started: Double) -> HTTPResponse {
        var response = answer
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

    /// The answer of a request that needs no worker; nil for a JSON-RPC or MCP request to run.
    private func routeAtOnce(_ request: HTTPRequest) -> HTTPResponse? {
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
        case "/rpc": return Self.checkJSONBody(request)
        case "/mcp": return request.method == "DELETE" ? endSession(request) : checkMCP(request)
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
        let runner = ServeRunner(stores: stores, batchId: request.header(ServeRunner.batchHeader))
        defer { runner.finish() }
        let pipe = PipeServer(runner: runner, maxLineBytes: options.maxMessageBytes)
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
