import EntityIndex
import JSON

/// `entityidx query --type T --filter …`: a property query (`EntityPropertyQuery`).
struct QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query", abstract: "Find entities by their properties: filters, and/or, sort, limit",
        usage: "entityidx query --type T [--filter 'PROP OP VALUE']… [--or] [--sort PROP[:desc]]… [--limit N] [--json]",
        options: [
            ("type=", "the entity type (required)"),
            ("filter=", "e.g. 'total ge 10', 'status eq shipped', 'placedAt between [\"2026-01-01T00:00:00Z\",\"2026-02-01T00:00:00Z\"]'"),
            ("or", "match any filter instead of all"),
            ("sort=", "sort key, PROP or PROP:desc (repeatable, first is primary)"),
            ("limit=", "at most N results (default: all)"),
        ],
        discussion: """
            Operators: eq ne lt le gt ge between hasPrefix hasSuffix contains notContains. Numbers compare
            numerically, dates chronologically, strings ignoring case, width and accents; contains on an array means
            "has an element". The value is read as JSON when it parses, else as a string.
            """)

    var params: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.isEmpty else { throw UsageError("query takes no arguments (use --filter)", usage: Self.spec.usage) }
        params = JSONObject([("type", .string(type))])
        params["filters"] = .array(try arguments.all("filter").map { text throws(UsageError) in try FilterSyntax.parse(text, usage: Self.spec.usage) })
        if arguments.flag("or") { params["mode"] = "or" }
        let sort: [JSONValue] = arguments.all("sort").map { key in
            let parts = key.split(separator: ":", maxSplits: 1)
            let order = parts.count == 2 && parts[1].lowercased() == "desc" ? "desc" : "asc"
            return ["property": .string(String(parts.first ?? "")), "order": .string(order)]
        }
        if !sort.isEmpty { params["sort"] = .array(sort) }
        if let limit = try arguments.int("limit", range: 0...EntityStore.maxResults, usage: Self.spec.usage) { params["limit"] = JSONValue(limit) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("query", .object(params))
        context.emit(result) { Output.entities($0, in: context) }
        return 0
    }
}
