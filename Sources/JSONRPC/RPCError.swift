import JSON

/// A JSON-RPC 2.0 error object: a code, a message that says what to fix, and `data`.
///
/// The errors of the layer itself (parse errors, invalid requests, sizes, memory, signals) carry a stable string in
/// `data.code`; a protocol's own errors carry what it documents. A message quotes at most a short prefix of the
/// value it is about (`Quoting`), so that an error stays small whatever the request held
/// (https://www.jsonrpc.org/specification#error_object).
public struct RPCError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// An error whose `data` is `{"code": name}`.
    public init(_ code: Int, _ message: String, name: String) {
        self.init(code: code, message: message, data: ["code": .string(name)])
    }

    /// The stable code in `data.code`, when there is one.
    public var name: String? { data?["code"]?.string }

    /// The error object.
    public var json: JSONValue {
        var o = JSONObject([("code", JSONValue(code)), ("message", .string(message))])
        if let data { o["data"] = data }
        return .object(o)
    }

    // MARK: - The layer's errors

    public static func parseError(_ problem: String) -> RPCError {
        RPCError(-32700, "parse error: \(problem)", name: "parse_error")
    }

    public static func invalidRequest(_ problem: String) -> RPCError {
        RPCError(-32600, problem, name: "invalid_request")
    }

    /// An unknown method, with the names a client may call.
    public static func methodNotFound(_ method: String, known: [String]) -> RPCError {
        RPCError(
            -32601, "unknown method \(quoted(method)) (methods: \(known.joined(separator: ", ")))",
            name: "method_not_found")
    }

    /// The `data.code` of a request refused for want of memory (the engine's error of the same name).
    public static let resourceExhaustedName = "resource_exhausted"

    /// The `data.code` of a request a stop signal cut short (the engine's error of the same name).
    public static let interruptedName = "interrupted"

    public static func resourceExhausted(_ message: String) -> RPCError {
        RPCError(-32000, message, name: resourceExhaustedName)
    }

    public static func interrupted(_ message: String) -> RPCError {
        RPCError(-32000, message, name: interruptedName)
    }

    // MARK: - Quoting

    /// `text` quoted for a message, cut as every quoted value is (`Quoting.quoted`).
    public static func quoted(_ text: some StringProtocol) -> String { Quoting.quoted(text) }

    /// At most `Quoting.maxCharacters` characters of `text`, for an error's `data` (`Quoting.prefix`).
    public static func prefix(_ text: some StringProtocol) -> String { Quoting.prefix(text) }
}

/// The response objects.
public enum RPCResponse {
    public static func result(id: JSONValue, _ result: JSONValue) -> JSONValue {
        .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("result", result)]))
    }

    public static func error(id: JSONValue, _ error: RPCError) -> JSONValue {
        .object(JSONObject([("jsonrpc", "2.0"), ("id", id), ("error", error.json)]))
    }
}
