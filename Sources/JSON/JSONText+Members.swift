/// What to do with one member of an object when its members are selected.
public enum MemberChoice: Sendable {
    case drop
    /// The member as it is written.
    case keep
    /// The member's value, an object, cut to the keys the closure accepts; the member is dropped when none remains
    /// (or when the value is not an object).
    case select(@Sendable (String) -> Bool)
}

extension JSONText {
    /// The object with only the members `choice` keeps, or nil when the text is not an object.
    ///
    /// The kept members are copied as they are written: nothing is parsed but the keys and the extent of each
    /// value, and nothing kept is written again, so a selection costs a scan of the text and a copy of what is kept.
    public func selectingMembers(_ choice: (String) -> MemberChoice) -> JSONText? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = MemberScanner(bytes: buffer)
            guard let out = scanner.select(choice) else { return nil }
            scanner.skipSpace()
            return scanner.at == buffer.count ? JSONText(writerOutput: out) : nil
        }
    }
}

/// A scanner over JSON text known to be well formed (stored by the writer); it gives up (nil) on anything else.
private struct MemberScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func skipSpace() {
        while at < bytes.count, Self.isSpace(bytes[at]) { at += 1 }
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }

    /// The object at the current position with its members chosen, as bytes.
    mutating func select(_ choice: (String) -> MemberChoice) -> [UInt8]? {
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { return nil }
        var out: [UInt8] = []
        if at == 0 { out.reserveCapacity(bytes.count) }  // the record itself, not a member's object
        out.append(UInt8(ascii: "{"))
        at += 1
        var first = true
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return out + [UInt8(ascii: "}")]
        }
        while true {
            skipSpace()
            let keyStart = at
            guard let key = string() else { return nil }
            let keyEnd = at
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
            at += 1
            skipSpace()
            let valueStart = at
            /// Writes the member: its key as written, then its value.
            func write(_ value: UnsafeBufferPointer<UInt8>.SubSequence, to out: inout [UInt8]) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                // Appending a rebased buffer is one copy; a slice would be appended byte by byte.
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[keyStart..<keyEnd]))
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: value))
            }
            switch choice(key) {
            case .drop:
                guard skipValue() else { return nil }
            case .keep:
                guard skipValue() else { return nil }
                write(bytes[valueStart..<at], to: &out)
            case .select(let accepts):
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: "{") {
                    guard let inner = select({ accepts($0) ? .keep : .drop }) else { return nil }
                    if inner.count > 2 { inner.withUnsafeBufferPointer { write($0[...], to: &out) } }
                } else {
                    guard skipValue() else { return nil }
                }
            }
            skipSpace()
            guard at < bytes.count else { return nil }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "}") else { return nil }
            at += 1
            out.append(UInt8(ascii: "}"))
            return out
        }
    }

    /// Reads a string and returns its value (escapes decoded by the parser only when there are any).
    mutating func string() -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at
        at += 1
        var escaped = false
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"):
                escaped = true
                at += 2
            case UInt8(ascii: "\""):
                at += 1
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<at])
                if !escaped {
                    return String(decoding: UnsafeBufferPointer(rebasing: raw.dropFirst().dropLast()), as: UTF8.self)
                }
                return (try? JSONParser().parse(UnsafeRawBufferPointer(raw)))?.string
            default:
                at += 1
            }
        }
        return nil
    }

    /// Moves past one value: a string, an object or array (nested to any depth), or a scalar.
    mutating func skipValue() -> Bool {
        guard at < bytes.count else { return false }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let base = bytes.baseAddress else { return false }
            var i = at, depth = 0
            while i < bytes.count {
                let b = base[i]
                if b == UInt8(ascii: "\"") {
                    at = i
                    guard skipString() else { return false }
                    i = at
                    continue
                }
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    depth += 1
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 {
                        at = i + 1
                        return true
                    }
                }
                i += 1
            }
            return false
        default:
            let start = at
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || Self.isSpace(b) {
                    break
                }
                at += 1
            }
            return at > start
        }
    }

    /// Moves past a string without decoding it.
    mutating func skipString() -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var i = at + 1
        while i < bytes.count {
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                at = i + 1
                return true
            }
            i += b == UInt8(ascii: "\\") ? 2 : 1
        }
        return false
    }
}
