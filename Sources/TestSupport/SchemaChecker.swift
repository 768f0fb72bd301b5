import JSON

/// Checks JSON values against a JSON Schema: the subset our schemas use (type, properties, required,
/// additionalProperties, items, min/max length, items and properties, minimum, maximum, pattern, enum, const, oneOf,
/// anyOf, $ref into $defs). Returns the problems, empty when the value is valid.
public struct SchemaChecker {
    public let root: JSONValue

    public init(_ root: JSONValue) { self.root = root }

    public func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
        if case .encoded = value { return problems(value.decoded, schema, at: path) }
        guard case .object(let s) = schema else { return [] }
        if let ref = s["$ref"]?.string {
            var target = root
            for part in ref.dropFirst(2).split(separator: "/") { target = target[String(part)] ?? .null }
            return problems(value, target, at: path)
        }
        var found: [String] = []
        if let types = s["type"] {
            let allowed = types.array?.compactMap(\.string) ?? [types.string ?? ""]
            if !allowed.contains(where: { matches(value, type: $0) }) {
                return ["\(path): expected \(allowed.joined(separator: "|")), got \(value.typeName)"]
            }
        }
        if let e = s["enum"]?.array, !e.contains(value) { found.append("\(path): not one of the allowed values") }
        if let c = s["const"], c != value { found.append("\(path): must be \(JSONWriter.string(c))") }
        if let options = s["oneOf"]?.array {
            let n = options.filter { problems(value, $0, at: path).isEmpty }.count
            if n != 1 { found.append("\(path): matches \(n) of oneOf") }
        }
        if let options = s["anyOf"]?.array, !options.contains(where: { problems(value, $0, at: path).isEmpty }) {
            found.append("\(path): matches none of anyOf")
        }
        switch value {
        case .string(let text):
            let n = text.unicodeScalars.count
            if let min = s["minLength"]?.number?.int, n < min { found.append("\(path): shorter than \(min)") }
            if let max = s["maxLength"]?.number?.int, n > max { found.append("\(path): longer than \(max)") }
            if let pattern = s["pattern"]?.string, let regex = try? Regex(pattern),
                (try? regex.firstMatch(in: text)) == nil
            {
                found.append("\(path): does not match \(pattern)")
            }
        case .number(let number):
            if let min = s["minimum"]?.number?.double, number.double < min { found.append("\(path): below \(min)") }
            if let max = s["maximum"]?.number?.double, number.double > max { found.append("\(path): above \(max)") }
        case .array(let items):
            if let max = s["maxItems"]?.number?.int, items.count > max {
                found.append("\(path): more than \(max) items")
            }
            if let min = s["minItems"]?.number?.int, items.count < min {
                found.append("\(path): fewer than \(min) items")
            }
            if let itemSchema = s["items"] {
                for (i, item) in items.enumerated() { found += problems(item, itemSchema, at: "\(path)[\(i)]") }
            }
        case .object(let object):
            for key in s["required"]?.array?.compactMap(\.string) ?? [] where object[key] == nil {
                found.append("\(path): missing \(key)")
            }
            if let max = s["maxProperties"]?.number?.int, object.count > max {
                found.append("\(path): more than \(max) properties")
            }
            let declared = s["properties"]?.object ?? JSONObject()
            for (key, v) in object {
                if let p = declared[key] {
                    found += problems(v, p, at: "\(path).\(key)")
                } else if let extra = s["additionalProperties"] {
                    if extra == .bool(false) {
                        found.append("\(path): unexpected \(key)")
                    } else {
                        found += problems(v, extra, at: "\(path).\(key)")
                    }
                }
            }
        default:
            break
        }
        return found
    }

    func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            return true
        case ("integer", .number(let n)): return n.double == n.double.rounded()
        default: return false
        }
    }
}
