import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx get --type T ID…`: entities by id (`entities(for:)`).
struct GetCommand: Command {
    static let spec = CommandSpec(
        name: "get", abstract: "Get entities by id, in the order asked (missing ids are left out)",
        usage: "entityidx get --type T ID… [--fields F,…] [--json]",
        options: [("type=", "the entity type (required)"), CommandSpec.fieldsOption],
        discussion: """
            Each entity comes back exactly as ingested. Hidden entities are returned; expired ones are not. The ids
            not found are named on stderr (and listed as `missing` with --json); the exit status stays 0.
            """,
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
        let result = try context.perform(request)
        context.emit(GetRequest.self, result) { Output.entities($0.entities, in: context, fields: request.fields) }
        // Named on stderr, with or without --json: a missing id is not an error (exit 0), but never silent.
        if !result.missing.isEmpty {
            let ids = result.missing.map { Quoting.quoted($0.id) }.joined(separator: ", ")
            context.printError("not found (type \(request.type)): \(ids)")
        }
        return 0
    }
}
