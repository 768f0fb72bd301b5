import EntityIndex
import EntityIndexPipe

/// `entityidx state`: the client state of the last committed batch.
struct StateCommand: Command {
    static let spec = CommandSpec(
        name: "state", abstract: "Show the client state committed with the last batch (null when none)",
        usage: "entityidx state [--json]", options: [],
        discussion: "An app resumes from this after a crash, like CSSearchableIndex.fetchLastClientState.")

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("state takes no arguments", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(StateMethod()) { context.print($0 ?? "null") }
        return 0
    }
}
