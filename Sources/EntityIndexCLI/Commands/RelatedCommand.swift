import EntityIndex
import JSON

/// `entityidx related --type T ID`: linked entities (`relatedAppEntityIdentifier`).
struct RelatedCommand: Command {
    static let spec = CommandSpec(
        name: "related", abstract: "Entities an entity links to (out), that link to it (in), or both",
        usage: "entityidx related --type T ID [--direction out|in|both] [--json]",
        options: [("type=", "the entity's type (required)"), ("direction=", "out (default), in or both")],
        discussion: "out lists the linked entities in their listed order, leaving out those not in the index.")

    var params: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else { throw UsageError("missing --type", usage: Self.spec.usage) }
        guard arguments.positionals.count == 1 else { throw UsageError("related takes one ID", usage: Self.spec.usage) }
        params = JSONObject([("type", .string(type)), ("id", .string(arguments.positionals[0]))])
        if let direction = arguments.value("direction") { params["direction"] = .string(direction) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("related", .object(params))
        context.emit(result) { Output.entities($0, in: context) }
        return 0
    }
}
