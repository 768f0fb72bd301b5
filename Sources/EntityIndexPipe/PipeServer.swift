#if canImport(Glibc)
import Glibc
#endif
import CEntityIdx
import EntityIndex
import JSON

/// The JSON-RPC 2.0 pipe: requests in, responses out in the same framing, in order.
///
/// Messages are one per line, or LSP-framed (`Content-Length` headers) when the input starts with such a header.
///
/// A bad line never stops the server: it gets its error response (with `"id": null` when the id cannot be read) and
/// the next line is served. The loop ends at end of input, or after the current request on SIGINT/SIGTERM; an open
/// batch is then rolled back. A client that goes away (EPIPE) ends it quietly.
public final class PipeServer {
    /// The longest request line accepted by default; longer lines get an error and are skipped.
    public static let defaultMaxLineBytes = 64 << 20
    public static let maxDepth = 128

    let handler: RequestHandler
    let input: Int32
    let output: Int32
    let maxLineBytes: Int

    public init(handler: RequestHandler, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = defaultMaxLineBytes) {
        self.handler = handler
        self.maxLineBytes = maxLineBytes
        self.input = input
        self.output = output
    }

    /// Serves until end of input or a stop signal; returns the process exit status.
    ///
    /// The framing is detected from the first bytes: LSP's `Content-Length` headers, else one message per line;
    /// responses use the same framing.
    public func run() -> Int32 {
        eidx_install_stop_signals()
        let reader = MessageReader(fd: input, maxMessageBytes: maxLineBytes)
        let writer = MessageWriter(fd: output)
        defer { handler.store.abortBatch() }
        while eidx_stop_signal() == 0 {
            let response: JSONValue
            switch reader.next() {
            case .end:
                return 0
            case .interrupted:
                continue
            case .tooLong:
                let what = reader.framing == .headers ? "request" : "request line"
                response = Self.error(id: .null, code: -32600, "\(what) longer than \(maxLineBytes) bytes", data: "request_too_large")
            case .badHeader(let problem):
                response = Self.error(id: .null, code: -32700, "parse error: \(problem)", data: "parse_error")
            case .message(let bytes):
                guard let answer = handle(line: bytes) else { continue }
                response = answer
            }
            guard writer.send(response, framing: reader.framing ?? .lines) else { return 0 }
        }
        return 128 + eidx_stop_signal()
    }

    /// Answers one line; nil when nothing is to be sent (a notification, a blank line).
    public func handle(line: [UInt8]) -> JSONValue? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: Self.maxDepth).parse(line)
        } catch {
            return Self.error(id: .null, code: -32700, "parse error: \(error)", data: "parse_error")
        }
        if case .array(let items) = value {
            if items.isEmpty { return Self.error(id: .null, code: -32600, "an empty batch is not a valid request", data: "invalid_request") }
            let responses = items.compactMap(handle(request:))
            return responses.isEmpty ? nil : .array(responses)
        }
        return handle(request: value)
    }

    /// Answers one request object; nil for a notification.
    func handle(request value: JSONValue) -> JSONValue? {
        guard case .object(let request) = value else {
            return Self.error(id: .null, code: -32600, "a request must be an object, got \(value.typeName)", data: "invalid_request")
        }
        var id: JSONValue = .null
        let isNotification = request["id"] == nil
        switch request["id"] {
        case nil, .null?, .string?, .number?: id = request["id"] ?? .null
        case let other?:
            return Self.error(id: .null, code: -32600, "\"id\" must be a string, a number or null, got \(other.typeName)", data: "invalid_request")
        }
        guard request["jsonrpc"] == .string("2.0") else {
            return Self.error(id: id, code: -32600, "\"jsonrpc\" must be \"2.0\"", data: "invalid_request")
        }
        guard case .string(let method)? = request["method"] else {
            return Self.error(id: id, code: -32600, "\"method\" must be a string", data: "invalid_request")
        }
        guard let known = Method(rawValue: method) else {
            return isNotification ? nil : Self.error(id: id, code: -32601, "unknown method \"\(method)\" (methods: \(Method.names.joined(separator: ", ")))", data: "method_not_found")
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
        .object(JSONObject([
            ("jsonrpc", "2.0"), ("id", id),
            ("error", .object(JSONObject([("code", JSONValue(code)), ("message", .string(message)), ("data", ["code": .string(data)])]))),
        ]))
    }

    static func error(id: JSONValue, _ error: EntityIndexError) -> JSONValue {
        .object(JSONObject([
            ("jsonrpc", "2.0"), ("id", id),
            ("error", .object(JSONObject([
                ("code", JSONValue(error.isInvalidInput ? -32602 : -32000)), ("message", .string(error.message)), ("data", errorData(error)),
            ]))),
        ]))
    }

    /// An error's `data`: its stable code and, for bad records, each record's problems.
    static func errorData(_ error: EntityIndexError) -> JSONValue {
        var data = JSONObject([("code", .string(error.code.rawValue))])
        if !error.details.isEmpty {
            data["records"] = .array(error.details.map(\.json))
        }
        return .object(data)
    }
}
