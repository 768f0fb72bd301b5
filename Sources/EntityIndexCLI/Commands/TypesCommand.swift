import EntityIndex
import JSON

/// `entityidx types`: the entity types the index holds, one a line (what `--type` completes to).
struct TypesCommand: Command {
    static let spec = CommandSpec(
        name: "types", abstract: "List the index's entity types, one a line (for scripts and shell completion)",
        usage: "entityidx types [--json]", options: [],
        discussion: """
            The types of the indexed entities and of declared properties, in byte order. The completion scripts
            call it to complete --type; like every reading command it is an error on a path with no index.
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("types takes no arguments", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let types = try context.store().entityTypes()
        if context.json {
            context.print(JSONWriter.string(["types": .array(types.map { .string($0) })]))
        } else {
            for type in types { context.print(type) }
        }
        return 0
    }
}
