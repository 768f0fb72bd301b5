import JSON
import System

/// A protocol served over JSON-RPC 2.0: its methods, on top of the envelope, batches and bounds of `RPCEndpoint`.
public protocol RPCService: AnyObject {
    /// How the protocol reads envelopes.
    var dialect: RPCDialect { get }

    /// Answers one request or notification (whose answer is dropped). `room` is the most bytes its encoded
    /// response may take: a larger one is replaced by a `resource_exhausted` error, so work that would not fit
    /// should stop early.
    func answer(_ request: RPCRequest, room: Int) -> RPCAnswer

    /// Whether the request leaves the service as it was: a read refused for want of room is then refused again,
    /// without being run, when a batch repeats it.
    func isReadOnly(_ request: RPCRequest) -> Bool

    /// Called about once a second while no message arrives (work that must not wait for the next request).
    func idle()
}

extension RPCService {
    public func idle() {}
}

/// A service's answer to one request.
public struct RPCAnswer {
    public var outcome: Result<JSONValue, RPCError>
    /// True when the request was refused because its response would not fit in the room it was given (an error,
    /// or a result that says so, as MCP's tool errors do).
    public var outOfRoom: Bool

    public init(_ outcome: Result<JSONValue, RPCError>, outOfRoom: Bool) {
        self.outcome = outcome
        self.outOfRoom = outOfRoom
    }

    public static func result(_ value: JSONValue) -> RPCAnswer { RPCAnswer(.success(value), outOfRoom: false) }

    public static func error(_ error: RPCError) -> RPCAnswer {
        RPCAnswer(.failure(error), outOfRoom: error.name == RPCError.resourceExhaustedName)
    }
}

/// The bounds of an endpoint.
public struct RPCLimits: Sendable {
    /// The longest message read (a longer one gets `request_too_large` and is skipped).
    public var maxMessageBytes: Int
    /// The most bytes of results one response (a batch's array included) may take.
    public var maxResponseBytes: Int
    /// The deepest JSON nesting of a message.
    public var maxDepth: Int
    /// The most requests in a batch.
    public var maxBatchItems: Int

    public static let defaultMaxMessageBytes = 64 << 20
    public static let defaultMaxResponseBytes = 64 << 20
    public static let defaultMaxDepth = 128
    public static let defaultMaxBatchItems = 100_000

    public init(
        maxMessageBytes: Int = defaultMaxMessageBytes, maxResponseBytes: Int = defaultMaxResponseBytes,
        maxDepth: Int = defaultMaxDepth, maxBatchItems: Int = defaultMaxBatchItems
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxResponseBytes = maxResponseBytes
        self.maxDepth = maxDepth
        self.maxBatchItems = maxBatchItems
    }
}

/// JSON-RPC 2.0 message handling, apart from any transport: a message's bytes in, its response's bytes out.
///
/// A message is parsed within the depth bound and, past 1 MiB, against the memory the process has left; its
/// requests go to the service; each response is encoded as soon as it is made, within the room the response bound
/// leaves (a batch holds its items' encoded bytes, at most `maxResponseBytes` of them; an item that would go past
/// gets its own `resource_exhausted` error instead, and one that cannot fit is not run). A stop signal cuts
/// parsing and encoding short with an `interrupted` error. The stream server, and any other transport, only move
/// bytes.
public final class RPCEndpoint {
    public let service: RPCService
    public let limits: RPCLimits

    public init(service: RPCService, limits: RPCLimits = RPCLimits()) {
        self.service = service
        self.limits = limits
    }

    /// About how many bytes of memory a message takes per byte of its text once parsed and decoded (measured: a
    /// line of 2 million ids, 20 MB, peaked 146 MB above the idle process).
    static let memoryPerMessageByte = 7

    /// Answers one message with the encoded response (without framing); nil when nothing is to be sent (a
    /// notification, a response, a blank message).
    public func respond(to message: [UInt8]) -> [UInt8]? {
        if message.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: JSONValue
        switch parse(message) {
        case .success(let parsed): value = parsed
        case .failure(let error): return Self.encode(RPCResponse.error(id: .null, error))
        }
        guard case .array(let items) = value else {
            var refusals = Refusals(enabled: false)
            return response(to: value, room: limits.maxResponseBytes, &refusals)?.bytes
        }
        return respond(batch: items)
    }

    /// The error response for what a reader could not deliver as a message; nil for none.
    public func respond(to item: MessageReader.Item, framing: Framing) -> [UInt8]? {
        let what = framing == .headers ? "request" : "request line"
        let error: RPCError
        switch item {
        case .message(let bytes): return respond(to: bytes)
        case .tooLong:
            error = RPCError(-32600, "\(what) longer than \(limits.maxMessageBytes) bytes", name: "request_too_large")
        case .tooLargeForMemory(let bytes):
            error = .resourceExhausted(
                "the \(what) was skipped at \(bytes) bytes: it would not fit in the memory the process has left (its address-space or memory limit, or the machine's free memory); send smaller requests"
            )
        case .badHeader(let problem): error = .parseError(problem)
        case .unframed(let line):
            let id = (try? JSONParser(maxDepth: limits.maxDepth).parse(line))?["id"]
            error = .invalidRequest(
                "a message without headers (one JSON value per line) in a stream framed with Content-Length headers; send \"Content-Length: N\", a blank line, then the N bytes of each message"
            )
            switch id {
            case .string?, .number?: return Self.encode(RPCResponse.error(id: id!, error))
            default: break
            }
        case .interrupted, .end: return nil
        }
        return Self.encode(RPCResponse.error(id: .null, error))
    }

    // MARK: - Parsing

    /// Parses a message; a large one is first checked against the memory room, and the parse stops at a stop
    /// signal or when the room runs out as it goes.
    func parse(_ message: [UInt8]) -> Result<JSONValue, RPCError> {
        let large = message.count >= MessageReader.roomCheckBytes
        if large {
            if let shortage = MemoryRoom.shortage(
                message.count * Self.memoryPerMessageByte, for: "a request of \(message.count) bytes")
            {
                return .failure(.resourceExhausted(shortage))
            }
        }
        var checks = 0
        var noRoom = false
        let parser = JSONParser(
            maxDepth: limits.maxDepth,
            shouldStop: {
                if StopSignal.received != nil { return true }
                // Called every 4,096 values; the room is read every 16th time.
                checks += 1
                if large, checks & 15 == 0, !MemoryRoom.fits(0) { noRoom = true }
                return noRoom
            })
        do {
            return .success(try parser.parse(message))
        } catch {
            if let signal = StopSignal.received {
                return .failure(.interrupted("interrupted by signal \(signal) while parsing the request"))
            }
            if noRoom {
                return .failure(
                    .resourceExhausted(
                        "the request of \(message.count) bytes did not fit in the memory the process has left while it was parsed; send smaller requests"
                    ))
            }
            return .failure(.parseError("\(error)"))
        }
    }

    // MARK: - One request

    /// The id and encoded response of one value of a message, within `room` bytes; nil when none is to be sent.
    func response(to value: JSONValue, room: Int, _ refusals: inout Refusals) -> (id: JSONValue, bytes: [UInt8])? {
        let request: RPCRequest
        switch Envelope(value, service.dialect) {
        case .response: return nil
        case .invalid(let id, let error): return (id, Self.encode(RPCResponse.error(id: id, error)))
        case .request(let r): request = r
        }
        let readOnly = service.isReadOnly(request)
        if request.isNotification {
            // Nothing of its answer is sent, so it takes no room: it always runs.
            _ = service.answer(request, room: limits.maxResponseBytes)
            if !readOnly { refusals.forget() }
            return nil
        }
        let id = request.responseId
        if let refused = refusals.refused(request, room: room) {
            return (id, encode(refused, id: id, within: room).bytes)
        }
        if room <= 0 {
            // Not even the smallest result would fit: the request is not run.
            let full = RPCError.resourceExhausted(
                "the batch's responses already take the \(limits.maxResponseBytes) bytes a response may; this request was not run: split the batch"
            )
            return (id, Self.encode(RPCResponse.error(id: id, full)))
        }
        let answer = service.answer(request, room: room)
        if !readOnly { refusals.forget() }
        let (bytes, refusal) = encode(answer.outcome, id: id, within: room)
        if readOnly, answer.outOfRoom || refusal != nil {
            let again = RPCError.resourceExhausted(
                "this request was not run: the same request earlier in the batch did not fit in the room left for its response, and the room has only shrunk since; ask for fewer entities (limit, cursor, fewer ids) or split the batch"
            )
            refusals.remember(request, refusal == nil ? answer.outcome : .failure(again), room: room)
        }
        return (id, bytes)
    }
}
