import EntityIndex
import JSON

/// `entityidx suggest`: what the system would offer before the user types (`suggestedEntities()`).
struct SuggestCommand: Command {
    static let spec = CommandSpec(
        name: "suggest", abstract: "Suggested entities: by priority, donations, recent use and ranking hint",
        usage: "entityidx suggest [--type T] [--limit N] [--json]",
        options: [("type=", "only entities of this type"), ("limit=", "at most N (default 10)")],
        discussion: "Hidden and expired entities are never suggested. See the README for the scoring.")

    var params = JSONObject()

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("suggest takes no arguments", usage: Self.spec.usage) }
        if let type = arguments.value("type") { params["type"] = .string(type) }
        if let limit = try arguments.int("limit", range: 0...EntityStore.maxResults, usage: Self.spec.usage) { params["limit"] = JSONValue(limit) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("suggest", .object(params))
        context.emit(result) { Output.entities($0, in: context, extra: ["engagement"], numbered: true) }
        return 0
    }
}
