import EntityIndex
import JSON

/// `entityidx complete TEXT`: completions of the word being typed.
struct CompleteCommand: Command {
    static let spec = CommandSpec(
        name: "complete", abstract: "Complete the last word being typed from the index vocabulary",
        usage: "entityidx complete TEXT… [--limit N] [--json]",
        options: [("limit=", "at most N completions (default 8)")],
        discussion: "Completions are normalized index terms, most frequent first (FTS5's vocabulary).")

    var params: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing TEXT", usage: Self.spec.usage) }
        params = JSONObject([("prefix", .string(arguments.positionals.joined(separator: " ")))])
        if let limit = try arguments.int("limit", range: 0...EntityStore.maxResults, usage: Self.spec.usage) { params["limit"] = JSONValue(limit) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("complete", .object(params))
        context.emit(result) { r in
            Output.table((r["completions"]?.array ?? []).map { [$0["term"]?.string ?? "", Output.display($0["documents"] ?? 0)] }, in: context)
        }
        return 0
    }
}
