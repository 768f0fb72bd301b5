import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx user-query TEXT`: what a search field shows as the user types (`CSUserQuery`).
struct UserQueryCommand: Command {
    static let spec = CommandSpec(
        name: "user-query", abstract: "Search as typed: items and suggestions (CSUserQuery)",
        usage:
            "entityidx user-query TEXT… [--max-items N] [--max-suggestions N] [--matching M] [--fields F,…] [--json]",
        options: [
            ("max-items=", "at most N items (default \(UserQueryRequest.defaultMaxItems))"),
            ("max-suggestions=", "at most N suggestions (default \(UserQueryRequest.defaultMaxSuggestions))"),
            ("matching=", "frequency (default) or last: fewer words when fewer items match them all; all: every word"),
            CommandSpec.fieldsOption,
        ],
        discussion: """
            Items are the search results for the text as typed, best first (as entityidx search --matching
            frequency: when fewer than the most items match every word, the most frequent words are left out one
            at a time, and what fewer words find follows). Suggestions are
            titles, synonyms and keywords that complete the whole typed string: those that start with it, then
            those with a later word that starts with it; names more entities share rank first. Hidden and expired
            entities give neither.
            """, literalExample: "user-query -- -cafe")

    var request: UserQueryRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing TEXT", usage: Self.spec.usage) }
        request = UserQueryRequest(query: arguments.positionals.joined(separator: " "))
        if let n = try arguments.int("max-items", range: 0...EntityStore.maxResults, usage: Self.spec.usage) {
            request.maxItems = n
        }
        if let n = try arguments.int(
            "max-suggestions", range: 0...UserQueryRequest.maxSuggestionsLimit, usage: Self.spec.usage)
        {
            request.maxSuggestions = n
        }
        if let matching = try SearchCommand.matching(arguments, usage: Self.spec.usage) { request.matching = matching }
        request.fields = try arguments.fields(usage: Self.spec.usage)
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(request) { result in
            if !result.suggestions.isEmpty {
                context.print("Suggestions:")
                for s in result.suggestions { context.print("  " + s.text) }
                context.print("Items:")
            }
            Output.entities(result.items, in: context, numbered: true, fields: request.fields)
        }
        return 0
    }
}
