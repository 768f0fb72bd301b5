import EntityIndex
import EntityIndexPipe

/// `entityidx complete TEXT`: completions of the word being typed.
struct CompleteCommand: Command {
    static let spec = CommandSpec(
        name: "complete", abstract: "Complete the last word being typed, as the records write it",
        usage: "entityidx complete TEXT… [--limit N] [--json]",
        options: [("limit=", "at most N completions (default 8)")],
        discussion: """
            Completions are words as the records write them (Kaffeemühle for kaff), most frequent first. With words
            before the last, only entities that match them count (call j completes among the entities matching
            call), the first 1,000 of them.
            """,
        literalExample: "complete -- -caf")

    var request: CompleteRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing TEXT", usage: Self.spec.usage) }
        request = CompleteRequest(prefix: arguments.positionals.joined(separator: " "))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(request) { completions in
            guard !completions.isEmpty else {
                if context.stderrIsTerminal { context.printError("no completions") }
                return
            }
            Output.table(
                [["completion", "documents"]] + completions.map { [$0.term, Output.number($0.documents)] }, in: context)
        }
        return 0
    }
}
