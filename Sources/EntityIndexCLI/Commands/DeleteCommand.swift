import EntityIndex
import EntityIndexPipe

/// `entityidx delete`: by ids, by type, by domain, or everything.
struct DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete", abstract: "Delete entities by id, type or domain, or everything",
        usage: "entityidx delete [--type T… [ID…]] [--domain D]… [--all] [--dry-run] [--json]",
        options: [
            ("type=", "entities of this type (all of them unless IDs are given; repeatable: their union)"),
            ("domain=", "entities in domain D or below it (D.*), never Dx (repeatable)"),
            ("all", "everything, and the batch client state (alone: with no other selector)"),
            ("dry-run", "delete nothing: say how many entities would be deleted and list the first of them"),
        ],
        discussion: """
            Several selectors combine as an intersection: --type customer --domain shop.orders.2025 deletes the
            customers in that domain (or below it), not every customer and every entity of the domain; IDs with
            --domain delete those of the IDs that are in the domain. Several --domain options are a union, and so
            are several --type options (IDs with two types: those IDs of either type). --dry-run changes nothing:
            it prints how many entities the same command would delete and the first 100 of them (type/id).
            """, repeatable: ["type", "domain"], literalExample: "delete --type order -- -17")

    var request: DeleteRequest

    var writes: Bool { true }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        request = DeleteRequest(
            types: arguments.all("type"), ids: arguments.positionals, domains: arguments.all("domain"),
            all: arguments.flag("all"))
        request.dryRun = arguments.flag("dry-run")
        if !request.ids.isEmpty && request.types.isEmpty {
            throw UsageError("deleting by ID needs --type", usage: Self.spec.usage)
        }
        guard !request.types.isEmpty || !request.domains.isEmpty || request.all else {
            throw UsageError("say what to delete: --type, IDs with --type, --domain or --all", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(request) { outcome in
            guard let preview = outcome.preview else {
                context.print("deleted \(Output.count(outcome.deleted, "entity", "entities"))")
                return
            }
            context.print(
                "would delete \(Output.count(preview.count, "entity", "entities")) (dry run: nothing deleted)")
            for key in preview.keys { context.print("  \(key)") }
            if !preview.complete { context.print("  … and \(Output.number(preview.count - preview.keys.count)) more") }
        }
        return 0
    }
}
