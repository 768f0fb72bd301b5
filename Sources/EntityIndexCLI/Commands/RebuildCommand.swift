import EntityIndex
import JSON

/// `entityidx rebuild`: rebuilds the search index now when another version of entityidx made it.
struct RebuildCommand: Command {
    static let spec = CommandSpec(
        name: "rebuild", abstract: "Rebuild the search index for this version of entityidx, if it is older",
        usage: "entityidx rebuild [--json]", options: [],
        discussion: """
            A database indexed by another version of the text pipeline is still searched, with a warning, and is
            rebuilt by its first write; this command does that rebuild at a time of your choosing. Opening a database
            never rebuilds it for a read. Several processes may run it at once: the first rebuilds, the others find
            it done.
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("rebuild takes no arguments", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let store = try context.store()
        let rebuilt = try store.rebuild()
        if context.json {
            context.print(JSONWriter.string(["rebuilt": .bool(rebuilt)]))
        } else {
            context.print(rebuilt ? "rebuilt the search index" : "the search index is up to date; nothing to do")
        }
        return 0
    }
}
