import EntityIndex
import JSON
import JSONRPC

/// The JSON-RPC 2.0 pipe: the methods of the contract (§3) as a service of the JSON-RPC layer.
///
/// Messages are one per line, or LSP-framed (`Content-Length` headers) when the input starts with such a header;
/// envelopes, batches, the response bound, memory checks and signals are the layer's (`RPCEndpoint`,
/// `RPCStreamServer`). At the end, an open batch is rolled back.
public final class PipeServer: RPCService {
    /// The longest request line accepted by default; longer lines get an error and are skipped.
    public static let defaultMaxLineBytes = RPCLimits.defaultMaxMessageBytes
    /// The most bytes one response line (a batch's array included) may take, by default.
    public static let defaultMaxResponseBytes = RPCLimits.defaultMaxResponseBytes

    public let runner: any MethodRunner
    /// The store's runner, for a pipe of one store (nil when `serve` routes the requests).
    public let handler: RequestHandler?
    let input: Int32
    let output: Int32
    public let limits: RPCLimits

    public convenience init(
        handler: RequestHandler, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = defaultMaxLineBytes,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) {
        self.init(
            runner: handler, input: input, output: output, maxLineBytes: maxLineBytes,
            maxResponseBytes: maxResponseBytes)
    }

    public init(
        runner: any MethodRunner, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = defaultMaxLineBytes,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) {
        self.runner = runner
        self.handler = runner as? RequestHandler
        self.input = input
        self.output = output
        limits = RPCLimits(maxMessageBytes: maxLineBytes, maxResponseBytes: maxResponseBytes)
    }

    /// The message handling, apart from the transport (it holds the server: make one per use).
    public var endpoint: RPCEndpoint { RPCEndpoint(service: self, limits: limits) }

    /// Serves until end of input or a stop signal; returns the process exit status (128 + the signal after one).
    public func run() -> Int32 {
        defer { runner.finish() }
        return RPCStreamServer(endpoint: endpoint, input: input, output: output).run()
    }

    /// Answers one line, decoded; nil when nothing is to be sent (a notification, a blank line).
    public func handle(line: [UInt8]) -> JSONValue? {
        respond(line: line).flatMap { try? JSONParser(maxDepth: RPCLimits.defaultMaxDepth + 8).parse($0) }
    }

    /// Answers one line with the encoded response message (without its line end); nil when nothing is to be sent.
    public func respond(line: [UInt8]) -> [UInt8]? { endpoint.respond(to: line) }

    // MARK: - RPCService

    public var dialect: RPCDialect { .jsonRPC }

    public func answer(_ request: RPCRequest, room: Int) -> RPCAnswer {
        guard let method = Method(rawValue: request.method) else {
            return .error(.methodNotFound(request.method, known: Method.names))
        }
        do {
            return .result(try runner.run(method, request.params, room: room))
        } catch {
            return .error(RPCError(error))
        }
    }

    public func isReadOnly(_ request: RPCRequest) -> Bool { Method(rawValue: request.method)?.reads ?? true }

    /// While no request comes: a file moved over the database is let go of within a second, so that another
    /// process may open the new one (see `RequestHandler.noticeReplacement`).
    public func idle() { runner.idle() }
}
