import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx query --type T --filter …`: a property query (`EntityPropertyQuery`).
struct QueryCommand: Command {
    static let spec = CommandSpec(
        name: "query", abstract: "Find entities by their properties: filters, and/or, sort, limit",
        usage:
            "entityidx query --type T… [--filter 'PROP OP VALUE']… [--or] [--sort PROP[:desc]]… [--limit N] [--facet NAME]… [--fields F,…] [--json]",
        options: [
            ("type=", "the entity type (required; repeatable: their union)"),
            (
                "filter=",
                "e.g. 'total ge 10', 'status eq shipped', 'placedAt between [\"2026-01-01T00:00:00Z\",\"2026-02-01T00:00:00Z\"]'"
            ),
            ("or", "match any filter instead of all"),
            ("sort=", "sort key, PROP or PROP:desc (repeatable, first is primary)"),
            ("limit=", "at most N results (default: all, up to 10000 a page)"),
            ("cursor=", "continue at this cursor (the nextCursor of the previous page)"),
            CommandSpec.facetOption,
            CommandSpec.fieldsOption,
        ],
        discussion: """
            Operators: eq ne lt le gt ge between hasPrefix hasSuffix contains notContains. Numbers compare
            numerically, dates chronologically, strings ignoring case, width and accents; contains on an array means
            "has an element". The value is read as JSON when it parses, else as a string. The properties filtered
            or sorted on are shown beside the title. Without --limit, a result longer than 10000 stops there and says
            how to continue (nextCursor with --json).
            """, repeatable: ["type", "filter", "sort", "facet"])

    var request: PropertyQueryRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let types = arguments.all("type")
        guard !types.isEmpty else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.isEmpty else {
            throw UsageError("query takes no arguments (use --filter)", usage: Self.spec.usage)
        }
        let filters = try arguments.all("filter").map { text throws(UsageError) in
            try FilterSyntax.parse(text, usage: Self.spec.usage)
        }
        let sort = arguments.all("sort").map { key in
            let parts = key.split(separator: ":", maxSplits: 1)
            return PropertySort(
                property: String(parts.first ?? ""), descending: parts.count == 2 && parts[1].lowercased() == "desc")
        }
        request = PropertyQueryRequest(
            types: types, filters: filters, mode: arguments.flag("or") ? .or : .and, sort: sort,
            limit: try arguments.limit(usage: Self.spec.usage), cursor: arguments.value("cursor"))
        request.fields = try arguments.fields(usage: Self.spec.usage)
        request.facets = arguments.all("facet")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: request.types)
        var shown: [String] = []
        for name in request.filters.map(\.property) + request.sort.map(\.property) where !shown.contains(name) {
            shown.append(name)
        }
        try context.run(request) { page in
            Output.entities(
                page.entities, in: context, header: ["entity", "title"] + shown + ["subtitle"], fields: request.fields
            ) { e in
                shown.map { name in
                    e.record["properties"]?[name].map { Output.cell(Output.display($0), 30, in: context) } ?? ""
                }
            }
            Output.facets(page.facets, in: context)
            if let next = page.nextCursor {
                context.printError(
                    "more than \(Output.count(page.entities.count, "result", "results")): continue with --cursor \(next)"
                )
            }
        }
        return 0
    }
}
