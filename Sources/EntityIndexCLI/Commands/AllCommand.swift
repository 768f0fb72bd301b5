import EntityIndex
import JSON

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

    var params: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.isEmpty else { throw UsageError("all takes no arguments", usage: Self.spec.usage) }
        params = JSONObject([("type", .string(type))])
        if let limit = try arguments.int("limit", range: 0...EntityStore.maxResults, usage: Self.spec.usage) { params["limit"] = JSONValue(limit) }
        if let cursor = arguments.value("cursor") { params["cursor"] = .string(cursor) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("all", .object(params))
        context.emit(result) { result in
            Output.entities(result, in: context)
            if let next = result["nextCursor"]?.string { context.printError("more: --cursor \(next)") }
        }
        return 0
    }
}
