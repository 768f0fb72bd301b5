/// A JSON value that keeps object key order and the literal text of numbers.
///
/// entityidx returns records exactly as they were pushed, so numbers are kept as written (`9.50` stays `9.50`)
/// and keys keep their order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
    /// A value already written as JSON text by `JSONWriter` (a stored record), passed to the output as it is.
    ///
    /// Results are written from the stored bytes instead of being parsed and written again; a reader that looks
    /// inside one (`object`, `decoded`, a subscript) parses it then.
    case encoded(JSONText)

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var number: JSONNumber? { if case .number(let n) = self { return n }; return nil }
    public var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var object: JSONObject? {
        switch self {
        case .object(let o): return o
        case .encoded: return decoded.object
        default: return nil
        }
    }
    /// The value itself, with JSON text parsed (an `encoded` text that does not parse, which only damaged storage
    /// gives, is null).
    public var decoded: JSONValue {
        guard case .encoded(let text) = self else { return self }
        return (try? JSONParser().parse(text.bytes)) ?? .null
    }
    public var isNull: Bool { if case .null = self { return true }; return false }

    /// The JSON type name, for error messages ("expected a string, got a number").
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .encoded: return decoded.typeName
        }
    }

    public subscript(key: String) -> JSONValue? { object?[key] }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        case (.encoded(let x), .encoded(let y)) where x == y: return true
        case (.encoded, _), (_, .encoded):
            let (x, y) = (a.decoded, b.decoded)
            if case .encoded = x { return false }
            if case .encoded = y { return false }
            return x == y
        default: return false
        }
    }
}

/// JSON text as `JSONWriter` writes it (compact, keys in order), kept as bytes.
public struct JSONText: Sendable, Equatable {
    public let bytes: [UInt8]

    /// Bytes that hold one JSON value as the writer wrote it; the caller vouches for them (they are not checked).
    public init(writerOutput bytes: [UInt8]) { self.bytes = bytes }
}

/// A JSON number: its literal text and its value as a Double.
public struct JSONNumber: Sendable, Equatable, CustomStringConvertible {
    public let text: String
    public let double: Double

    public init(text: String, double: Double) {
        self.text = text
        self.double = double
    }

    public init(_ value: Int) {
        text = String(value)
        double = Double(value)
    }

    public init(_ value: Int64) {
        text = String(value)
        double = Double(value)
    }

    /// A finite Double; non-finite values become 0 (JSON has no NaN or infinity).
    public init(_ value: Double) {
        let v = value.isFinite ? value : 0
        if v == v.rounded(), abs(v) < 1e15 { text = String(Int64(v)) } else { text = "\(v)" }
        double = v
    }

    /// The value as an integer when the literal is one (no fraction, no exponent) and fits in 64 bits.
    public var int: Int64? {
        if let v = Int64(text) { return v }
        if double == double.rounded(), abs(double) < 9.0e15 { return Int64(double) }
        return nil
    }

    public var isIntegerLiteral: Bool { Int64(text) != nil }

    public var description: String { text }

    public static func == (a: JSONNumber, b: JSONNumber) -> Bool { a.text == b.text }
}

/// A JSON object that keeps its keys in order.
public struct JSONObject: Sendable, Equatable, Sequence {
    public private(set) var pairs: [(key: String, value: JSONValue)]

    public init(_ pairs: [(key: String, value: JSONValue)] = []) { self.pairs = pairs }

    public var count: Int { pairs.count }
    public var isEmpty: Bool { pairs.isEmpty }
    public var keys: [String] { pairs.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
        set {
            if let index = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[index].value = newValue } else { pairs.remove(at: index) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { pairs.makeIterator() }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

extension JSONValue {
    public init(_ value: Int) { self = .number(JSONNumber(value)) }
    public init(_ value: Double) { self = .number(JSONNumber(value)) }
    public init(_ value: String?) { self = value.map { .string($0) } ?? .null }
}
