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

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var number: JSONNumber? { if case .number(let n) = self { return n }; return nil }
    public var array: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    public var object: JSONObject? { if case .object(let o) = self { return o }; return nil }
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
        }
    }

    public subscript(key: String) -> JSONValue? { object?[key] }
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
