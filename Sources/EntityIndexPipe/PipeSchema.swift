import JSON

/// The pipe's JSON Schema (`schema/pipe.schema.json`) and the record schema, embedded in the binary.
///
/// The OpenRPC document (`rpc.discover`) and the MCP tools are built from these, so neither can drift from the
/// schema the pipe is tested against. `$defs.record` stands for the whole record schema.
public enum PipeSchema {
    /// The name and version this server reports (OpenRPC `info`, MCP `serverInfo`).
    public static let serverName = "entityidx"
    public static let serverVersion = "0.1.0"

    public static let pipe: JSONValue = parse(pipeText)
    public static let record: JSONValue = {
        guard case .object(var o) = parse(recordText) else { return ["type": "object"] }
        o["$schema"] = nil
        o["$id"] = nil
        return .object(o)
    }()

    /// The schema entry of a method (`description`, `params`, `result`), nil when the schema has none.
    public static func method(_ name: String) -> JSONObject? { pipe["methods"]?[name]?.object }

    /// `schema` with every `#/$defs/…` reference replaced by its definition (and `record` by the record schema).
    ///
    /// The definitions are not recursive, so this ends; the result stands alone, as an MCP tool schema must.
    public static func inlined(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(let o):
            if let ref = o["$ref"]?.string, let name = definitionName(ref) {
                var target = definition(name)
                // Keywords beside the reference (a description) stay.
                if case .object(var t) = target {
                    for (key, value) in o where key != "$ref" { t[key] = value }
                    target = .object(t)
                }
                return inlined(target)
            }
            return .object(JSONObject(o.map { (key: $0.key, value: inlined($0.value)) }))
        case .array(let items):
            return .array(items.map(inlined))
        default:
            return schema
        }
    }

    /// `schema` with `#/$defs/X` references rewritten by `rename`.
    static func rewritingReferences(_ schema: JSONValue, _ rename: (String) -> String) -> JSONValue {
        switch schema {
        case .object(let o):
            return .object(
                JSONObject(
                    o.map { pair in
                        if pair.key == "$ref", let ref = pair.value.string, let name = definitionName(ref) {
                            return (key: pair.key, value: .string(rename(name)))
                        }
                        return (key: pair.key, value: rewritingReferences(pair.value, rename))
                    }))
        case .array(let items):
            return .array(items.map { rewritingReferences($0, rename) })
        default:
            return schema
        }
    }

    static func definitionName(_ ref: String) -> String? {
        ref.hasPrefix("#/$defs/") ? String(ref.dropFirst("#/$defs/".count)) : nil
    }

    static func definition(_ name: String) -> JSONValue {
        name == "record" ? record : (pipe["$defs"]?[name] ?? [:])
    }

    private static func parse(_ text: String) -> JSONValue {
        // The text is the checked-in schema (PipeSchemaTests parse it too); an empty object keeps the server up.
        (try? JSONParser().parse(Array(text.utf8))) ?? [:]
    }
}
