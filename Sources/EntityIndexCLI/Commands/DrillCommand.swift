import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx drill --restore FILE|-`: would the app's reindex bring everything back after the system lost its index?
struct DrillCommand: Command {
    static let spec = CommandSpec(
        name: "drill",
        abstract: "Compare the index with what the app's reindex pushes back (restored, missing, changed, new)",
        usage: "entityidx drill --restore FILE|- [--type T] [--strict] [--json]",
        options: [
            ("restore=", "the records the app's reindex delegate pushes back (a JSON array or NDJSON; - for stdin)"),
            ("type=", "only entities of this type, in the index and in the file (a reindex of one type)"),
            ("strict", "exit with status 1 when an entity is missing or changed"),
        ],
        discussion: """
            Simulates the system losing its index: takes what the index holds now (expired entities are gone) and
            the records of the restore file, and reports what was restored unchanged, what is missing, what came
            back changed (and which fields: title, properties.total…) and what is new; records whose expiresAt has
            passed restore nothing and are listed as expired. The index is not changed.
            A bad record in the restore file is an error naming it, as in an ingest.
            """)

    var path: String
    var type: String?
    var strict: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("drill takes no arguments besides --restore FILE", usage: Self.spec.usage)
        }
        guard let path = arguments.value("restore") else {
            throw UsageError("missing --restore FILE (use - for stdin)", usage: Self.spec.usage)
        }
        self.path = path
        type = arguments.value("type")
        if let type, let problem = RecordValidator.typeProblem(type) {
            throw UsageError("--type \(problem)", usage: Self.spec.usage)
        }
        strict = arguments.flag("strict")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let records = try RecordFile(path).records
        let store = try context.store()
        let report = try store.drill(restore: records, type: type)
        context.emit(DrillMethod.self, report) { report in
            context.print(
                "\(Output.number(report.indexed)) entities indexed, \(Output.number(report.pushed)) pushed back")
            context.print("restored  \(Output.number(report.restored))")
            context.print("missing   \(Output.number(report.missing.count))")
            for key in report.missing { context.print("  \(key)") }
            context.print("changed   \(Output.number(report.changed.count))")
            for c in report.changed { context.print("  \(c.location): \(c.fields.joined(separator: ", "))") }
            context.print("new       \(Output.number(report.new.count))")
            for n in report.new { context.print("  \(n.location)") }
            if !report.expired.isEmpty {
                context.print(
                    "expired   \(Output.number(report.expired.count)) (expiresAt has passed: an ingest drops them)")
                for e in report.expired { context.print("  \(e.location)") }
            }
            context.print(
                report.isComplete ? "the reindex restores everything" : "the reindex does not restore everything")
        }
        return strict && !report.isComplete ? 1 : 0
    }
}
