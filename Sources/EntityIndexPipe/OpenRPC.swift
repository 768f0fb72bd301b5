import EntityIndex
import JSON

/// The OpenRPC document of the pipe, the answer to `rpc.discover` (https://spec.open-rpc.org).
///
/// Built from the method list and the embedded `schema/pipe.schema.json`: each method's params become by-name
/// content descriptors in schema order, its result the result descriptor, and the schema's `$defs` (with the record
/// schema) the `components.schemas`. `schema/openrpc.json` is this document, checked by a test.
public enum OpenRPC {
    public static let specVersion = "1.3.2"

    public static let document: JSONValue = build()

    /// The errors every method can answer with (the contract's codes; `data.code` is a stable string).
    static let errors: [JSONValue] = [
        [
            "code": -32602,
            "message":
                "Invalid params: a parameter or a record is missing, of the wrong type or unknown; data.code is invalid_params or invalid_record and data.records names each bad record",
        ],
        [
            "code": -32000,
            "message":
                "The request could not be carried out: data.code is not_found, mismatched_client_state, storage_error, …",
        ],
    ]

    static func build() -> JSONValue {
        var methods: [JSONValue] = []
        for name in RequestHandler.methods {
            let entry = PipeSchema.method(name) ?? JSONObject()
            var method = JSONObject([("name", .string(name))])
            if let description = entry["description"] { method["description"] = description }
            method["paramStructure"] = "by-name"
            method["params"] = .array(params(entry["params"] ?? [:]))
            method["result"] = ["name": .string("\(name) result"), "schema": components(entry["result"] ?? [:])]
            method["errors"] = .array(errors)
            methods.append(.object(method))
        }
        var schemas = JSONObject()
        for (name, _) in PipeSchema.pipe["$defs"]?.object ?? JSONObject()
        where !["request", "response", "id"].contains(name) {
            schemas[name] = components(PipeSchema.definition(name))
        }
        return [
            "openrpc": .string(specVersion),
            "info": [
                "title": "entityidx pipe",
                "description":
                    "A Spotlight-style entity index (App Intents semantics) over JSON-RPC 2.0 on stdin/stdout: one message per line, or LSP Content-Length framing detected from the first bytes. The same methods back `entityidx mcp`.",
                "version": .string(PipeSchema.serverVersion),
            ],
            "methods": .array(methods),
            "components": ["schemas": .object(schemas)],
        ]
    }

    /// One by-name content descriptor per property of a params schema, in schema order, with its description.
    static func params(_ schema: JSONValue) -> [JSONValue] {
        var object = schema
        if let ref = schema["$ref"]?.string, let name = PipeSchema.definitionName(ref) {
            object = PipeSchema.definition(name)
        }
        let required = Set(object["required"]?.array?.compactMap(\.string) ?? [])
        return (object["properties"]?.object ?? JSONObject()).map { pair in
            var descriptor = JSONObject([("name", .string(pair.key))])
            if let description = pair.value["description"] { descriptor["description"] = description }
            descriptor["required"] = .bool(required.contains(pair.key))
            descriptor["schema"] = components(pair.value)
            return .object(descriptor)
        }
    }

    static func components(_ schema: JSONValue) -> JSONValue {
        PipeSchema.rewritingReferences(schema) { "#/components/schemas/\($0)" }
    }
}

/// `rpc.discover`: the OpenRPC document (the service discovery method of the OpenRPC specification).
public struct DiscoverMethod: PipeMethod {
    public static let method = Method.rpcDiscover
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) -> JSONValue { OpenRPC.document }
    public static func encode(_ result: JSONValue) -> JSONValue { result }
}
