import EntityIndex
import EntityIndexPipe

/// `entityidx all --type T`: every entity of a type, a page at a time (`allEntities()`).
struct AllCommand: Command {
    static let spec = CommandSpec(
        name: "all", abstract: "List every entity of a type, ordered by id, a page at a time",
        usage: "entityidx all --type T… [--limit N] [--cursor C] [--facet NAME]… [--fields F,…] [--json]",
        options: [
            ("type=", "the entity type (required; repeatable: their union, type by type)"),
            ("limit=", "page size (default 100)"),
            ("cursor=", "continue after this cursor (the nextCursor of the previous page)"),
            CommandSpec.facetOption,
            CommandSpec.fieldsOption,
        ],
        discussion: """
            Paging is by id: entities added between pages are neither skipped nor repeated. Several types are
            listed type by type (in byte order), and the cursor is then the last entity's TYPE/ID.
            """, repeatable: ["type", "facet"])

    var request: AllRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let types = arguments.all("type")
        guard !types.isEmpty else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.isEmpty else { throw UsageError("all takes no arguments", usage: Self.spec.usage) }
        request = AllRequest(types: types, cursor: arguments.value("cursor"))
        request.fields = try arguments.fields(usage: Self.spec.usage)
        request.facets = arguments.all("facet")
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: request.types)
        try context.run(request) { page in
            Output.entities(page.entities, in: context, fields: request.fields)
            Output.facets(page.facets, in: context)
            if let next = page.nextCursor { context.printError("more: --cursor \(next)") }
        }
        return 0
    }
}
