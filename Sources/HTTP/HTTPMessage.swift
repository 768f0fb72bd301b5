/// An HTTP/1.1 request as the parser delivers it: the request line, the header fields in their order and the body.
///
/// Header names keep their spelling; `header(_:)` compares them ignoring ASCII case, as
/// [RFC 9110 §5.1](https://www.rfc-editor.org/rfc/rfc9110#section-5.1) says.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The request target as sent (origin form `/path?query`, the path of an absolute form, or `*`).
    public var target: String
    /// The target's path, without its query.
    public var path: String
    /// The target's query (after `?`), nil without one.
    public var query: String?
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    public var minorVersion: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`; HTTP/1.0 only
    /// with `Connection: keep-alive`).
    public var keepAlive: Bool

    public init(
        method: String, target: String, minorVersion: Int = 1, headers: [(name: String, value: String)] = [],
        body: [UInt8] = [], keepAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "")
        query = parts.count > 1 ? String(parts[1]) : nil
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }

    /// The value of the first field named `name` (any case), nil when there is none.
    public func header(_ name: String) -> String? {
        headers.first { HTTPRequest.sameName($0.name, name) }?.value
    }

    /// The values of every field named `name`, in order.
    public func headers(named name: String) -> [String] {
        headers.filter { HTTPRequest.sameName($0.name, name) }.map(\.value)
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}

/// A response to send: status, header fields and a body, whole (`Content-Length`) or in chunks
/// (`Transfer-Encoding: chunked`, for an event stream).
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Sent with chunked transfer coding, each element a chunk, then the last (empty) chunk.
        case chunks([[UInt8]])
    }

    public var status: Int
    /// Fields besides `Content-Length`, `Transfer-Encoding` and `Connection`, which the server writes.
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// Close the connection after this response.
    public var close: Bool

    public init(
        status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([]), close: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.close = close
    }

    /// A response whose body is `text` as UTF-8, with its content type.
    public init(status: Int, text: String, contentType: String = "text/plain; charset=utf-8", close: Bool = false) {
        self.init(
            status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(text.utf8)), close: close)
    }

    /// The reason phrase of the statuses this server sends.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    /// The bytes on the wire for a request of HTTP/1.`minorVersion` (HEAD: `withBody` false). HTTP/1.0 has no
    /// chunked coding: chunks are then sent as one body, and the connection closed after it.
    public func encoded(minorVersion: Int = 1, keepAlive: Bool = true, withBody: Bool = true) -> [UInt8] {
        let noBody = status < 200 || status == 204 || status == 304
        var chunked = false
        var body: [UInt8] = []
        var closing = close || !keepAlive
        switch self.body {
        case .bytes(let bytes): body = bytes
        case .chunks(let chunks):
            if minorVersion >= 1 {
                chunked = true
            } else {
                body = chunks.flatMap { $0 }
                closing = true
            }
        }
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !noBody {
            head += chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: \(body.count)\r\n"
        }
        if closing {
            head += "Connection: close\r\n"
        } else if minorVersion == 0 {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        guard withBody, !noBody else { return bytes }
        if chunked, case .chunks(let chunks) = self.body {
            for chunk in chunks where !chunk.isEmpty {
                bytes += Array(String(chunk.count, radix: 16).utf8) + [0x0D, 0x0A] + chunk + [0x0D, 0x0A]
            }
            bytes += Array("0\r\n\r\n".utf8)
        } else {
            bytes += body
        }
        return bytes
    }
}

/// Why a request could not be read: the status to answer with and what was wrong. The connection is closed
/// after the answer.
public struct HTTPFailure: Error, Equatable, Sendable {
    public var status: Int
    public var message: String

    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
