import EntityIndex
import EntityIndexPipe

/// `entityidx suggest`: what the system would offer before the user types (`suggestedEntities()`).
struct SuggestCommand: Command {
    static let spec = CommandSpec(
        name: "suggest", abstract: "Suggested entities: by priority, donations, recent use and ranking hint",
        usage: "entityidx suggest [--type T]… [--limit N] [--fields F,…] [--json]",
        options: [
            ("type=", "only entities of this type \(SearchCommand.union)"), ("limit=", "at most N (default 10)"),
            CommandSpec.fieldsOption,
        ],
        discussion: "Hidden and expired entities are never suggested. See the README for the scoring.",
        repeatable: ["type"])

    var request: SuggestRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("suggest takes no arguments", usage: Self.spec.usage)
        }
        request = SuggestRequest(types: arguments.all("type"))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
        request.fields = try arguments.fields(usage: Self.spec.usage)
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: request.types)
        try context.run(request) { results in
            // Why each is suggested: the tiers of the order, first to last.
            let header = ["entity", "title", "priority", "engagement", "rankingHint", "lastUsedAt", "subtitle"]
            Output.entities(results, in: context, numbered: true, header: header, fields: request.fields) { e in
                [
                    e.record["priority"].map(Output.display) ?? "", e.engagement.map(Output.decimal) ?? "",
                    e.record["rankingHint"].map(Output.display) ?? "", e.record["lastUsedAt"].map(Output.display) ?? "",
                ]
            }
        }
        return 0
    }
}
