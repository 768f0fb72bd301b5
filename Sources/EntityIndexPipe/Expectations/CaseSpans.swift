import JSON

/// Where each case of an expectations file is in its bytes: the line of its opening brace and the bytes of its
/// `expect.top` value.
///
/// The JSON parser keeps no positions, so a light scan of the text finds them: it walks the top-level array's
/// elements, skipping strings (with their escapes) and nested values, and looks inside an element only for the
/// `expect` member and, in it, `top`. It runs after the parser accepted the text, so it may take the text as valid.
struct CaseSpan: Sendable {
    var line: Int
    /// The bytes of the last `top` inside the last `expect` (as the parser keeps the last of repeated keys).
    var top: Range<Int>?
}

enum CaseSpans {
    /// The span of each element of the top-level array, in order; empty when the text is not an array.
    static func scan(_ bytes: [UInt8]) -> [CaseSpan] {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.peek == UInt8(ascii: "[") else { return [] }
        scanner.i += 1
        var spans: [CaseSpan] = []
        while true {
            scanner.skipSpace()
            guard let c = scanner.peek, c != UInt8(ascii: "]") else { break }
            if c == UInt8(ascii: ",") {
                scanner.i += 1
                continue
            }
            let line = scanner.line
            if c == UInt8(ascii: "{") {
                var top: Range<Int>?
                scanner.members { key, scanner in
                    guard key == "expect", scanner.peek == UInt8(ascii: "{") else { return false }
                    top = nil
                    scanner.members { key, scanner in
                        guard key == "top" else { return false }
                        let start = scanner.i
                        scanner.skipValue()
                        top = start..<scanner.i
                        return true
                    }
                    return true
                }
                spans.append(CaseSpan(line: line, top: top))
            } else {
                scanner.skipValue()
                spans.append(CaseSpan(line: line, top: nil))
            }
        }
        return spans
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var line = 1

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0xEF || c == 0xBB || c == 0xBF
            {
                if c == 0x0A { line += 1 }
                i += 1
            }
        }

        /// Skips a string from its opening quote; returns its raw bytes between the quotes.
        mutating func skipString() -> ArraySlice<UInt8> {
            i += 1
            let start = i
            while let c = peek, c != UInt8(ascii: "\"") {
                i += c == UInt8(ascii: "\\") ? 2 : 1
            }
            let raw = bytes[start..<min(i, bytes.count)]
            i += 1
            return raw
        }

        mutating func skipValue() {
            skipSpace()
            guard let c = peek else { return }
            switch c {
            case UInt8(ascii: "\""): _ = skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while let c = peek {
                    if c == UInt8(ascii: "\"") {
                        _ = skipString()
                        continue
                    }
                    if c == 0x0A { line += 1 }
                    i += 1
                    if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
                    if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { return }
                    }
                }
            default:
                while let c = peek, !"{}[],: \t\r\n".utf8.contains(c) { i += 1 }
            }
        }

        /// Walks an object's members from its opening brace; `visit` is given each key with the scanner at its
        /// value, and returns whether it consumed the value (else it is skipped).
        mutating func members(_ visit: (String, inout Scanner) -> Bool) {
            i += 1
            while true {
                skipSpace()
                guard let c = peek else { return }
                if c == UInt8(ascii: "}") {
                    i += 1
                    return
                }
                if c == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard c == UInt8(ascii: "\"") else {
                    skipValue()
                    continue
                }
                let raw = skipString()
                let key = (try? JSONParser().parse([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]))?.string ?? ""
                skipSpace()
                if peek == UInt8(ascii: ":") { i += 1 }
                skipSpace()
                if !visit(key, &self) { skipValue() }
            }
        }
    }
}
