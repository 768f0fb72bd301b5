import JSON

/// One request (or notification) of a JSON-RPC message, its envelope checked.
public struct RPCRequest: Sendable {
    /// The request's id; nil for a notification, which gets no response.
    public let id: JSONValue?
    public let method: String
    public let params: JSONValue?

    public init(id: JSONValue?, method: String, params: JSONValue?) {
        self.id = id
        self.method = method
        self.params = params
    }

    public var isNotification: Bool { id == nil }

    /// The id its response carries.
    public var responseId: JSONValue { id ?? .null }
}

/// Where protocols built on JSON-RPC 2.0 read the envelope differently.
public struct RPCDialect: Sendable {
    /// Whether `"id": null` is a request's id (JSON-RPC 2.0 allows it; MCP does not).
    public var nullIdAllowed: Bool
    /// Whether a message with `result` or `error` and no `method` (a response to a request of ours) is taken
    /// without an answer; else it is an invalid request.
    public var acceptsResponses: Bool

    public init(nullIdAllowed: Bool, acceptsResponses: Bool) {
        self.nullIdAllowed = nullIdAllowed
        self.acceptsResponses = acceptsResponses
    }

    /// Plain JSON-RPC 2.0 (https://www.jsonrpc.org/specification).
    public static let jsonRPC = RPCDialect(nullIdAllowed: true, acceptsResponses: false)
    /// The Model Context Protocol's messages
    /// (https://modelcontextprotocol.io/specification/2025-11-25/basic#messages).
    public static let mcp = RPCDialect(nullIdAllowed: false, acceptsResponses: true)
}

/// What one value of a message is, once its envelope is read.
enum Envelope {
    case request(RPCRequest)
    /// A response of the peer's: nothing to answer.
    case response
    /// Not a valid request: its error, with the id when it could be read.
    case invalid(id: JSONValue, RPCError)

    init(_ value: JSONValue, _ dialect: RPCDialect) {
        guard case .object(let message) = value else {
            self = .invalid(id: .null, .invalidRequest("a request must be an object, got \(value.typeName)"))
            return
        }
        let id = message["id"]
        switch id {
        case nil, .string?, .number?: break
        case .null? where dialect.nullIdAllowed: break
        case let other?:
            let allowed = dialect.nullIdAllowed ? "a string, a number or null" : "a string or a number"
            self = .invalid(id: .null, .invalidRequest("\"id\" must be \(allowed), got \(other.typeName)"))
            return
        }
        if dialect.acceptsResponses, message["method"] == nil, message["result"] != nil || message["error"] != nil {
            self = .response
            return
        }
        guard message["jsonrpc"] == .string("2.0") else {
            self = .invalid(id: id ?? .null, .invalidRequest("\"jsonrpc\" must be \"2.0\""))
            return
        }
        guard case .string(let method)? = message["method"] else {
            self = .invalid(id: id ?? .null, .invalidRequest("\"method\" must be a string"))
            return
        }
        self = .request(RPCRequest(id: id, method: method, params: message["params"]))
    }
}
