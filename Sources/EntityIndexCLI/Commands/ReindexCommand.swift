import EntityIndex
import JSON

/// `entityidx reindex request|pending|ack`: what the system asks the app to restore.
struct ReindexCommand: Command {
    static let spec = CommandSpec(
        name: "reindex", abstract: "Record, list and acknowledge reindex requests from the system",
        usage: "entityidx reindex request [--type T] [ID…] | reindex pending | reindex ack R [--json]",
        options: [("type=", "with request: the type to reindex (all types when absent)")],
        discussion: """
            request records what IndexedEntityQuery.reindexAllEntities / reindexEntities(for:) (or the
            CSSearchableIndexDelegate) would ask for; pending lists open requests with the ids not re-pushed
            (ingested again or deleted) since; ack closes one.
            """)

    var method: String
    var params = JSONObject()

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let action = arguments.positionals.first else { throw UsageError("missing request, pending or ack", usage: Self.spec.usage) }
        let rest = Array(arguments.positionals.dropFirst())
        switch action {
        case "request":
            method = "reindex.request"
            if let type = arguments.value("type") { params["type"] = .string(type) }
            if !rest.isEmpty {
                guard params["type"] != nil else { throw UsageError("reindex request with IDs needs --type", usage: Self.spec.usage) }
                params["ids"] = .array(rest.map { .string($0) })
            }
        case "pending":
            guard rest.isEmpty else { throw UsageError("reindex pending takes no arguments", usage: Self.spec.usage) }
            method = "reindex.pending"
        case "ack":
            guard rest.count == 1, let id = Int(rest[0]), id > 0 else { throw UsageError("reindex ack takes one request id", usage: Self.spec.usage) }
            method = "reindex.ack"
            params["requestId"] = JSONValue(id)
        default:
            throw UsageError("unknown reindex action '\(action)'", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call(method, .object(params))
        context.emit(result) { result in
            switch method {
            case "reindex.request": context.print("request \(Output.display(result["requestId"] ?? 0))")
            case "reindex.ack": context.print("acknowledged")
            default:
                let requests = result["requests"]?.array ?? []
                if requests.isEmpty { context.print("no open reindex requests") }
                for r in requests {
                    let scope = r["type"]?.string.map { t in r["ids"] != nil ? "\(t) (ids)" : "\(t) (all)" } ?? "everything"
                    let outstanding = r["outstanding"]?.array ?? []
                    let list = outstanding.prefix(20).map { $0.string ?? "\($0["type"]?.string ?? "")/\($0["id"]?.string ?? "")" }
                    context.print("request \(Output.display(r["requestId"] ?? 0))  \(scope)  outstanding \(outstanding.count)\(list.isEmpty ? "" : ": " + list.joined(separator: " "))\(outstanding.count > 20 ? " …" : "")")
                }
            }
        }
        return 0
    }
}
