import CEntityIdx
import EntityIndex
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// The JSON-RPC 2.0 pipe: requests in, responses out in the same framing, in order.
///
/// Messages are one per line, or LSP-framed (`Content-Length` headers) when the input starts with such a header.
///
/// A bad line never stops the server: it gets its error response (with `"id": null` when the id cannot be read) and
/// the next line is served. The loop ends at end of input, or on SIGINT/SIGTERM, which also interrupts a running
/// request (SQLite's progress handler); an open batch is then rolled back and the exit status is 128 + the signal.
/// A client that goes away (EPIPE) ends it quietly.
///
/// Each response is encoded as soon as it is made: a batch holds its items' encoded bytes, at most
/// `maxResponseBytes` in all; an item that would go past that gets its own `resource_exhausted` error instead.
public final class PipeServer {
    /// The longest request line accepted by default; longer lines get an error and are skipped.
    public static let defaultMaxLineBytes = 64 << 20
    /// The most bytes one response line (a batch's array included) may take, by default.
    public static let defaultMaxResponseBytes = 64 << 20
    public static let maxDepth = 128

    public let handler: RequestHandler
    let input: Int32
    let output: Int32
    let maxLineBytes: Int
    let maxResponseBytes: Int

    public init(
        handler: RequestHandler, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = defaultMaxLineBytes,
        maxResponseBytes: Int = defaultMaxResponseBytes
    ) {
        self.handler = handler
        self.maxResponseBytes = maxResponseBytes
        self.maxLineBytes = maxLineBytes
        self.input = input
        self.output = output
    }

    /// Serves until end of input or a stop signal; returns the process exit status (128 + the signal after one).
    ///
    /// The framing is detected from the first bytes: LSP's `Content-Length` headers, else one message per line;
    /// responses use the same framing.
    public func run() -> Int32 {
        eidx_install_stop_signals()
        let reader = MessageReader(fd: input, maxMessageBytes: maxLineBytes)
        let writer = MessageWriter(fd: output)
        defer { handler.store.abortBatch() }
        loop: while eidx_stop_signal() == 0 {
            let response: [UInt8]
            switch reader.next() {
            case .end:
                break loop
            case .interrupted:
                continue
            case .tooLong:
                let what = reader.framing == .headers ? "request" : "request line"
                response = Self.encode(
                    Self.error(
                        id: .null, code: -32600, "\(what) longer than \(maxLineBytes) bytes", data: "request_too_large")
                )
            case .tooLargeForMemory(let bytes):
                let what = reader.framing == .headers ? "request" : "request line"
                response = Self.encode(
                    Self.error(
                        id: .null, code: -32000,
                        "the \(what) was skipped at \(bytes) bytes: it would not fit in the memory the process has left (its address-space or memory limit, or the machine's free memory); send smaller requests",
                        data: EntityIndexError.Code.resourceExhausted.rawValue))
            case .badHeader(let problem):
                response = Self.encode(
                    Self.error(id: .null, code: -32700, "parse error: \(problem)", data: "parse_error"))
            case .message(let bytes):
                guard let answer = respond(line: bytes) else { continue }
                response = answer
            }
            guard writer.send(encoded: response, framing: reader.framing ?? .lines) else { break loop }
        }
        // A signal that arrives as input ends still ends the process as a signal does.
        let signal = eidx_stop_signal()
        return signal == 0 ? 0 : 128 + signal
    }

    /// Answers one line, decoded; nil when nothing is to be sent (a notification, a blank line).
    public func handle(line: [UInt8]) -> JSONValue? {
        respond(line: line).flatMap { try? JSONParser(maxDepth: Self.maxDepth + 8).parse($0) }
    }

    /// Answers one line with the encoded response message (without its line end); nil when nothing is to be sent.
    public func respond(line: [UInt8]) -> [UInt8]? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: JSONValue
        switch parse(line) {
        case .success(let parsed): value = parsed
        case .failure(let error): return Self.encode(error.response)
        }
        // The engine stops reading records once they alone would pass the room left for the response.
        let store = handler.store
        let recordBudget = store.maxResultBytes
        defer { store.maxResultBytes = recordBudget }
        guard case .array(let items) = value else {
            store.maxResultBytes = min(recordBudget, maxResponseBytes)
            return handle(request: value).map { encode($0, within: maxResponseBytes) }
        }
        if items.isEmpty {
            return Self.encode(
                Self.error(id: .null, code: -32600, "an empty batch is not a valid request", data: "invalid_request"))
        }
        var bytes: [UInt8] = [0x5B]
        var answered = 0
        for item in items {
            store.maxResultBytes = max(0, min(recordBudget, maxResponseBytes - bytes.count))
            guard let response = handle(request: item) else { continue }
            // The room left; an error in place of an item always fits, so that every request is answered.
            var encoded = encode(response, within: maxResponseBytes - bytes.count - 1)
            let needed = bytes.count + encoded.count + 1
            if needed > bytes.capacity {
                // The batch's bytes grow by doubling, up to the bound; the new buffer must fit in memory.
                var capacity = min(max(2 * bytes.capacity, needed), maxResponseBytes + 1)
                if capacity >= MessageReader.roomCheckBytes, !MemoryRoom.fits(capacity) {
                    encoded = Self.encode(
                        Self.error(
                            id: response["id"] ?? .null,
                            EntityIndexError(
                                .resourceExhausted,
                                "the batch's responses so far take \(bytes.count) bytes, and this one would not fit beside them in the memory the process has left; split the batch"
                            )))
                    // Only the error's few bytes are added.
                    capacity = bytes.count + encoded.count + 1
                }
                bytes.reserveCapacity(max(capacity, bytes.count + encoded.count + 1))
            }
            if answered > 0 { bytes.append(0x2C) }
            bytes += encoded
            answered += 1
        }
        bytes.append(0x5D)
        return answered == 0 ? nil : bytes
    }

    /// About how many bytes of memory a request takes per byte of its text once parsed and decoded (measured: a
    /// line of 2 million ids, 20 MB, peaked 146 MB above the idle process).
    static let memoryPerRequestByte = 7

    /// A request that could not be parsed, as its error response.
    struct ParseFailure: Error {
        var response: JSONValue
    }

    /// Parses a request; a large one is first checked against the memory room, and the parse stops at a stop
    /// signal or when the room runs out as it goes.
    func parse(_ line: [UInt8]) -> Result<JSONValue, ParseFailure> {
        func failure(_ error: EntityIndexError) -> Result<JSONValue, ParseFailure> {
            .failure(ParseFailure(response: Self.error(id: .null, error)))
        }
        let large = line.count >= MessageReader.roomCheckBytes
        if large {
            do {
                try MemoryRoom.require(line.count * Self.memoryPerRequestByte, for: "a request of \(line.count) bytes")
            } catch {
                return failure(error)
            }
        }
        var checks = 0
        var noRoom = false
        let parser = JSONParser(
            maxDepth: Self.maxDepth,
            shouldStop: {
                if eidx_stop_signal() != 0 { return true }
                // Called every 4,096 values; the room is read every 16th time.
                checks += 1
                if large, checks & 15 == 0, !MemoryRoom.fits(0) { noRoom = true }
                return noRoom
            })
        do {
            return .success(try parser.parse(line))
        } catch {
            if let signal = StopSignal.received {
                return failure(
                    EntityIndexError(.interrupted, "interrupted by signal \(signal) while parsing the request"))
            }
            if noRoom {
                return failure(
                    EntityIndexError(
                        .resourceExhausted,
                        "the request of \(line.count) bytes did not fit in the memory the process has left while it was parsed; send smaller requests"
                    ))
            }
            return .failure(
                ParseFailure(
                    response: Self.error(id: .null, code: -32700, "parse error: \(error)", data: "parse_error")))
        }
    }

    /// Encodes a response; one larger than `limit` bytes becomes a `resource_exhausted` error for the same id, and
    /// one whose encoding a stop signal cut short an `interrupted` error.
    func encode(_ response: JSONValue, within limit: Int) -> [UInt8] {
        // The encoding grows by doubling: past 1 MiB, each step must fit in the memory left.
        var noRoom = false
        var writer = JSONWriter(
            capacity: 512,
            shouldStop: { written in
                if eidx_stop_signal() != 0 { return true }
                if written >= MessageReader.roomCheckBytes, !MemoryRoom.fits(2 * written) { noRoom = true }
                return noRoom
            })
        writer.write(response)
        if writer.stopped {
            return Self.encode(
                Self.error(
                    id: response["id"] ?? .null,
                    noRoom
                        ? EntityIndexError(
                            .resourceExhausted,
                            "the response did not fit in the memory the process has left while it was encoded; ask for fewer entities (limit, cursor, fewer ids)"
                        )
                        : EntityIndexError(.interrupted, "interrupted by a stop signal while the response was encoded"))
            )
        }
        let bytes = writer.bytes
        guard bytes.count > limit else { return bytes }
        let size = bytes.count
        return Self.encode(
            Self.error(
                id: response["id"] ?? .null, code: -32000,
                "the response is \(size) bytes, more than the \(max(0, limit)) left of the \(maxResponseBytes) a response line may take; ask for fewer entities (limit, cursor, fewer ids) or split the batch",
                data: EntityIndexError.Code.resourceExhausted.rawValue))
    }

    static func encode(_ response: JSONValue) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.write(response)
        return writer.bytes
    }

    /// Answers one request object; nil for a notification.
    func handle(request value: JSONValue) -> JSONValue? {
        guard case .object(let request) = value else {
            return Self.error(
                id: .null, code: -32600, "a request must be an object, got \(value.typeName)", data: "invalid_request")
        }
        var id: JSONValue = .null
        let isNotification = request["id"] == nil
        switch request["id"] {
        case nil, .null?, .string?, .number?: id = request["id"] ?? .null
        case let other?:
            return Self.error(
                id: .null, code: -32600, "\"id\" must be a string, a number or null, got \(other.typeName)",
                data: "invalid_request")
        }
        guard request["jsonrpc"] == .string("2.0") else {
            return Self.error(id: id, code: -32600, "\"jsonrpc\" must be \"2.0\"", data: "invalid_request")
        }
        guard case .string(let method)? = request["method"] else {
            return Self.error(id: id, code: -32600, "\"method\" must be a string", data: "invalid_request")
        }
        guard let known = Method(rawValue: method) else {
            return isNotification
                ? nil
                : Self.error(
                    id: id, code: -32601,
                    "unknown method \"\(method)\" (methods: \(Method.names.joined(separator: ", ")))",
                    data: "method_not_found")
        }
        let response: JSONValue
        do {
            let result = try handler.call(known, request["params"])
            response = .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("result", result)]))
        } catch {
            response = Self.error(id: id, error)
        }
        return isNotification ? nil : response
    }

    static func error(id: JSONValue, code: Int, _ message: String, data: String) -> JSONValue {
        .object(
            JSONObject([
                ("jsonrpc", "2.0"), ("id", id),
                (
                    "error",
                    .object(
                        JSONObject([
                            ("code", JSONValue(code)), ("message", .string(message)), ("data", ["code": .string(data)]),
                        ]))
                ),
            ]))
    }

    static func error(id: JSONValue, _ error: EntityIndexError) -> JSONValue {
        .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("error", error.json)]))
    }

    /// An error's `data`: its stable code and, for bad records, each record's problems.
    static func errorData(_ error: EntityIndexError) -> JSONValue {
        var data = JSONObject([("code", .string(error.code.rawValue))])
        if let position = error.position { data["character"] = JSONValue(position) }
        if !error.details.isEmpty {
            data["records"] = .array(error.details.map(\.json))
        }
        return .object(data)
    }
}
