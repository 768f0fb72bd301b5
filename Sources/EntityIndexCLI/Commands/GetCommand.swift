import EntityIndex
import EntityIndexPipe

/// `entityidx get --type T ID…`: entities by id (`entities(for:)`).
struct GetCommand: Command {
    static let spec = CommandSpec(
        name: "get", abstract: "Get entities by id, in the order asked (missing ids are left out)",
        usage: "entityidx get --type T ID… [--fields F,…] [--json]",
        options: [("type=", "the entity type (required)"), CommandSpec.fieldsOption],
        discussion: "Each entity comes back exactly as ingested. Hidden entities are returned; expired ones are not.",
        literalExample: "get --type order -- -17")

    var request: GetRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard !arguments.positionals.isEmpty else { throw UsageError("missing ID", usage: Self.spec.usage) }
        request = GetRequest(type: type, ids: arguments.positionals)
        request.fields = try arguments.fields(usage: Self.spec.usage)
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(type: request.type)
        try context.run(request) { Output.entities($0, in: context, fields: request.fields) }
        return 0
    }
}
