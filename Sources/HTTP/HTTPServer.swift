import System

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server: one thread, non-blocking sockets and `poll(2)`, keep-alive and pipelining, bounded
/// connections, timeouts and request bodies. What a request means is the handler's: this type only moves bytes.
///
/// The handler is called on the server's thread. It answers at once, or hands the request to another thread and
/// returns: the answer comes later through the request's `HTTPExchange`, and meanwhile the server goes on reading
/// and answering the other connections. A connection's next request is read once its answer is written (requests
/// on one connection are answered in order); while a request is out, a client that hangs up cancels it. Responses
/// are written as fast as each client reads: a slow reader holds only its own connection.
public final class HTTPServer {
    public struct Configuration: Sendable {
        public var host: String
        /// 0: a free port the kernel picks (`port` tells which).
        public var port: UInt16
        public var limits: HTTPLimits
        /// The most open connections; one more makes the server close the connection idle the longest.
        public var maxConnections: Int
        /// Seconds a connection may stay silent (between requests, or while a response waits for its reader)
        /// before it is closed; also the most time a request may take to arrive from its first byte (then 408).
        public var idleTimeout: Double
        /// The most bytes of requests held in memory across every connection: requests still arriving and those
        /// being answered. A connection whose request would pass it is answered 503 and closed.
        public var maxHeldBytes: Int

        public init(
            host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(),
            maxConnections: Int = 128, idleTimeout: Double = 30, maxHeldBytes: Int = 256 << 20
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
            self.maxHeldBytes = maxHeldBytes
        }
    }

    public let configuration: Configuration
    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: (HTTPRequest, HTTPExchange) -> Void
    private let inbox: ExchangeInbox
    private var connections: [Int32: Connection] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    private var nextSerial: UInt64 = 0
    /// The bytes of requests held now (see `Configuration.maxHeldBytes`).
    public private(set) var heldBytes = 0
    /// How many connections were closed because the count reached its bound, for tests and logs.
    public private(set) var evictions = 0
    /// Linux's POLLRDHUP: the peer closed its end (the only event asked of a connection whose request is out).
    private static let peerClosed = Int16(0x2000)

    /// Listens at once (so that a port of 0 is known before `run`); `handler` answers on the server's thread.
    public convenience init(_ configuration: Configuration, handler: @escaping (HTTPRequest) -> HTTPResponse)
        throws(HTTPServerError)
    {
        try self.init(configuration) { request, exchange in exchange.respond(handler(request)) }
    }

    /// Listens at once; `handler` answers through the exchange, now or later from any thread.
    public init(_ configuration: Configuration, exchange handler: @escaping (HTTPRequest, HTTPExchange) -> Void)
        throws(HTTPServerError)
    {
        self.configuration = configuration
        self.handler = handler
        inbox = try ExchangeInbox()
        (listener, port) = try Socket.listen(host: configuration.host, port: configuration.port)
    }

    deinit {
        for fd in connections.keys { close(fd) }
        close(listener)
    }

    /// Serves until `shouldStop` says so (it is asked at least every 200 ms, and after a signal interrupts `poll`);
    /// `idle` is called about every 200 ms.
    public func run(shouldStop: () -> Bool, idle: () -> Void = {}) {
        var fds: [pollfd] = []
        while !shouldStop() {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: inbox.readEnd, events: Int16(POLLIN), revents: 0))
            for (fd, connection) in connections {
                var events: Int16 = 0
                if connection.pendingOutput {
                    events |= Int16(POLLOUT)
                } else if connection.exchange != nil {
                    events |= Self.peerClosed
                } else if !connection.closing {
                    events |= Int16(POLLIN)
                }
                fds.append(pollfd(fd: fd, events: events, revents: 0))
            }
            let ready = Descriptor.retrying(unless: shouldStop) { poll(&fds, nfds_t(fds.count), 200) }
            if ready < 0 { return }
            let now = SystemClock.monotonicSeconds()
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                guard let connection = connections[entry.fd] else { continue }
                if entry.revents & Int16(POLLOUT) != 0 {
                    flush(connection, now: now, resume: true)
                } else if connection.exchange != nil {
                    // The client hung up (or the connection failed) before its answer.
                    drop(connection.fd)
                } else if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    receive(connection, now: now)
                }
            }
            if fds[1].revents != 0 { deliver(now: now) }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptAll(now: now) }
            expire(now: now)
            if ready == 0 || now - lastIdle >= 0.2 {
                lastIdle = now
                idle()
            }
        }
    }

    private var lastIdle = 0.0

    /// Writes the answers that arrived from other threads; an answer whose connection is gone is dropped.
    private func deliver(now: Double) {
        for (serial, response) in inbox.take() {
            guard let connection = connections.values.first(where: { $0.serial == serial }),
                let exchange = connection.exchange, exchange.serial == serial
            else { continue }
            connection.exchange = nil
            answer(connection, connection.request!, response, now: now)
            connection.request = nil
            account(connection)
            flush(connection, now: now, resume: true)
        }
    }

    /// Closes every connection; the listener closes with the server.
    public func closeAll() {
        for fd in Array(connections.keys) { drop(fd) }
    }

    public var openConnections: Int { connections.count }

    // MARK: - Connections

    private func acceptAll(now: Double) {
        while let fd = Socket.accept(listener) {
            if connections.count >= configuration.maxConnections,
                let oldest = connections.values.min(by: {
                    $0.lastActivity < $1.lastActivity
                })
            {
                evictions += 1
                drop(oldest.fd)
            }
            nextSerial += 1
            connections[fd] = Connection(fd: fd, serial: nextSerial, limits: configuration.limits, now: now)
        }
    }

    private func receive(_ connection: Connection, now: Double) {
        switch Socket.read(connection.fd, into: &readBuffer) {
        case .wouldBlock: return
        case .closed: drop(connection.fd)
        case .bytes(let n):
            connection.lastActivity = now
            connection.parser.append(readBuffer[0..<n])
            account(connection)
            if connection.requestStarted == nil { connection.requestStarted = now }
            if heldBytes > configuration.maxHeldBytes, connection.parser.hasPartialRequest {
                refuseForRoom(connection, now: now)
                return
            }
            process(connection, now: now)
        }
    }

    /// Answers 503 and closes: the request would pass the bytes the server holds for every connection together.
    private func refuseForRoom(_ connection: Connection, now: Double) {
        connection.parser = HTTPParser(limits: configuration.limits)
        account(connection)
        var response = HTTPResponse(
            status: 503,
            text:
                "the server holds at most \(configuration.maxHeldBytes) bytes of requests, across every connection, and has no room for this one now; send it again later, or smaller\n",
            close: true)
        response.headers.append(("Retry-After", "1"))
        connection.closing = true
        connection.queue(response.encoded())
        flush(connection, now: now, resume: false)
    }

    /// Answers the requests the connection's bytes hold, one at a time: the next is read once the previous answer
    /// has been written.
    private func process(_ connection: Connection, now: Double) {
        while !connection.pendingOutput, !connection.closing {
            switch connection.parser.next() {
            case .needMore:
                if connection.parser.expectsContinue {
                    connection.parser.expectsContinue = false
                    connection.queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    flush(connection, now: now, resume: false)
                }
                if !connection.parser.hasPartialRequest { connection.requestStarted = nil }
                return
            case .failure(let failure):
                let response = HTTPResponse(status: failure.status, text: failure.message + "\n", close: true)
                connection.closing = true
                connection.queue(response.encoded())
            case .request(let box):
                let exchange = HTTPExchange(serial: connection.serial, inbox: inbox)
                connection.exchange = exchange
                connection.request = box.request
                account(connection)
                handler(box.request, exchange)
                // An answer given at once is written now; a later one when the inbox wakes the server.
                if let response = inbox.take(serial: connection.serial) {
                    connection.exchange = nil
                    answer(connection, box.request, response, now: now)
                    connection.request = nil
                    account(connection)
                } else {
                    return
                }
            }
            flush(connection, now: now, resume: false)
        }
    }

    /// Queues the answer to `request`.
    private func answer(_ connection: Connection, _ request: HTTPRequest, _ response: HTTPResponse, now: Double) {
        let keepAlive = request.keepAlive && !response.close
        connection.queue(
            response.encoded(
                minorVersion: request.minorVersion, keepAlive: keepAlive, withBody: request.method != "HEAD"))
        let chunkedTo10: Bool
        if case .chunks = response.body { chunkedTo10 = request.minorVersion == 0 } else { chunkedTo10 = false }
        if !keepAlive || chunkedTo10 { connection.closing = true }
        connection.requestStarted = connection.parser.hasPartialRequest ? now : nil
        connection.lastActivity = now
    }

    /// Counts the connection's held bytes into the total.
    private func account(_ connection: Connection) {
        let held = connection.parser.bufferedBytes + (connection.request?.body.count ?? 0)
        heldBytes += held - connection.held
        connection.held = held
    }

    /// Writes what the connection takes; once all is written, closes it if it is closing, else (`resume`) reads
    /// the requests that waited behind the answer.
    private func flush(_ connection: Connection, now: Double, resume: Bool) {
        guard let offset = Socket.write(connection.fd, connection.output, from: connection.outputOffset) else {
            drop(connection.fd)
            return
        }
        if offset > connection.outputOffset { connection.lastActivity = now }
        connection.outputOffset = offset
        guard offset == connection.output.count else { return }
        connection.output = []
        connection.outputOffset = 0
        if connection.closing {
            // Half-close first so that the client reads the whole answer before the connection goes.
            shutdown(connection.fd, Int32(SHUT_WR))
            drop(connection.fd)
        } else if resume {
            process(connection, now: now)
        }
    }

    /// Closes silent connections; a request that has not all arrived in time is answered 408 first.
    private func expire(now: Double) {
        let timeout = configuration.idleTimeout
        for connection in Array(connections.values) where connection.exchange == nil {
            if connection.pendingOutput {
                if now - connection.lastActivity > timeout { drop(connection.fd) }
            } else if let started = connection.requestStarted, connection.parser.hasPartialRequest {
                if now - started > timeout {
                    let response = HTTPResponse(
                        status: 408, text: "the request did not arrive within \(Int(timeout)) s\n", close: true)
                    connection.closing = true
                    connection.queue(response.encoded())
                    flush(connection, now: now, resume: false)
                }
            } else if now - connection.lastActivity > timeout {
                drop(connection.fd)
            }
        }
    }

    private func drop(_ fd: Int32) {
        guard let connection = connections.removeValue(forKey: fd) else { return }
        heldBytes -= connection.held
        connection.exchange?.cancel()
        close(fd)
    }
}

/// One client connection: its parser, the response bytes not yet written and its clock.
final class Connection {
    let fd: Int32
    /// Unique for the server's life (a descriptor number is reused once closed).
    let serial: UInt64
    var parser: HTTPParser
    /// The request being answered elsewhere, and its exchange.
    var request: HTTPRequest?
    var exchange: HTTPExchange?
    /// The bytes of requests this connection holds, as counted in the server's total.
    var held = 0
    var output: [UInt8] = []
    var outputOffset = 0
    var lastActivity: Double
    /// When the first byte of the request being read arrived.
    var requestStarted: Double?
    /// Close once the output is written (an error answered, `Connection: close`).
    var closing = false

    init(fd: Int32, serial: UInt64, limits: HTTPLimits, now: Double) {
        self.fd = fd
        self.serial = serial
        parser = HTTPParser(limits: limits)
        lastActivity = now
    }

    var pendingOutput: Bool { outputOffset < output.count }

    func queue(_ bytes: [UInt8]) {
        if output.isEmpty {
            output = bytes
            outputOffset = 0
        } else {
            output += bytes
        }
    }
}
