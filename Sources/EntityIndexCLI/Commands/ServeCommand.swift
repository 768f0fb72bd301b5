import EntityIndex
import EntityIndexPipe
import EntityIndexServe
import HTTP
import JSON
import Synchronization
import System

/// `entityidx serve`: the pipe and MCP over HTTP on loopback, and the preview page.
struct ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve", abstract: "Serve JSON-RPC, MCP (Streamable HTTP) and a preview page over HTTP on loopback",
        usage:
            "entityidx serve [--db PATH] [--port N] [--host ADDRESS] [--allow-writes] [--allow-origin ORIGIN]…",
        options: [
            ("port=", "the TCP port (default 8765; 0: a free port, printed at start)"),
            ("host=", "the address to listen on (default 127.0.0.1; another one is reachable from elsewhere)"),
            ("allow-writes", "allow writes, with the bearer token printed at start (or $ENTITYIDX_TOKEN)"),
            ("allow-origin=", "also allow pages of this origin (scheme://host[:port]), besides loopback ones"),
            ("max-body-bytes=", "the largest request body (default 67108864, 64 MiB)"),
            ("max-connections=", "the most open connections (default 128)"),
            ("idle-timeout=", "seconds a connection may stay silent, and a request may take to arrive (default 30)"),
            ("request-timeout=", "seconds a JSON-RPC or MCP request may run, waits included (default 60; 0: no bound)"),
            ("batch-timeout=", "seconds a batch may go without a request before it is rolled back (default 30)"),
            ("max-held-bytes=", "the most bytes of requests held at once across connections (default 268435456)"),
            ("log", "print a line per request on stderr: method, path, status, bytes, time (never a body)"),
        ],
        discussion: """
            POST /rpc answers the pipe's JSON-RPC 2.0 (single and batch), with the same methods, errors and limits.
            /mcp is MCP's Streamable HTTP transport: the tools of entityidx mcp, an initialize handshake opening a
            session (Mcp-Session-Id; DELETE ends it) or stateless 2026-07-28 requests; GET is 405. GET / is the
            preview page: search as you type, results as Spotlight lists them, the ranking tiers, user-query
            suggestions and the index's lint findings. The first line on stdout is "listening on
            http://HOST:PORT"; with --allow-writes the next is "token: TOKEN" (unless $ENTITYIDX_TOKEN is set):
            writes need "Authorization: Bearer TOKEN" (401 without it; 403 without --allow-writes). A request
            with an Origin header that is not loopback or allowed gets 403, and so does, on loopback, a Host that
            is not a loopback name. Without --allow-writes the index must exist. Ends on SIGINT/SIGTERM (exit
            status 128 + the signal).
            """,
        repeatable: ["allow-origin"])

    var port: Int
    var host: String
    var allowWrites: Bool
    var origins: [String]
    var maxBodyBytes: Int
    var maxConnections: Int
    var idleTimeout: Double
    var requestTimeout: Double?
    var batchTimeout: Double
    var maxHeldBytes: Int
    var log: Bool

    var writes: Bool { allowWrites }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let usage = Self.spec.usage
        guard arguments.positionals.isEmpty else { throw UsageError("serve takes no arguments", usage: usage) }
        port = try arguments.int("port", range: 0...65535, usage: usage) ?? 8765
        host = arguments.value("host") ?? "127.0.0.1"
        guard !host.isEmpty else { throw UsageError("--host must be an address, not empty", usage: usage) }
        allowWrites = arguments.flag("allow-writes")
        origins = arguments.all("allow-origin")
        for origin in origins where !Self.isOrigin(origin) {
            throw UsageError(
                "--allow-origin must be an origin as a browser sends it, scheme://host[:port] without a path (or null), got \(Quoting.quoted(origin))",
                usage: usage)
        }
        maxBodyBytes = try arguments.int("max-body-bytes", range: 1024...(1 << 30), usage: usage) ?? (64 << 20)
        maxConnections = try arguments.int("max-connections", range: 1...10_000, usage: usage) ?? 128
        idleTimeout = Double(try arguments.int("idle-timeout", range: 1...86_400, usage: usage) ?? 30)
        let timeout = try arguments.int("request-timeout", range: 0...86_400, usage: usage) ?? 60
        requestTimeout = timeout == 0 ? nil : Double(timeout)
        batchTimeout = Double(try arguments.int("batch-timeout", range: 1...86_400, usage: usage) ?? 30)
        maxHeldBytes = try arguments.int("max-held-bytes", range: 1 << 20...(1 << 40), usage: usage) ?? (256 << 20)
        log = arguments.flag("log")
    }

    static func isOrigin(_ text: String) -> Bool {
        text == "null" || HTTPOrigin(text)?.isWeb == true
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let handler = try context.handler()
        var token: String?
        var tokenFromEnvironment = false
        if allowWrites {
            if let given = Platform.environment("ENTITYIDX_TOKEN"), !given.isEmpty {
                token = given
                tokenFromEnvironment = true
            } else {
                token = WebServer.randomHex(bytes: 32)
            }
        }
        let loopback = Self.isLoopback(host)
        let output = LogOutput(context)
        let web = WebServer(
            handler: handler, open: Self.opener(path: context.dbPath, fixedNow: context.fixedNow),
            options: WebServer.Options(
                loopback: loopback, allowedOrigins: origins, token: token, log: log, maxMessageBytes: maxBodyBytes,
                requestTimeout: requestTimeout, batchTimeout: batchTimeout),
            errorOutput: { output.write($0) },
            clock: { SystemClock.monotonicSeconds() })
        let configuration = HTTPServer.Configuration(
            host: host, port: UInt16(port),
            limits: HTTPLimits(maxBodyBytes: maxBodyBytes), maxConnections: maxConnections,
            idleTimeout: idleTimeout, maxHeldBytes: maxHeldBytes)
        let server: HTTPServer
        do throws(HTTPServerError) {
            server = try HTTPServer(configuration, exchange: { web.respond(to: $0, $1) })
        } catch {
            throw EntityIndexError(.io, "serve: \(error.message)")
        }
        StopSignal.install()
        if !loopback {
            context.printError(
                "warning: listening on \(host), which other machines may reach; only loopback is safe for an index of real data"
            )
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        context.print("listening on http://\(shown):\(server.port)")
        if let token, !tokenFromEnvironment { context.print("token: \(token)") }
        context.printError(
            "preview http://\(shown):\(server.port)/ · JSON-RPC POST /rpc · MCP /mcp"
                + (allowWrites
                    ? " · writes need Authorization: Bearer TOKEN"
                        + (tokenFromEnvironment ? " (the token in ENTITYIDX_TOKEN)" : "")
                    : " · read-only"))
        server.run(shouldStop: { StopSignal.received != nil }, idle: { web.idle() })
        server.closeAll()
        web.stop()
        return StopSignal.received.map { 128 + $0 } ?? 0
    }

    /// Opens another connection to the index, for serve's readers and batches: writes wait for the lock within
    /// their request's budget.
    static func opener(path: String, fixedNow: Int64?) -> @Sendable () throws(EntityIndexError) -> RequestHandler {
        {
            let clock: () -> Int64 = { fixedNow ?? SystemClock.wallMilliseconds() }
            let open = { () throws(EntityIndexError) -> EntityStore in
                try EntityStore(path: path, now: clock())
            }
            return RequestHandler(store: try open(), clock: clock, reopen: open)
        }
    }
}

/// The log lines of serve's threads, written one at a time on stderr.
final class LogOutput: @unchecked Sendable {
    // Safe to share: the context's error output is used only under the mutex.
    private let context: CommandContext
    private let mutex = Mutex<Void>(())

    init(_ context: CommandContext) { self.context = context }

    func write(_ line: String) {
        mutex.withLock { _ in context.printError(line.hasSuffix("\n") ? String(line.dropLast()) : line) }
    }
}
