import JSON

// Header fields, the body's framing and the characters of the grammar:
// https://www.rfc-editor.org/rfc/rfc9110#section-5 and https://www.rfc-editor.org/rfc/rfc9112#section-6

extension HTTPParser {
    // MARK: - Header fields

    mutating func readField(_ line: ArraySlice<UInt8>) -> HTTPFailure? {
        if line.first == 0x20 || line.first == 0x09 {
            return HTTPFailure(400, "a header line starts with white space (obsolete line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            return HTTPFailure(400, "a header line without a colon: \(Self.quoted(line))")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
            return HTTPFailure(400, "the header name \(Self.quoted(name)) is not a token (no space before the colon)")
        }
        var value = line[(colon + 1)...]
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            return HTTPFailure(400, "the header \(Self.quoted(name)) holds a control character")
        }
        guard fields.count < limits.maxHeaderCount else {
            return HTTPFailure(431, "more than \(limits.maxHeaderCount) header fields")
        }
        fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        return nil
    }

    func field(_ name: String) -> String? { fields.first { HTTPRequest.sameName($0.name, name) }?.value }

    func values(_ name: String) -> [String] {
        fields.filter { HTTPRequest.sameName($0.name, name) }.flatMap {
            $0.value.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0).trimmingWhiteSpace
            }
        }
    }

    /// The length of the body the head announces, after the checks of the framing fields.
    func bodyLength() -> Result<Int, HTTPFailure> {
        let hosts = fields.filter { HTTPRequest.sameName($0.name, "host") }
        if minor == 1, hosts.count != 1 {
            return .failure(
                HTTPFailure(
                    400, hosts.isEmpty ? "an HTTP/1.1 request needs a Host header" : "more than one Host header"))
        }
        let codings = values("transfer-encoding").map { $0.lowercased() }
        let lengths = values("content-length")
        if !codings.isEmpty {
            if !lengths.isEmpty {
                return .failure(HTTPFailure(400, "both Transfer-Encoding and Content-Length: send Content-Length only"))
            }
            if minor == 0 { return .failure(HTTPFailure(400, "Transfer-Encoding in an HTTP/1.0 request")) }
            let known: Set<String> = ["chunked", "gzip", "deflate", "compress", "x-gzip"]
            if codings.last == "chunked", codings.allSatisfy(known.contains) {
                return .failure(
                    HTTPFailure(411, "a chunked request body is not accepted: send the body with a Content-Length"))
            }
            return .failure(
                HTTPFailure(
                    501, "the transfer coding \(Self.quoted(codings.joined(separator: ", "))) is not implemented"))
        }
        guard let first = lengths.first else { return .success(0) }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else {
            return .failure(HTTPFailure(400, "Content-Length must be one number of bytes"))
        }
        guard first.utf8.count <= 18, let length = Int(first), length <= limits.maxBodyBytes else {
            return .failure(
                HTTPFailure(413, "a body of \(Quoting.prefix(first)) bytes; the most is \(limits.maxBodyBytes)"))
        }
        return .success(length)
    }

    /// The request read, its fields reset for the next one.
    mutating func finish(body: [UInt8]) -> HTTPRequest {
        let connection = values("connection").map { $0.lowercased() }
        let keepAlive = minor == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let request = HTTPRequest(
            method: method, target: target, minorVersion: minor, headers: fields, body: body, keepAlive: keepAlive)
        fields = []
        headerBytes = 0
        return request
    }

    // MARK: - Characters

    /// `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// Bytes quoted for a message, cut as every quoted value is (`Quoting.quoted`).
    static func quoted(_ bytes: some Collection<UInt8>) -> String {
        Quoting.quoted(String(decoding: bytes, as: UTF8.self))
    }

    static func quoted(_ text: String) -> String { Quoting.quoted(text) }
}

/// A request in a `Step`, compared by identity of content for tests.
public struct HTTPRequestBox: Equatable, Sendable {
    public let request: HTTPRequest
    init(_ request: HTTPRequest) { self.request = request }
    public static func == (a: HTTPRequestBox, b: HTTPRequestBox) -> Bool {
        a.request.method == b.request.method && a.request.target == b.request.target
            && a.request.body == b.request.body && a.request.headers.map(\.name) == b.request.headers.map(\.name)
            && a.request.headers.map(\.value) == b.request.headers.map(\.value)
    }
}

extension String {
    var trimmingWhiteSpace: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
