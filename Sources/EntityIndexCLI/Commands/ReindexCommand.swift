import EntityIndex
import EntityIndexPipe
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
            """, literalExample: "reindex request --type order -- -17")

    enum Action {
        case request(ReindexRequest)
        case pending
        case ack(ReindexAckRequest)
    }

    var action: Action

    var writes: Bool {
        if case .pending = action { return false }
        return true
    }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let name = arguments.positionals.first else {
            throw UsageError("missing request, pending or ack", usage: Self.spec.usage)
        }
        let rest = Array(arguments.positionals.dropFirst())
        switch name {
        case "request":
            let type = arguments.value("type")
            if !rest.isEmpty && type == nil {
                throw UsageError("reindex request with IDs needs --type", usage: Self.spec.usage)
            }
            action = .request(ReindexRequest(type: type, ids: rest.isEmpty ? nil : rest))
        case "pending":
            guard rest.isEmpty else { throw UsageError("reindex pending takes no arguments", usage: Self.spec.usage) }
            action = .pending
        case "ack":
            guard rest.count == 1, let id = Int64(rest[0]), id > 0 else {
                throw UsageError("reindex ack takes one request id", usage: Self.spec.usage)
            }
            action = .ack(ReindexAckRequest(requestId: id))
        default:
            throw UsageError("unknown reindex action \(Quoting.quoted(name))", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        switch action {
        case .request(let request):
            try context.run(request) { context.print("request \($0)") }
        case .ack(let request):
            try context.run(request) { context.print("acknowledged request \(request.requestId)") }
        case .pending:
            try context.run(ReindexPendingMethod()) { requests in
                if requests.isEmpty { context.print("no open reindex requests") }
                for r in requests {
                    let scope = r.type.map { t in r.ids != nil ? "\(t) (ids)" : "\(t) (all)" } ?? "everything"
                    let list = r.outstanding.prefix(20).map { r.type != nil ? $0.id : $0.description }
                    let more = r.outstanding.count > 20 ? " …" : ""
                    context.print(
                        "request \(r.requestId)  \(scope)  outstanding \(r.outstanding.count)\(list.isEmpty ? "" : ": " + list.joined(separator: " "))\(more)"
                    )
                }
            }
        }
        return 0
    }
}
