/// A parse failure: what is wrong and where (byte offset in the input).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Strict on purpose: invalid UTF-8, control characters in strings, lone surrogate escapes, duplicate keys,
/// numbers that overflow a Double and nesting deeper than `maxDepth` are all errors, never silent guesses.
public struct JSONParser {
    public var maxDepth: Int
    /// Asked every few thousand values; when it says yes the parse stops with an error (a stop signal must not
    /// wait for a 60 MB request to be read).
    public var shouldStop: (() -> Bool)?

    public init(maxDepth: Int = 256, shouldStop: (() -> Bool)? = nil) {
        self.maxDepth = maxDepth
        self.shouldStop = shouldStop
    }

    /// Parses exactly one JSON value (surrounding whitespace allowed).
    public func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: bytes.bindMemory(to: UInt8.self), maxDepth: maxDepth, shouldStop: shouldStop)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        if reader.index < reader.bytes.count { throw reader.fail("unexpected data after the JSON value") }
        return value
    }

    public func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        do {
            return try bytes.withUnsafeBytes { buffer in try parse(buffer) }
        } catch let error as JSONParseError {
            throw error
        } catch {
            fatalError("unreachable")
        }
    }

    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    let shouldStop: (() -> Bool)?
    var index = 0
    var values = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, shouldStop: (() -> Bool)?) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.shouldStop = shouldStop
    }

    func fail(_ message: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(message: message, offset: offset ?? index)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        values &+= 1
        if values & 4095 == 0, let shouldStop, shouldStop() { throw fail("parsing was stopped") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case 0: throw fail("a NUL byte is not allowed in JSON")
        default: throw fail("unexpected character '\(printable(bytes[index]))'")
        }
    }

    func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("invalid literal") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for i in 0..<count where bytes[index + i] != expected[i] { throw fail("invalid literal") }
        index += count
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var pairs: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(pairs))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = index
            let key = try string()
            for pair in pairs where pair.key == key {
                throw fail("duplicate key \(Quoting.quoted(key))", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            pairs.append((key, try value(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(pairs)) }
            throw fail("expected ',' or '}'")
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']'")
        }
    }

    mutating func number() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail("leading zeros are not allowed") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index - start > 400 { throw fail("number too long", at: start) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("number out of range", at: start) }
        return JSONNumber(text: text, double: value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw fail("invalid UTF-8", at: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in a string (escape it)") }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw fail("invalid UTF-8", at: start)
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("lone surrogate \\u\(String(scalar, radix: 16)) in a string") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone surrogate \\u\(String(scalar, radix: 16)) in a string")
                    }
                    buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
                default: throw fail("invalid escape '\\\(printable(escape))'")
                }
            default:
                if byte < 0x20 { throw fail("control character in a string (escape it)") }
                buffer.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string", at: start - 1)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
