import System

#if canImport(Glibc)
    import Glibc
#endif

/// Serves an endpoint on a byte stream (stdin/stdout, a socket): messages in, responses out in the same
/// framing, in order.
///
/// A message that cannot be read gets its error (with `"id": null`) and the next one is served. The loop ends at
/// end of input, or on SIGINT/SIGTERM, which also interrupts the running request (SQLite's progress handler);
/// the exit status is then 128 + the signal, also when the signal arrives as input ends or while a reply waits
/// for a reader that does not read. A client that goes away (EPIPE) ends it quietly.
public struct RPCStreamServer {
    public let endpoint: RPCEndpoint
    public let input: Int32
    public let output: Int32
    /// The framing, or nil to detect it from the first bytes.
    public let framing: Framing?

    public init(endpoint: RPCEndpoint, input: Int32 = 0, output: Int32 = 1, framing: Framing? = nil) {
        self.endpoint = endpoint
        self.input = input
        self.output = output
        self.framing = framing
    }

    /// Serves until end of input or a stop signal; returns the process exit status (128 + the signal after one).
    public func run() -> Int32 {
        StopSignal.install()
        let service = endpoint.service
        let reader = MessageReader(
            fd: input, maxMessageBytes: endpoint.limits.maxMessageBytes, framing: framing, idle: { service.idle() })
        let writer = MessageWriter(fd: output)
        loop: while StopSignal.received == nil {
            let item = reader.next()
            switch item {
            case .end: break loop
            case .interrupted: continue
            default: break
            }
            let framing = reader.framing ?? .lines
            guard let response = endpoint.respond(to: item, framing: framing) else { continue }
            guard writer.send(encoded: response, framing: framing) else { break loop }
        }
        return StopSignal.received.map { 128 + $0 } ?? 0
    }
}
