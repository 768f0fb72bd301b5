import EntityIndex
import JSON

/// `entityidx declare --type T NAME:KIND…`: property types for a type.
struct DeclareCommand: Command {
    static let spec = CommandSpec(
        name: "declare", abstract: "Declare property types of an entity type (or list declarations)",
        usage: "entityidx declare [--type T NAME:KIND[:unsortable][@indexingKey]…] [--json]",
        options: [("type=", "the entity type to declare properties for")],
        discussion: """
            KIND is string, number, integer, boolean, date or strings. A date declared as such compares
            chronologically even when stored as an ISO string. @indexingKey names the Spotlight attribute the property
            is indexed as (displayName, alternateNames, keywords, contentDescription, … or a custom key), which sets
            its search weight. Example: entityidx declare --type order placedAt:date total:number note:string@contentDescription
            Without --type, lists the declarations.
            """)

    var params: JSONObject?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else {
            guard arguments.positionals.isEmpty else { throw UsageError("declaring needs --type", usage: Self.spec.usage) }
            params = nil
            return
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("missing NAME:KIND", usage: Self.spec.usage) }
        var properties: [JSONValue] = []
        for spec in arguments.positionals {
            var text = Substring(spec)
            var key: String?
            if let at = text.firstIndex(of: "@") {
                key = String(text[text.index(after: at)...])
                text = text[..<at]
            }
            let parts = text.split(separator: ":")
            guard parts.count == 2 || (parts.count == 3 && parts[2] == "unsortable") else {
                throw UsageError("expected NAME:KIND[:unsortable][@indexingKey], got \"\(spec)\"", usage: Self.spec.usage)
            }
            var o = JSONObject([("name", .string(String(parts[0]))), ("kind", .string(String(parts[1])))])
            if parts.count == 3 { o["sortable"] = false }
            if let key { o["indexingKey"] = .string(key) }
            properties.append(.object(o))
        }
        params = JSONObject([("type", .string(type)), ("properties", .array(properties))])
    }

    func run(_ context: CommandContext) throws -> Int32 {
        guard let params else {
            let result = try context.call("declarations", [:])
            context.emit(result) { r in
                for (type, list) in r["types"]?.object ?? JSONObject() {
                    for d in list.array ?? [] {
                        context.print("\(type).\(d["name"]?.string ?? "")  \(d["kind"]?.string ?? "")\(d["sortable"] == .bool(false) ? " unsortable" : "")\(d["indexingKey"]?.string.map { " @" + $0 } ?? "")")
                    }
                }
            }
            return 0
        }
        let result = try context.call("declare", .object(params))
        context.emit(result) { context.print("declared \(Output.display($0["declared"] ?? 0)) properties") }
        return 0
    }
}
