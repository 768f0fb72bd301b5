import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx lint [FILE|-]`: what Siri, Shortcuts and Spotlight would lose or show badly, before pushing.
struct LintCommand: Command {
    static let spec = CommandSpec(
        name: "lint",
        abstract: "Check records before pushing them (or the whole index) for what Siri and Spotlight lose",
        usage: "entityidx lint [FILE|-] [--within DAYS] [--strict] [--json]",
        options: [
            ("within=", "will-expire reports entities that expire within DAYS days (default 7)"),
            ("strict", "exit with status 1 when anything is found"),
        ],
        discussion: """
            Checks the records of FILE (a JSON array or NDJSON; - for stdin) against themselves and against the
            index as it would be after pushing them, without changing it; without FILE, checks the whole index.
            Codes: invalid-record, id-changed and type-renamed (a push against the index only), too-large (errors);
            will-expire, duplicate-content, weak-display, unreachable, domain-overlap (warnings). Findings are
            grouped by code; each names the record (position, line, type/id) and what to change.
            Exit status 0, or 1 with --strict when any error or warning is found.
            """)

    var path: String?
    var within: Int
    var strict: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("lint takes at most one FILE", usage: Self.spec.usage)
        }
        path = arguments.positionals.first
        within =
            try arguments.int("within", range: 0...LintRequest.maxWithinDays, usage: Self.spec.usage)
            ?? LintRequest.defaultWithinDays
        strict = arguments.flag("strict")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let records = try path.map { path throws(EntityIndexError) in try RecordFile(path).records }
        let store = try context.store()
        store.now = context.now()
        let report = try store.lint(LintRequest(records: records, withinDays: within))
        context.emit(LintMethod.self, report) { report in
            for (code, count) in report.counts {
                let severity = code.severity.rawValue
                context.print("\(code.rawValue): \(Output.number(count)) \(severity)\(count == 1 ? "" : "s")")
                for finding in report.findings where finding.code == code {
                    context.print("  \(finding.location): \(finding.message)")
                }
                context.print("")
            }
            let (errors, warnings) = (report.count(.error), report.count(.warning))
            let checked =
                records == nil
                ? "the index (\(Output.number(report.indexed)) entities)"
                : "\(Output.number(report.records)) records against \(Output.number(report.indexed)) indexed entities"
            if report.findings.isEmpty {
                context.print("no findings in \(checked)")
            } else {
                let n = report.findings.count
                context.print(
                    "\(Output.number(n)) finding\(n == 1 ? "" : "s") (\(Output.number(errors)) error\(errors == 1 ? "" : "s"), "
                        + "\(Output.number(warnings)) warning\(warnings == 1 ? "" : "s")) in \(checked)")
            }
        }
        return strict && !report.findings.isEmpty ? 1 : 0
    }
}
