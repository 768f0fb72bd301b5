import EntityIndex
import JSON

/// `entityidx delete`: by ids, by type, by domain, or everything.
struct DeleteCommand: Command {
    static let spec = CommandSpec(
        name: "delete", abstract: "Delete entities by id, type or domain, or everything",
        usage: "entityidx delete [--type T [ID…]] [--domain D]… [--all] [--json]",
        options: [
            ("type=", "entities of this type (all of them unless IDs are given)"),
            ("domain=", "entities in domain D or below it (D.*), never Dx (repeatable)"),
            ("all", "everything, and the batch client state"),
        ],
        discussion: "")

    var params = JSONObject()

    init(_ arguments: ParsedArguments) throws(UsageError) {
        if let type = arguments.value("type") { params["type"] = .string(type) }
        if !arguments.positionals.isEmpty {
            guard params["type"] != nil else { throw UsageError("deleting by ID needs --type", usage: Self.spec.usage) }
            params["ids"] = .array(arguments.positionals.map { .string($0) })
        }
        let domains = arguments.all("domain")
        if !domains.isEmpty { params["domains"] = .array(domains.map { .string($0) }) }
        if arguments.flag("all") { params["all"] = true }
        guard !params.isEmpty else { throw UsageError("say what to delete: --type, IDs with --type, --domain or --all", usage: Self.spec.usage) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("delete", .object(params))
        context.emit(result) { context.print("deleted \(Output.display($0["deleted"] ?? 0))") }
        return 0
    }
}
