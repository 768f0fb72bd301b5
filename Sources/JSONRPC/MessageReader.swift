import System

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

/// Reads messages from a byte stream, one per line or LSP-framed, with a bound on message size.
///
/// Without a framing given, it is chosen from the first bytes: an LSP header (`Content-Length:` or
/// `Content-Type:`, in any case) selects `headers` for the rest of the stream, anything else `lines`.
///
/// In `headers` framing, headers come in any order, and unknown ones are ignored. After a line that cannot be a
/// header, or headers without a valid `Content-Length`, the reader skips input up to the next `Content-Length:` (a
/// body need not end with a line end) or the next header at the start of a line, so that the next message is read
/// whole.
/// A JSON value where headers should start (a line-framed message) is delivered as `unframed`, to be answered
/// with an error.
public final class MessageReader {
    public enum Item: Equatable {
        case message([UInt8])
        /// A message longer than the limit; it was skipped.
        case tooLong
        /// A message that grew past what the process's memory could hold (its first `bytes`); it was skipped.
        case tooLargeForMemory(bytes: Int)
        /// LSP headers that cannot be read; the stream goes on after them.
        case badHeader(String)
        /// A line where LSP headers should start that holds a JSON value instead (a message framed as a line).
        case unframed([UInt8])
        case interrupted
        case end
    }

    /// Reads bytes into the buffer given: their count, 0 at end of input, -1 on an error (`errno`).
    public typealias Source = (UnsafeMutableRawBufferPointer) -> Int

    public private(set) var framing: Framing?
    public let maxMessageBytes: Int
    let source: Source
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var start = 0
    var end = 0
    var eof = false
    /// Set after unreadable headers whose body length is unknown: the next message starts where `resync` finds it.
    var resyncing = false

    static let lengthHeader = Array("content-length:".utf8)
    static let detected = [lengthHeader, Array("content-type:".utf8)]
    /// The longest header line read.
    static let maxHeaderBytes = 8192

    /// From this size on, a message's growth is checked against the process's memory room.
    public static let roomCheckBytes = 1 << 20

    public init(source: @escaping Source, maxMessageBytes: Int, framing: Framing? = nil) {
        self.source = source
        self.maxMessageBytes = maxMessageBytes
        self.framing = framing
    }

    /// Reads from a descriptor; `idle` is called each `idleMilliseconds` that it waits for input.
    public convenience init(
        fd: Int32, maxMessageBytes: Int, framing: Framing? = nil, idle: (() -> Void)? = nil,
        idleMilliseconds: Int32 = 1000
    ) {
        self.init(
            source: { buffer in
                if let idle {
                    var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    while true {
                        let ready = poll(&waiting, 1, idleMilliseconds)
                        if ready > 0 { break }
                        if ready < 0 { return -1 }  // EINTR: the caller checks for a stop signal
                        idle()
                    }
                }
                return read(fd, buffer.baseAddress, buffer.count)  // EINTR: retried by `fillMore`
            }, maxMessageBytes: maxMessageBytes, framing: framing)
    }

    public func next() -> Item {
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
        while true {
            let available = buffer[start..<end].prefix(Self.lengthHeader.count).map(Self.lowercased)
            var undecided = false
            for header in Self.detected {
                if available.count >= header.count, Array(available.prefix(header.count)) == header { return .headers }
                if available.count < header.count, available == Array(header.prefix(available.count)) {
                    undecided = true
                }
            }
            // Decide as soon as the bytes cannot start a header, or at a line end or end of input.
            if !undecided || buffer[start..<end].contains(0x0A) || eof { return .lines }
            if case .interrupted = fillMore() { return nil }
        }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    // MARK: - Buffered reading

    enum Line { case line([UInt8]), tooLong, noRoom(Int), interrupted, end }
    enum Fill { case data, end, interrupted }

    func nextLine(maxBytes: Int) -> Line {
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
    func take(_ count: Int) -> [UInt8]? {
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
    func skip(_ count: Int) -> Bool {
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
    func fillMore() -> Fill {
        if start > 0 {
            let unread = end - start
            if unread > 0 { buffer.replaceSubrange(0..<unread, with: buffer[start..<end]) }
            start = 0
            end = unread
        }
        if end == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
        while true {
            let n = buffer.withUnsafeMutableBytes { buffer in
                Descriptor.retrying(unless: { StopSignal.received != nil }) {
                    source(UnsafeMutableRawBufferPointer(rebasing: buffer[end...]))
                }
            }
            if n < 0 {
                if errno == EINTR { return .interrupted }
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

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
