import System

/// The Language Server Protocol's base protocol: headers, a blank line, a body of `Content-Length` bytes
/// (https://microsoft.github.io/language-server-protocol/specifications/base/0.9/specification/#headerPart).
extension MessageReader {
    // MARK: - LSP framing

    func nextFramed() -> Item {
        if resyncing {
            switch resync() {
            case .interrupted: return .interrupted
            case .end: return .end
            case .data: resyncing = false
            }
        }
        var length: Int?
        var sawHeader = false
        while true {
            switch nextLine(maxBytes: Self.maxHeaderBytes) {
            case .interrupted: return .interrupted
            case .end:
                return sawHeader ? .badHeader("the input ended inside the message headers") : .end
            case .tooLong, .noRoom:
                resyncing = true
                return .badHeader("a message header line is longer than \(Self.maxHeaderBytes) bytes")
            case .line(var bytes):
                if bytes.last == 0x0D { bytes.removeLast() }
                if bytes.isEmpty {
                    if !sawHeader { continue }  // blank lines between messages are tolerated
                    return body(length: length)
                }
                if !sawHeader, let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }),
                    first == 0x7B || first == 0x5B
                {
                    return .unframed(bytes)
                }
                sawHeader = true
                // A line that cannot be a header ends the headers there: the next message is looked for after it.
                var problem: String?
                switch Self.header(bytes) {
                case .bad(let wrong):
                    problem = wrong
                case .field(let name, let value) where name == "content-length":
                    if let n = Int(value), n >= 0, length == nil || length == n {
                        length = n
                    } else if let length, let n = Int(value) {
                        problem = "two Content-Length headers disagree (\(length) and \(n))"
                    } else {
                        problem = "Content-Length must be a number of bytes, got \(RPCError.quoted(value))"
                    }
                case .field:
                    break  // Content-Type and any other header
                }
                if let problem {
                    resyncing = true
                    return .badHeader(problem)
                }
            }
        }
    }

    /// The body after the headers: the message, or the error its headers or size give.
    private func body(length: Int?) -> Item {
        guard let length else {
            resyncing = true
            return .badHeader("the message headers have no Content-Length")
        }
        if length > maxMessageBytes {
            guard skip(length) else { return .end }
            return .tooLong
        }
        if length >= Self.roomCheckBytes, !MemoryRoom.fits(length) {
            guard skip(length) else { return .end }
            return .tooLargeForMemory(bytes: length)
        }
        guard let body = take(length) else {
            return .badHeader("the input ended inside a message body (Content-Length \(length))")
        }
        return .message(body)
    }

    /// A header line's name (lowercased) and value, or what is wrong with it.
    static func header(_ line: [UInt8]) -> Header {
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = line.firstIndex(of: 0x3A), colon > 0, line[..<colon].allSatisfy(isTokenByte) else {
            return .bad("expected a header such as \"Content-Length: 42\", got \(RPCError.quoted(text))")
        }
        if line.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return .bad("a header holds a control character: \(RPCError.quoted(text))")
        }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
        return .field(name: name, value: value)
    }

    enum Header {
        case field(name: String, value: String)
        case bad(String)
    }

    /// A byte of a header name (an HTTP token; in practice letters, digits and `-`).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E: true
        default: false
        }
    }

    /// Drops input up to the next `Content-Length:` (anywhere) or header name and colon (at the start of a line).
    private func resync() -> Fill {
        var lineStart = true
        while true {
            var i = start
            scan: while i < end {
                switch headerStart(at: i, lineStart: lineStart) {
                case true?:
                    start = i
                    return .data
                case nil:
                    break scan  // the bytes at hand could start one: read more
                case false?:
                    lineStart = buffer[i] == 0x0A
                    i += 1
                }
            }
            start = i
            if eof {
                start = end
                return .end
            }
            if case .interrupted = fillMore() { return .interrupted }
        }
    }

    /// Whether a header starts at `i`; nil when the bytes read so far cannot tell.
    private func headerStart(at i: Int, lineStart: Bool) -> Bool? {
        let length = Self.lengthHeader
        var matched = 0
        while matched < length.count, i + matched < end, Self.lowercased(buffer[i + matched]) == length[matched] {
            matched += 1
        }
        if matched == length.count { return true }
        if i + matched == end, !eof { return nil }
        guard lineStart else { return false }
        var j = i
        while j < end, j - i < Self.maxHeaderBytes, Self.isTokenByte(buffer[j]) { j += 1 }
        if j == end { return eof ? false : nil }
        return j > i && buffer[j] == 0x3A
    }
}
