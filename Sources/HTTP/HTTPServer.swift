#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP/1.1 server: one thread, non-blocking sockets and `poll(2)`, keep-alive and pipelining, bounded
/// connections and timeouts. What a request means is the handler's: this type only moves bytes.
///
/// The handler runs on the server's thread, one request at a time (the index behind it has one connection), while
/// the other connections wait in the kernel's buffers. Responses are written as fast as each client reads: a slow
/// reader holds only its own connection.
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

        public init(
            host: String = "127.0.0.1", port: UInt16 = 0, limits: HTTPLimits = HTTPLimits(),
            maxConnections: Int = 128, idleTimeout: Double = 30
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.maxConnections = maxConnections
            self.idleTimeout = idleTimeout
        }
    }

    public let configuration: Configuration
    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: (HTTPRequest) -> HTTPResponse
    private var connections: [Int32: Connection] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    /// How many connections were closed because the count reached its bound, for tests and logs.
    public private(set) var evictions = 0

    /// Listens at once (so that a port of 0 is known before `run`).
    public init(_ configuration: Configuration, handler: @escaping (HTTPRequest) -> HTTPResponse)
        throws(HTTPServerError)
    {
        self.configuration = configuration
        self.handler = handler
        (listener, port) = try Socket.listen(host: configuration.host, port: configuration.port)
    }

    deinit {
        for fd in connections.keys { close(fd) }
        close(listener)
    }

    /// Serves until `shouldStop` says so (it is asked at least every 200 ms, and after a signal interrupts `poll`).
    public func run(shouldStop: () -> Bool) {
        var fds: [pollfd] = []
        while !shouldStop() {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            for (fd, connection) in connections {
                var events: Int16 = 0
                if connection.pendingOutput {
                    events |= Int16(POLLOUT)
                } else if !connection.closing {
                    events |= Int16(POLLIN)
                }
                fds.append(pollfd(fd: fd, events: events, revents: 0))
            }
            let ready = poll(&fds, nfds_t(fds.count), 200)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            let now = Socket.now()
            for entry in fds.dropFirst() where entry.revents != 0 {
                guard let connection = connections[entry.fd] else { continue }
                if entry.revents & Int16(POLLOUT) != 0 {
                    flush(connection, now: now, resume: true)
                } else if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    receive(connection, now: now)
                }
            }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptAll(now: now) }
            expire(now: now)
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
            connections[fd] = Connection(fd: fd, limits: configuration.limits, now: now)
        }
    }

    private func receive(_ connection: Connection, now: Double) {
        switch Socket.read(connection.fd, into: &readBuffer) {
        case .wouldBlock: return
        case .closed: drop(connection.fd)
        case .bytes(let n):
            connection.lastActivity = now
            connection.parser.append(readBuffer[0..<n])
            if connection.requestStarted == nil { connection.requestStarted = now }
            process(connection, now: now)
        }
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
                let request = box.request
                let response = handler(request)
                let keepAlive = request.keepAlive && !response.close
                connection.queue(
                    response.encoded(
                        minorVersion: request.minorVersion, keepAlive: keepAlive, withBody: request.method != "HEAD"))
                let chunkedTo10: Bool
                if case .chunks = response.body { chunkedTo10 = request.minorVersion == 0 } else { chunkedTo10 = false }
                if !keepAlive || chunkedTo10 { connection.closing = true }
                connection.requestStarted = connection.parser.hasPartialRequest ? now : nil
            }
            flush(connection, now: now, resume: false)
        }
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
        for connection in Array(connections.values) {
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
        guard connections.removeValue(forKey: fd) != nil else { return }
        close(fd)
    }
}

/// One client connection: its parser, the response bytes not yet written and its clock.
final class Connection {
    let fd: Int32
    var parser: HTTPParser
    var output: [UInt8] = []
    var outputOffset = 0
    var lastActivity: Double
    /// When the first byte of the request being read arrived.
    var requestStarted: Double?
    /// Close once the output is written (an error answered, `Connection: close`).
    var closing = false

    init(fd: Int32, limits: HTTPLimits, now: Double) {
        self.fd = fd
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
