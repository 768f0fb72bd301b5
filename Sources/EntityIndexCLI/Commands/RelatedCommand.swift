import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx related --type T ID`: linked entities (`relatedAppEntityIdentifier`).
struct RelatedCommand: Command {
    static let spec = CommandSpec(
        name: "related", abstract: "Entities an entity links to (out), that link to it (in), or both",
        usage: "entityidx related --type T ID [--direction out|in|both] [--fields F,…] [--json]",
        options: [
            ("type=", "the entity's type (required)"), ("direction=", "out (default), in or both"),
            CommandSpec.fieldsOption,
        ],
        discussion: """
            out lists the linked entities in their listed order, leaving out those not in the index; those are
            named on stderr (and listed as missing with --json).
            """, literalExample: "related --type order -- -17")

    var request: RelatedRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.count == 1 else { throw UsageError("related takes one ID", usage: Self.spec.usage) }
        request = RelatedRequest(type: type, id: arguments.positionals[0])
        if let name = arguments.value("direction") {
            guard let direction = RelatedDirection(rawValue: name) else {
                throw UsageError(
                    "--direction must be out, in or both; got \(Quoting.quoted(name))", usage: Self.spec.usage)
            }
            request.direction = direction
        }
        request.fields = try arguments.fields(usage: Self.spec.usage)
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(type: request.type)
        try context.run(request) { related in
            Output.entities(related.entities, in: context, fields: request.fields)
            if !related.missing.isEmpty {
                let names = related.missing.map(\.description)
                let shown = names.prefix(10).joined(separator: ", ")
                context.printError(
                    "not in the index: \(shown)\(names.count > 10 ? " and \(names.count - 10) more" : "")"
                        + " (listed in related, left out)")
            }
        }
        return 0
    }
}
