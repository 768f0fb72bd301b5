import EntityIndex
import JSON

/// `entityidx stats`: counts, expiry, sizes and versions.
struct StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats", abstract: "Counts per type, hidden, expired and expiring within 7 days, sizes, versions",
        usage: "entityidx stats [--json]", options: [], discussion: "")

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("stats takes no arguments", usage: Self.spec.usage) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("stats", [:])
        context.emit(result) { r in
            var rows = [["type", "entities", "hidden", "expired", "expiring in 7 days"]]
            for (type, t) in r["types"]?.object ?? JSONObject() {
                rows.append([type] + ["entities", "hidden", "expired", "expiringSoon"].map { Output.display(t[$0] ?? 0) })
            }
            rows.append(["all"] + ["entities", "hidden", "expired", "expiringSoon"].map { Output.display(r[$0] ?? 0) })
            Output.table(rows, in: context)
            context.print("")
            for key in ["reindexRequests", "donations", "clientState", "databaseBytes", "path", "now", "schemaVersion",
                        "textVersion", "sqliteVersion", "icuVersion"] {
                context.print("\(key): \(Output.display(r[key] ?? .null))")
            }
        }
        return 0
    }
}
