import JSON

/// The two forms of a tool's schemas: compact in `tools/list`, whole in the tool's resource.
///
/// Every tool's entry in `tools/list` goes into an assistant's context, so it carries what a call needs: each
/// parameter's type, enum, default, bounds and the first sentence of its description (the summary), examples only
/// where the shape is not obvious (an array or an object that its schema's `items` does not already spell out). The
/// checks a call meets anyway (patterns, lengths, formats, `additionalProperties: false`: an unknown parameter is an
/// error naming the known ones), the rest of each description and the result's schema are in the tool's resource,
/// `entityidx://tool/{name}`, and in the pipe's OpenRPC document.
extension MCPTool {
    /// Keywords left out of `tools/list`: the server checks them and says what is wrong.
    static let checkedKeywords: Set<String> = [
        "pattern", "minLength", "maxLength", "minItems", "maxProperties", "format", "title", "$comment",
    ]

    /// The record schema in `tools/list`: its required fields, and the others named (their types in the resource).
    static let compactRecord: JSONValue = [
        "type": "object", "required": ["type", "id", "title"],
        "description":
            "An entity record: type, id (string or integer) and title; optional subtitle, synonyms, keywords, description, properties (name: value), domain, related ([{type, id}]), rankingHint (0-100), priority, lastUsedAt, expiresAt, hidden, url, image.",
    ]

    /// `schema` (a pipe params schema) with its references resolved, in the compact form of `tools/list`.
    static func compact(_ schema: JSONValue) -> JSONValue {
        guard case .object(let o) = schema else {
            if case .array(let items) = schema { return .array(items.map(compact)) }
            return schema
        }
        if let ref = o["$ref"]?.string, let name = PipeSchema.definitionName(ref) {
            let target = name == "record" ? compactRecord : PipeSchema.definition(name)
            guard case .object(var t) = target else { return compact(target) }
            for (key, value) in o where key != "$ref" { t[key] = value }
            return compact(.object(t))
        }
        var result = JSONObject()
        for (key, value) in o where !checkedKeywords.contains(key) {
            switch key {
            case "description":
                result[key] = value.string.map { .string(summary($0)) } ?? value
            case "additionalProperties" where value == false:
                continue
            case "examples":
                guard value.array?.contains(where: { $0.array != nil || $0.object != nil }) == true,
                    !itemsSpellOut(o, value)
                else { continue }
                result[key] = value
            case "properties":
                result[key] = .object(JSONObject((value.object ?? JSONObject()).map { ($0.key, compact($0.value)) }))
            default:
                result[key] = compact(value)
            }
        }
        return merged(result)
    }

    /// Whether the examples show nothing the schema's `items` does not say: arrays of plain values of the one type
    /// its items have (`["title", "properties.total"]` for an array of strings).
    static func itemsSpellOut(_ schema: JSONObject, _ examples: JSONValue) -> Bool {
        guard let type = schema["items"]?["type"]?.string, ["string", "number", "integer", "boolean"].contains(type)
        else { return false }
        return (examples.array ?? []).allSatisfy { example in
            example.object == nil && (example.array?.allSatisfy { $0.array == nil && $0.object == nil } ?? true)
        }
    }

    /// The first sentence of a description: up to the first full stop followed by a space, or all of it.
    static func summary(_ text: String) -> String {
        var previous: Character = " "
        for index in text.indices {
            let c = text[index]
            if c == " ", previous == "." { return String(text[..<text.index(before: index)]) + "." }
            previous = c
        }
        return text
    }

    /// `anyOf` of a plain type and an array of it (a type or several) as one `type` with `items`.
    static func merged(_ schema: JSONObject) -> JSONValue {
        guard let branches = schema["anyOf"]?.array, branches.count == 2,
            let single = branches[0].object, single.keys == ["type"], let type = single["type"]?.string,
            let many = branches[1].object, many.keys == ["type", "items"], many["type"] == "array",
            many["items"] == .object(single)
        else { return .object(schema) }
        var result = JSONObject([("type", [.string(type), "array"]), ("items", .object(single))])
        for (key, value) in schema where key != "anyOf" { result[key] = value }
        return .object(result)
    }

    // MARK: - The tool's resource

    /// `entityidx://tool/{name}`: the tool's whole description and schemas.
    static let toolResourceTemplate: JSONValue = [
        "uriTemplate": "entityidx://tool/{name}",
        "name": "tool",
        "title": "A tool's whole description and schemas",
        "description":
            "A tool's description, inputSchema and outputSchema in full (what tools/list shortens: every sentence of each description, patterns and lengths), as JSON.",
        "mimeType": "application/json",
    ]

    /// The name of an `entityidx://tool/{name}` URI, nil when it is not one.
    static func toolReference(_ uri: String) -> String? {
        let prefix = "entityidx://tool/"
        guard uri.hasPrefix(prefix) else { return nil }
        let name = String(uri.dropFirst(prefix.count))
        return name.isEmpty || name.contains("/") ? nil : name
    }

    /// The tool's resource: its description, and the method's params and result with references resolved.
    var details: JSONValue {
        let entry = PipeSchema.method(method.rawValue) ?? JSONObject()
        var tool = JSONObject([("name", .string(name)), ("title", .string(title))])
        tool["description"] = entry["description"] ?? .string(title)
        tool["inputSchema"] = Self.objectSchema(PipeSchema.inlined(entry["params"] ?? [:]))
        tool["outputSchema"] = Self.objectSchema(PipeSchema.inlined(entry["result"] ?? [:]))
        return .object(tool)
    }
}
