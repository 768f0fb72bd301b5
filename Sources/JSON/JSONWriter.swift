/// Serializes JSON values to compact UTF-8.
///
/// Numbers are written as their literal text; strings keep non-ASCII characters as UTF-8 and escape only what
/// JSON requires.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Asked every 4,096 values, with the bytes written so far; once it says true, writing stops (`stopped`) and
    /// `bytes` is left incomplete.
    public var shouldStop: ((Int) -> Bool)?
    public private(set) var stopped = false
    private var values = 0

    public init(capacity: Int = 256, shouldStop: ((Int) -> Bool)? = nil) {
        bytes.reserveCapacity(capacity)
        self.shouldStop = shouldStop
    }

    public static func encode(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }

    public mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    public mutating func write(_ value: JSONValue) {
        if let shouldStop {
            if stopped { return }
            values += 1
            if values & 4095 == 0, shouldStop(bytes.count) {
                stopped = true
                return
            }
        }
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .number(let n): bytes.append(contentsOf: n.text.utf8)
        case .string(let s): write(string: s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (i, pair) in object.pairs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(string: pair.key)
                bytes.append(UInt8(ascii: ":"))
                write(pair.value)
            }
            bytes.append(UInt8(ascii: "}"))
        case .encoded(let text): bytes.append(contentsOf: text.bytes)
        }
    }

    public mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    public mutating func appendRaw(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    public mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = string
        text.withUTF8 { utf8 in
            var runStart = 0
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else {
                    i += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                i += 1
                runStart = i
                switch byte {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)],
                    ])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
