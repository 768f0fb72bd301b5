import EntityIndex
import JSON

/// The pipe methods an MCP client can call as tools, and how they are described.
///
/// Each tool has a snake_case verb_noun name (`search_entities` for the pipe's `search`), takes the method's params
/// (from `schema/pipe.schema.json`) as its `inputSchema` and returns the method's result as `structuredContent`.
/// Only the methods listed here are tools; each is keyed by its `Method`, so a tool always names a method the pipe
/// has (a renamed or removed method breaks the build, not a call).
struct MCPTool {
    let name: String
    let method: Method
    let title: String
    let destructive: Bool
    let idempotent: Bool

    static func read(_ name: String, _ method: Method, _ title: String) -> MCPTool {
        MCPTool(name: name, method: method, title: title, destructive: false, idempotent: true)
    }

    /// Whether the tool changes the index (its method does not only read): listed only with `--allow-writes`.
    var writes: Bool { !method.reads }

    static let catalog: [MCPTool] = [
        .read("search_entities", .search, "Search entities"),
        .read("get_entities", .get, "Get entities by id"),
        .read("suggest_entities", .suggest, "Suggested entities"),
        .read("list_entities", .all, "All entities of a type"),
        .read("query_entities", .query, "Query entities by property"),
        .read("get_related_entities", .related, "Related entities"),
        .read("complete_word", .complete, "Complete a word"),
        .read("spotlight_query", .spotlight, "Spotlight query"),
        .read("user_query", .userQuery, "User query"),
        .read("check_expectations", .test, "Check what searches must find"),
        .read("lint_records", .lint, "Check records before pushing"),
        .read("drill_reindex", .drill, "Reindex drill"),
        .read("list_declarations", .declarations, "Declared property types"),
        .read("index_stats", .stats, "Index statistics"),
        // Writes, listed only with --allow-writes. An ingest replaces entities of the same type and id.
        MCPTool(
            name: "ingest_records", method: .ingest, title: "Ingest records", destructive: true,
            idempotent: true),
        MCPTool(
            name: "delete_entities", method: .delete, title: "Delete entities", destructive: true,
            idempotent: true),
        MCPTool(
            name: "donate_interaction", method: .donate, title: "Donate an interaction",
            destructive: false, idempotent: false),
        MCPTool(
            name: "declare_type", method: .declare, title: "Declare a type's properties and text settings",
            destructive: false, idempotent: true),
    ]

    /// The tools a server offers: writes only when allowed.
    static func offered(allowWrites: Bool) -> [MCPTool] {
        catalog.filter { allowWrites || !$0.writes }
    }

    /// The tool's entry in `tools/list`, compact (`MCPTool+Schema.swift`); `details` is the whole of it.
    var definition: JSONValue {
        let entry = PipeSchema.method(method.rawValue) ?? JSONObject()
        var annotations = JSONObject([("readOnlyHint", .bool(!writes))])
        if writes {
            annotations["destructiveHint"] = .bool(destructive)
            annotations["idempotentHint"] = .bool(idempotent)
        }
        annotations["openWorldHint"] = false
        var tool = JSONObject([("name", .string(name)), ("title", .string(title))])
        tool["description"] = .string(entry["description"]?.string.map(Self.summary) ?? title)
        tool["inputSchema"] = Self.objectSchema(Self.compact(entry["params"] ?? [:]))
        tool["annotations"] = .object(annotations)
        return .object(tool)
    }

    /// MCP requires `"type": "object"` at the root of tool schemas.
    static func objectSchema(_ schema: JSONValue) -> JSONValue {
        guard case .object(var o) = schema else { return ["type": "object"] }
        if o["type"] == nil { o["type"] = "object" }
        return .object(o)
    }

    static let resourceTemplate: JSONValue = [
        "uriTemplate": "entityidx://entity/{type}/{id}",
        "name": "entity",
        "title": "An entity by type and id",
        "description":
            "One entity as it was ingested (the pipe's get), as JSON. Percent-encode / and other reserved characters in the type and id.",
        "mimeType": "application/json",
    ]

    /// The (type, id) of an `entityidx://entity/{type}/{id}` URI, percent-decoded; nil when it is not one.
    static func entityReference(_ uri: String) -> (type: String, id: String)? {
        let prefix = "entityidx://entity/"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let type = percentDecoded(parts[0]), let id = percentDecoded(parts[1]),
            !type.isEmpty, !id.isEmpty
        else { return nil }
        return (type, id)
    }

    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == 0x25 else { bytes.append(byte); continue }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
