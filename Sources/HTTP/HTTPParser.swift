/// The bounds of what a request may hold.
public struct HTTPLimits: Sendable {
    /// The longest request line, its line end included (a longer one: 414 when the method and a space came, else 400).
    public var maxRequestLineBytes: Int
    /// The most bytes of header lines after the request line, line ends included (431 beyond).
    public var maxHeaderBytes: Int
    /// The most header fields (431 beyond).
    public var maxHeaderCount: Int
    /// The largest `Content-Length` accepted (413 beyond, before any of the body is read).
    public var maxBodyBytes: Int

    public init(
        maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 16384, maxHeaderCount: Int = 64,
        maxBodyBytes: Int = 64 << 20
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// An incremental, strict parser of HTTP/1.1 requests ([RFC 9112](https://www.rfc-editor.org/rfc/rfc9112)): bytes
/// in as they arrive, requests out, one after another on a keep-alive connection.
///
/// Bodies are `Content-Length` only; every departure from the grammar is a failure with its status (the rules are
/// in docs/http.md). After a failure the parser delivers nothing more: the connection is to be answered and closed.
public struct HTTPParser {
    public enum Step: Equatable {
        /// A whole request.
        case request(HTTPRequestBox)
        /// More bytes are needed.
        case needMore
        /// The bytes are not a request this server reads.
        case failure(HTTPFailure)
    }

    public let limits: HTTPLimits
    var buffer: [UInt8] = []
    /// Where the unread bytes start.
    var start = 0
    /// How far the current line has been searched for its end.
    var scanned = 0
    var state = State.requestLine
    var failed: HTTPFailure?
    /// The request being read.
    var method = ""
    var target = ""
    var minor = 1
    var fields: [(name: String, value: String)] = []
    var headerBytes = 0
    /// True once the head of a request that asked for `Expect: 100-continue` is read and its body is awaited; the
    /// server sends `100 Continue` and clears it.
    public var expectsContinue = false

    enum State { case requestLine, headers, body(Int) }

    public init(limits: HTTPLimits = HTTPLimits()) { self.limits = limits }

    /// Adds bytes read from the connection.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The bytes read and not yet delivered as requests.
    public var bufferedBytes: Int { buffer.count - start }

    /// Whether part of a request has arrived (bytes are buffered, or a head is read and its body awaited).
    public var hasPartialRequest: Bool {
        if case .body = state { return true }
        if case .headers = state { return true }
        return start < buffer.count
    }

    /// The next request, or what stops it.
    public mutating func next() -> Step {
        if let failed { return .failure(failed) }
        while true {
            switch state {
            case .body(let length):
                guard buffer.count - start >= length else { return .needMore }
                let body = Array(buffer[start..<(start + length)])
                start += length
                scanned = start
                expectsContinue = false
                state = .requestLine
                return .request(HTTPRequestBox(finish(body: body)))
            case .requestLine, .headers:
                let line: ArraySlice<UInt8>
                switch takeLine() {
                case .none: return .needMore
                case .some(.failure(let failure)): return fail(failure)
                case .some(.success(let taken)): line = taken
                }
                if case .requestLine = state {
                    // Empty lines before a request line are ignored (RFC 9112 §2.2).
                    if line.isEmpty { continue }
                    if let failure = readRequestLine(line) { return fail(failure) }
                    state = .headers
                    continue
                }
                if !line.isEmpty {
                    if let failure = readField(line) { return fail(failure) }
                    continue
                }
                switch bodyLength() {
                case .failure(let failure): return fail(failure)
                case .success(let length):
                    state = .body(length)
                    if length == 0 { continue }
                    if let expect = field("expect") {
                        guard expect.lowercased() == "100-continue" else {
                            return fail(
                                HTTPFailure(
                                    417, "Expect \(Self.quoted(expect)) is not supported; send the body without it"))
                        }
                        if minor == 1, buffer.count == start { expectsContinue = true }
                    }
                }
            }
        }
    }

    mutating func fail(_ failure: HTTPFailure) -> Step {
        failed = failure
        return .failure(failure)
    }

    // MARK: - Lines

    /// The next line without its CR LF; nil when it has not all arrived; a failure for a bare CR or LF or a line
    /// past its bound.
    ///
    /// A line end is looked for within the bound only, so that a line past it fails the same way whether its bytes
    /// come at once or in pieces (a bare LF after the bound is never reached).
    private mutating func takeLine() -> Result<ArraySlice<UInt8>, HTTPFailure>? {
        let allowed: Int
        switch state {
        case .requestLine: allowed = limits.maxRequestLineBytes
        default: allowed = limits.maxHeaderBytes - headerBytes
        }
        let window = min(buffer.count, start + max(0, allowed))
        var i = max(scanned, start)
        while i < window {
            let byte = buffer[i]
            if byte == 0x0A {
                guard i > start, buffer[i - 1] == 0x0D else {
                    return .failure(HTTPFailure(400, "a line ends with a bare LF; lines end with CR LF"))
                }
                let line = buffer[start..<(i - 1)]
                if line.contains(0x0D) { return .failure(HTTPFailure(400, "a bare CR inside a line")) }
                start = i + 1
                scanned = start
                if case .headers = state { headerBytes += line.count + 2 }
                return .success(line)
            }
            i += 1
        }
        scanned = i
        guard buffer.count - start >= max(0, allowed) else { return nil }
        if case .requestLine = state { return .failure(lineTooLong) }
        return .failure(headerTooLarge)
    }

    /// 414 when a method and a space came first (the target is what is long), else 400.
    private var lineTooLong: HTTPFailure {
        let head = buffer[start..<min(buffer.count, start + limits.maxRequestLineBytes)]
        if let space = head.firstIndex(of: 0x20), space > start {
            return HTTPFailure(414, "the request line is longer than \(limits.maxRequestLineBytes) bytes")
        }
        return HTTPFailure(400, "no request line within \(limits.maxRequestLineBytes) bytes")
    }

    private var headerTooLarge: HTTPFailure {
        HTTPFailure(431, "the header fields take more than \(limits.maxHeaderBytes) bytes")
    }

    // MARK: - The request line

    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "CONNECT"]

    private mutating func readRequestLine(_ line: ArraySlice<UInt8>) -> HTTPFailure? {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            return HTTPFailure(400, "the request line must be METHOD SP TARGET SP HTTP-VERSION, one space apart")
        }
        let version = Array(parts[2])
        let digit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        guard version.count == 8, Array(version[0..<5]) == Array("HTTP/".utf8), digit(version[5]),
            version[6] == 0x2E, digit(version[7])
        else {
            return HTTPFailure(400, "\(Self.quoted(parts[2])) is not an HTTP version (HTTP/1.1)")
        }
        guard version[5] == 0x31, version[7] <= 0x31 else {
            return HTTPFailure(505, "\(Self.quoted(parts[2])) is not supported; this server speaks HTTP/1.1 and 1.0")
        }
        minor = Int(version[7] - 0x30)
        guard parts[0].allSatisfy(Self.isTokenByte) else {
            return HTTPFailure(400, "the method \(Self.quoted(parts[0])) is not a token")
        }
        method = String(decoding: parts[0], as: UTF8.self)
        guard Self.methods.contains(method) else {
            return HTTPFailure(501, "the method \(Self.quoted(parts[0])) is not implemented")
        }
        let raw = parts[1]
        guard raw.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), !raw.contains(0x23) else {
            return HTTPFailure(
                400, "the request target holds a character it may not (a space, a control, # or a non-ASCII byte)")
        }
        var text = String(decoding: raw, as: UTF8.self)
        if text == "*" {
            guard method == "OPTIONS" else { return HTTPFailure(400, "the target * is only for OPTIONS") }
        } else if !text.hasPrefix("/") {
            // The absolute form (RFC 9112 §3.2.2): its path is the target.
            let lowered = text.lowercased()
            guard let scheme = ["http://", "https://"].first(where: lowered.hasPrefix) else {
                return HTTPFailure(400, "the request target must start with / (or be an absolute http URI)")
            }
            let rest = text.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else {
                target = "/"
                return nil
            }
            text = rest[slash] == "?" ? "/" + rest[slash...] : String(rest[slash...])
        }
        target = text
        return nil
    }
}
