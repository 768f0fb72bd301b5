import System

/// Splits a stream of records into single JSON values without reading it all into memory.
///
/// The input is either one JSON array of values or NDJSON (one value per line); the first non-blank byte decides
/// (`[` means an array). Each element comes out as its own bytes with its position, to be parsed on its own, so
/// memory stays bounded by the largest element, not the input.
public final class JSONStreamReader {
    public enum Format: String, Sendable { case array, ndjson }

    /// One value of the stream: its 1-based position, the line it starts on, and its bytes.
    public struct Element {
        public let position: Int
        public let line: Int
        public let bytes: [UInt8]
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let line: Int
        public let message: String
        public var description: String { "line \(line): \(message)" }
    }

    private let fd: Int32
    private let maxElementBytes: Int
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)
    private var chunkLength = 0
    private var chunkIndex = 0
    private var atEOF = false
    private var line = 1
    private var count = 0
    private var state = State.start
    public private(set) var format: Format?
    /// Bytes read so far (for progress).
    public private(set) var bytesRead = 0
    /// Bytes read and parsed so far: `bytesRead` less what waits in the buffer (for a share of the input done).
    public var bytesConsumed: Int { bytesRead - (chunkLength - chunkIndex) }
    /// Asked when a read is interrupted by a signal: true ends the input there (the caller then sees why).
    public var stopRequested: (() -> Bool)?

    private enum State { case start, arrayBeforeElement, arrayAfterElement, arrayDone, ndjson, done }

    public init(fd: Int32, maxElementBytes: Int = 64 << 20) {
        self.fd = fd
        self.maxElementBytes = maxElementBytes
    }

    private func fill() -> Bool {
        if atEOF { return false }
        let n = chunk.withUnsafeMutableBytes { Descriptor.read(fd, into: $0, unless: { stopRequested?() == true }) }
        if n <= 0 {
            atEOF = true
            return false
        }
        chunkLength = n
        chunkIndex = 0
        bytesRead += n
        return true
    }

    private func peekByte() -> UInt8? {
        if chunkIndex >= chunkLength, !fill() { return nil }
        return chunk[chunkIndex]
    }

    private func skipWhitespace() {
        while let byte = peekByte() {
            switch byte {
            case 0x0A: line += 1; chunkIndex += 1
            case 0x20, 0x0D, 0x09: chunkIndex += 1
            default: return
            }
        }
    }

    /// The next element, nil at the end of the input.
    public func next() throws(Failure) -> Element? {
        while true {
            switch state {
            case .start:
                skipWhitespace()
                guard let byte = peekByte() else { state = .done; format = format ?? .ndjson; return nil }
                if byte == 0xEF {  // a UTF-8 byte order mark
                    chunkIndex += 1
                    guard peekByte() == 0xBB else { throw Failure(line: line, message: "invalid UTF-8") }
                    chunkIndex += 1
                    guard peekByte() == 0xBF else { throw Failure(line: line, message: "invalid UTF-8") }
                    chunkIndex += 1
                    continue
                }
                if byte == UInt8(ascii: "[") {
                    format = .array
                    chunkIndex += 1
                    state = .arrayBeforeElement
                    skipWhitespace()
                    if peekByte() == UInt8(ascii: "]") { chunkIndex += 1; state = .arrayDone }
                } else {
                    format = .ndjson
                    state = .ndjson
                }
            case .arrayBeforeElement:
                skipWhitespace()
                guard let byte = peekByte() else {
                    throw Failure(line: line, message: "unexpected end of input inside the array")
                }
                if byte == UInt8(ascii: "]") || byte == UInt8(ascii: ",") {
                    throw Failure(line: line, message: "expected a value in the array")
                }
                return try arrayElement()
            case .arrayAfterElement:
                skipWhitespace()
                guard let byte = peekByte() else {
                    throw Failure(line: line, message: "unexpected end of input: the array is not closed")
                }
                chunkIndex += 1
                if byte == UInt8(ascii: ",") { state = .arrayBeforeElement; continue }
                if byte == UInt8(ascii: "]") { state = .arrayDone; continue }
                throw Failure(line: line, message: "expected ',' or ']' after an array element")
            case .arrayDone:
                skipWhitespace()
                if peekByte() != nil { throw Failure(line: line, message: "unexpected data after the closing ']'") }
                state = .done
            case .ndjson:
                if let element = try ndjsonLine() { return element }
                state = .done
            case .done:
                return nil
            }
        }
    }

    /// Reads one array element, stopping at a top-level ',' or ']' outside strings.
    private func arrayElement() throws(Failure) -> Element {
        let startLine = line
        var bytes: [UInt8] = []
        var depth = 0, inString = false, escaped = false
        while true {
            if chunkIndex >= chunkLength, !fill() {
                throw Failure(line: line, message: "unexpected end of input inside an array element")
            }
            var i = chunkIndex
            var stop = false
            while i < chunkLength {
                let byte = chunk[i]
                if byte == 0x0A { line += 1 }
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 0x5C {
                        escaped = true
                    } else if byte == 0x22 {
                        inString = false
                    }
                } else {
                    switch byte {
                    case 0x22: inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { stop = true } else { depth -= 1 }
                    case UInt8(ascii: ","):
                        if depth == 0 { stop = true }
                    default: break
                    }
                }
                if stop { break }
                i += 1
            }
            bytes.append(contentsOf: chunk[chunkIndex..<i])
            chunkIndex = i
            if bytes.count > maxElementBytes {
                throw Failure(line: startLine, message: "a record is larger than \(maxElementBytes) bytes")
            }
            if stop {
                count += 1
                state = .arrayAfterElement
                return Element(position: count, line: startLine, bytes: bytes)
            }
        }
    }

    /// Reads the next non-blank line.
    private func ndjsonLine() throws(Failure) -> Element? {
        while true {
            var bytes: [UInt8] = []
            let startLine = line
            var sawEnd = false
            while !sawEnd {
                if chunkIndex >= chunkLength, !fill() {
                    if bytes.isEmpty { return nil }
                    break
                }
                var i = chunkIndex
                while i < chunkLength, chunk[i] != 0x0A { i += 1 }
                bytes.append(contentsOf: chunk[chunkIndex..<i])
                if i < chunkLength { sawEnd = true; i += 1; line += 1 }
                chunkIndex = i
                if bytes.count > maxElementBytes {
                    throw Failure(line: startLine, message: "a line is longer than \(maxElementBytes) bytes")
                }
            }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            count += 1
            return Element(position: count, line: startLine, bytes: bytes)
        }
    }
}
