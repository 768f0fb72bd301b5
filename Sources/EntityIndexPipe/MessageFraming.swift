import CEntityIdx
import EntityIndex
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// How messages are delimited on a stream.
///
/// `lines` is one JSON value per line (the framing of MCP's stdio transport); `headers` is the Language Server
/// Protocol's base protocol, `Content-Length: N` and a blank line before each body of N bytes
/// (https://microsoft.github.io/language-server-protocol/specifications/base/0.9/specification/).
public enum Framing: Sendable, Equatable {
    case lines
    case headers
}

/// Reads messages from a file descriptor, one per line or LSP-framed, with a bound on message size.
///
/// With `detect`, the framing is chosen from the first bytes: a `Content-Length:` header (in any case) selects
/// `headers` for the rest of the stream, anything else `lines`.
final class MessageReader {
    enum Item {
        case message([UInt8])
        /// A message longer than the limit; it was skipped.
        case tooLong
        /// A message that grew past what the process's memory could hold (its first `bytes`); it was skipped.
        case tooLargeForMemory(bytes: Int)
        /// LSP headers that cannot be read (no or a bad `Content-Length`); the stream goes on after them.
        case badHeader(String)
        case interrupted
        case end
    }

    private(set) var framing: Framing?
    let maxMessageBytes: Int
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0
    private var eof = false
    private static let lengthHeader = Array("content-length:".utf8)

    init(fd: Int32, maxMessageBytes: Int, framing: Framing? = nil) {
        self.fd = fd
        self.maxMessageBytes = maxMessageBytes
        self.framing = framing
    }

    func next() -> Item {
        if framing == nil {
            guard let detected = detect() else { return .interrupted }
            framing = detected
        }
        switch framing! {
        case .lines:
            switch nextLine(maxBytes: maxMessageBytes) {
            case .line(let bytes): return .message(bytes)
            case .tooLong: return .tooLong
            case .noRoom(let bytes): return .tooLargeForMemory(bytes: bytes)
            case .interrupted: return .interrupted
            case .end: return .end
            }
        case .headers:
            return nextFramed()
        }
    }

    // MARK: - Detection

    /// Reads until the first bytes decide the framing; nil when interrupted by a stop signal.
    private func detect() -> Framing? {
        let header = Self.lengthHeader
        while true {
            let available = buffer[start..<end]
            let prefix = available.prefix(header.count).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            if prefix.count == header.count { return prefix == header ? .headers : .lines }
            // Fewer bytes than the header: decide as soon as they cannot start it, or at a line end or end of input.
            if prefix != Array(header.prefix(prefix.count)) || available.contains(0x0A) || eof { return .lines }
            switch fillMore() {
            case .interrupted: return nil
            case .data, .end: continue
            }
        }
    }

    // MARK: - LSP framing

    private func nextFramed() -> Item {
        var length: Int?
        var problem: String?
        var sawHeader = false
        while true {
            switch nextLine(maxBytes: 8192) {
            case .interrupted: return .interrupted
            case .end:
                return sawHeader ? .badHeader("the input ended inside the message headers") : .end
            case .tooLong, .noRoom:
                return .badHeader("a message header line is longer than 8192 bytes")
            case .line(var bytes):
                if bytes.last == 0x0D { bytes.removeLast() }
                if bytes.isEmpty {
                    if !sawHeader { continue }  // blank lines between messages are tolerated
                    if let problem { return .badHeader(problem) }
                    guard let length else { return .badHeader("the message headers have no Content-Length") }
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
                sawHeader = true
                let text = String(decoding: bytes, as: UTF8.self)
                guard let colon = text.firstIndex(of: ":") else {
                    problem = problem ?? "expected a header such as \"Content-Length: 42\", got \"\(text.prefix(40))\""
                    continue
                }
                let name = text[..<colon].trimmingSpaces().lowercased()
                let value = text[text.index(after: colon)...].trimmingSpaces()
                if name == "content-length" {
                    if let n = Int(value), n >= 0 {
                        length = n
                    } else {
                        problem = problem ?? "Content-Length must be a number of bytes, got \"\(value.prefix(40))\""
                    }
                }
            }
        }
    }

    // MARK: - Buffered reading

    private enum Line { case line([UInt8]), tooLong, noRoom(Int), interrupted, end }
    private enum Fill { case data, end, interrupted }

    /// From this size on, a message's growth is checked against the process's memory room.
    static let roomCheckBytes = 1 << 20

    private func nextLine(maxBytes: Int) -> Line {
        var line: [UInt8] = []
        var skipped: Line?
        var skippedBytes = 0
        while true {
            if start < end {
                let newline = buffer[start..<end].firstIndex(of: 0x0A)
                let piece = buffer[start..<(newline ?? end)]
                start = newline.map { $0 + 1 } ?? end
                if skipped == nil {
                    // A line that outgrows its buffer doubles it: that much must fit beside what is held.
                    if line.count + piece.count > line.capacity, line.count >= Self.roomCheckBytes,
                        !MemoryRoom.fits(2 * line.capacity)
                    {
                        skipped = .noRoom(0)
                        skippedBytes = line.count + piece.count
                        line = []
                    } else {
                        line.append(contentsOf: piece)
                        if line.count > maxBytes {
                            skipped = .tooLong
                            line = []
                        }
                    }
                } else {
                    skippedBytes += piece.count
                }
                if newline != nil {
                    if case .noRoom = skipped { return .noRoom(skippedBytes) }
                    return skipped ?? .line(line)
                }
            }
            if eof {
                if case .noRoom = skipped { return .noRoom(skippedBytes) }
                if let skipped { return skipped }
                return line.isEmpty ? .end : .line(line)
            }
            if case .interrupted = fillMore() { return .interrupted }
        }
    }

    /// The next `count` bytes; nil when the input ends first.
    private func take(_ count: Int) -> [UInt8]? {
        var body: [UInt8] = []
        body.reserveCapacity(min(count, 1 << 20))
        while body.count < count {
            if start == end {
                if eof { return nil }
                if case .interrupted = fillMore() { return nil }
                continue
            }
            let take = min(count - body.count, end - start)
            body.append(contentsOf: buffer[start..<(start + take)])
            start += take
        }
        return body
    }

    /// Skips `count` bytes; false when the input ends first.
    private func skip(_ count: Int) -> Bool {
        var left = count
        while left > 0 {
            if start == end {
                if eof { return false }
                if case .interrupted = fillMore() { return false }
                continue
            }
            let take = min(left, end - start)
            start += take
            left -= take
        }
        return true
    }

    /// Reads more input after the unread bytes (moved to the front of the buffer).
    private func fillMore() -> Fill {
        if start > 0 {
            let unread = end - start
            if unread > 0 { buffer.replaceSubrange(0..<unread, with: buffer[start..<end]) }
            start = 0
            end = unread
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
            if n < 0 {
                if errno == EINTR {
                    if eidx_stop_signal() != 0 { return .interrupted }
                    continue
                }
                eof = true
                return .end
            }
            if n == 0 {
                eof = true
                return .end
            }
            end += n
            return .data
        }
    }
}

/// Writes messages to a file descriptor in one framing.
struct MessageWriter {
    let fd: Int32

    /// Writes one message; false when the reader has gone.
    func send(_ message: JSONValue, framing: Framing) -> Bool {
        var writer = JSONWriter(capacity: 512)
        writer.write(message)
        return send(encoded: writer.bytes, framing: framing)
    }

    /// Writes one message already encoded as JSON; false when the reader has gone. The message and its framing go
    /// out in one `writev` (two writes would let TCP's Nagle algorithm hold the second back), without a copy.
    func send(encoded message: [UInt8], framing: Framing) -> Bool {
        switch framing {
        case .lines:
            return write(message, [0x0A])
        case .headers:
            return write(Array("Content-Length: \(message.count)\r\n\r\n".utf8), message)
        }
    }

    private func write(_ head: [UInt8], _ tail: [UInt8]) -> Bool {
        var sent = 0  // bytes of head, then tail, written so far
        let total = head.count + tail.count
        while sent < total {
            // After a stop signal a reader that does not read would hold the process here for ever: a write
            // waits at most a tenth of a second for room.
            if eidx_stop_signal() != 0 {
                var target = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&target, 1, 100) <= 0 { return false }
            }
            let n = head.withUnsafeBytes { h in
                tail.withUnsafeBytes { t in
                    var vectors: [iovec] = []
                    if sent < h.count {
                        vectors.append(
                            iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: h.baseAddress! + sent),
                                iov_len: h.count - sent))
                    }
                    let inTail = max(0, sent - h.count)
                    if inTail < t.count {
                        vectors.append(
                            iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: t.baseAddress! + inTail),
                                iov_len: t.count - inTail))
                    }
                    return writev(fd, vectors, Int32(vectors.count))
                }
            }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            sent += n
        }
        return true
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
