import EntityIndex
import EntityIndexPipe

/// `entityidx all --type T`: every entity of a type, a page at a time (`allEntities()`).
struct AllCommand: Command {
    static let spec = CommandSpec(
        name: "all", abstract: "List every entity of a type, ordered by id, a page at a time",
        usage: "entityidx all --type T [--limit N] [--cursor C] [--json]",
        options: [
            ("type=", "the entity type (required)"), ("limit=", "page size (default 100)"),
            ("cursor=", "continue after this cursor (the nextCursor of the previous page)"),
        ],
        discussion: "Paging is by id: entities added between pages are neither skipped nor repeated.")

    var request: AllRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.isEmpty else { throw UsageError("all takes no arguments", usage: Self.spec.usage) }
        request = AllRequest(type: type, cursor: arguments.value("cursor"))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(type: request.type)
        try context.run(request) { page in
            Output.entities(page.entities, in: context)
            if let next = page.nextCursor { context.printError("more: --cursor \(next)") }
        }
        return 0
    }
}
