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
            Codes: invalid-record, duplicate-key, id-changed and type-renamed (the last three for a push only),
            too-large (errors); will-expire, duplicate-content, weak-display, unreachable, broken-link,
            domain-overlap, mixed-kinds (warnings). Findings are grouped by code; each names the record
            (position, line, type/id) and what to change; a finding repeated in more than three records is
            printed once, with its count and first records (--json lists every finding).
            Exit status 0, or 1 with --strict when any error or warning is found.
            """, literalExample: "lint -- -records.json")

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
        let report = try store.lint(LintRequest(records: records, withinDays: within))
        context.emit(LintMethod.self, report) { report in
            for (code, count) in report.counts {
                let severity = code.severity.rawValue
                context.print("\(code.rawValue): \(Output.number(count)) \(severity)\(count == 1 ? "" : "s")")
                let findings = report.findings.filter { $0.code == code }
                for same in Output.gathered(findings, by: { ($0.field ?? "") + "\u{1F}" + $0.message }) {
                    guard same.count > 1 else {
                        // A repeated record's message names the first by position; a file also has its line.
                        let first = same[0].first?.line.map { " (first: line \($0))" } ?? ""
                        context.print("  \(same[0].location)\(first): \(same[0].message)")
                        continue
                    }
                    let locations = same.map(\.location.description)
                    for line in Output.group(count: same.count, same[0].message, locations: locations, indent: "  ") {
                        context.print(line)
                    }
                }
                if let unlisted = report.unlisted[code], unlisted > 0 {
                    context.print(
                        "  … and \(Output.number(unlisted)) more, not listed (the first \(Output.number(LintReport.maxListedPerCode)) are)"
                    )
                }
                context.print("")
            }
            let (errors, warnings) = (report.count(.error), report.count(.warning))
            let checked =
                records == nil
                ? "the index (\(Output.count(report.indexed, "entity", "entities")))"
                : "\(Output.count(report.records, "record", "records")) against "
                    + Output.count(report.indexed, "indexed entity", "indexed entities")
            if report.findings.isEmpty {
                context.print("no findings in \(checked)")
            } else {
                let n = report.findings.count + report.unlistedCount
                context.print(
                    "\(Output.number(n)) finding\(n == 1 ? "" : "s") (\(Output.number(errors)) error\(errors == 1 ? "" : "s"), "
                        + "\(Output.number(warnings)) warning\(warnings == 1 ? "" : "s")) in \(checked)")
            }
        }
        return strict && !report.findings.isEmpty ? 1 : 0
    }
}
