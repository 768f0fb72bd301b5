import EntityIndex
import EntityIndexPipe

/// `entityidx stats`: counts, expiry, sizes and versions.
struct StatsCommand: Command {
    static let spec = CommandSpec(
        name: "stats", abstract: "Counts per type, hidden, expired and expiring within 7 days, sizes, versions",
        usage: "entityidx stats [--json]", options: [], discussion: "")

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("stats takes no arguments", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(StatsMethod()) { s in
            func row(_ name: String, _ c: Stats.Counts) -> [String] {
                [name] + [c.entities, c.hidden, c.expired, c.expiringSoon].map(Output.number)
            }
            Output.table(
                [["type", "entities", "hidden", "expired", "expiring in 7 days"]] + s.types.map(row) + [
                    row("all", s.all)
                ],
                in: context)
            context.print("")
            let rows: [(String, String)] = [
                ("reindexRequests", String(s.reindexRequests)), ("donations", String(s.donations)),
                ("clientState", s.clientState ?? "null"), ("databaseBytes", String(s.databaseBytes)), ("path", s.path),
                ("now", Timestamp.format(s.now)), ("schemaVersion", String(s.schemaVersion)),
                ("textVersion", String(s.textVersion)), ("sqliteVersion", s.sqliteVersion),
                ("icuVersion", s.icuVersion),
            ]
            for (key, value) in rows { context.print("\(key): \(value)") }
        }
        return 0
    }
}
