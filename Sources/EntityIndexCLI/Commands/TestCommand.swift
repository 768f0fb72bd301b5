import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx test FILE…`: what Siri and Spotlight must find, as expectations a project runs in CI.
struct TestCommand: Command {
    static let spec = CommandSpec(
        name: "test",
        abstract: "Check expectations files (what searches must find) against the index, for CI",
        usage:
            "entityidx test FILE… [--records FILE]… [--format human|json|junit|tap|github] [--update] [--timeout SECONDS]",
        options: [
            (
                "records=",
                "run against these records (JSON array or NDJSON) in a temporary index, not --db (repeatable)"
            ),
            ("format=", "human (default), json, junit (JUnit XML), tap (TAP 14) or github (workflow commands)"),
            ("update", "rewrite each case's top from the current answers, every other byte of the file kept"),
            ("timeout=", "the seconds one case may take before it fails (default 10; 0: no bound)"),
        ],
        discussion: """
            An expectations file is a JSON array of cases: {"name": …, "search": {"query": "1042"}, "expect":
            {"top": ["order/1042"]}}. The request is the pipe's params under the method's name (search, suggest,
            spotlight, userQuery, query, all, get, related, complete); "now" fixes a case's clock; "expect" has any
            of top (the first results, in order, as "type/id"), contains, excludes, rankAtMost ({"order/1042": 3}),
            count, total (search) and empty. For complete, top, contains and excludes are words. A failure shows
            the results expected against those got, with each one's ranking tiers (as search --explain).
            Exit status 0 when every case holds, 1 when one fails, 2 when a file, a request or the records are
            wrong (each problem names the case, its index and the field). A case that runs past its time or a
            bound fails; the others still run. With --update, the new tops are written and the cases then checked.
            """, repeatable: ["records"])

    static let defaultTimeout = 10.0

    var files: [String]
    var records: [String]
    var format: ExpectationReport.Format
    var update: Bool
    var timeout: Double?
    var explicitDatabase: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError("missing FILE (an expectations file)", usage: Self.spec.usage)
        }
        files = arguments.positionals
        records = arguments.all("records")
        explicitDatabase = arguments.value("db") != nil
        if explicitDatabase && !records.isEmpty {
            throw UsageError("--db and --records cannot go together: test an index, or records", usage: Self.spec.usage)
        }
        let name = arguments.value("format") ?? (arguments.flag("json") ? "json" : "human")
        guard let format = ExpectationReport.Format(rawValue: name) else {
            let names = ExpectationReport.Format.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("--format must be one of \(names), got \(Quoting.quoted(name))", usage: Self.spec.usage)
        }
        self.format = format
        update = arguments.flag("update")
        if update && files.contains("-") {
            throw UsageError("--update rewrites files: it cannot rewrite stdin (-)", usage: Self.spec.usage)
        }
        if let text = arguments.value("timeout") {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw UsageError(
                    "--timeout must be a number of seconds, got \(Quoting.quoted(text))", usage: Self.spec.usage)
            }
            timeout = seconds == 0 ? nil : seconds
        } else {
            timeout = Self.defaultTimeout
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        var parsed: [ExpectationFile] = []
        var problems: [ExpectationFileError] = []
        for path in files {
            let (bytes, error) = Platform.readAll(path)
            guard let bytes else {
                problems.append(
                    ExpectationFileError(file: path, message: "cannot be read: \(error ?? "unknown error")"))
                continue
            }
            do {
                parsed.append(try ExpectationFile(path: path, bytes: bytes))
            } catch {
                problems += error.errors
            }
        }
        guard problems.isEmpty else { return wrong(problems, context) }
        let store: EntityStore
        switch openStore(context) {
        case .success(let opened): store = opened
        case .failure(let error):
            context.printError("error: \(error.message)")
            return 2
        }
        let runner = ExpectationRunner(store: store, now: context.now, timeout: timeout)
        var outcomes = parsed.flatMap { file in file.cases.map { runner.run($0, file: file.path) } }
        if update { outcomes = try self.update(parsed, outcomes, runner, context) }
        let report = ExpectationReport(outcomes)
        context.output(report.text(format))
        return report.exitStatus
    }

    /// Prints the problems of the files (as workflow commands for --format github) and returns 2.
    private func wrong(_ problems: [ExpectationFileError], _ context: CommandContext) -> Int32 {
        for p in problems {
            if format == .github {
                let at = "file=\(ExpectationReport.property(p.file))" + (p.line.map { ",line=\($0)" } ?? "")
                context.output("::error \(at),title=entityidx test::\(ExpectationReport.data(p.description))\n")
            }
            context.printError("error: \(p.description)")
        }
        return 2
    }

    /// The index of --db, or one in memory holding the records of --records.
    private func openStore(_ context: CommandContext) -> Result<EntityStore, EntityIndexError> {
        do throws(EntityIndexError) {
            return .success(try records.isEmpty ? context.store() : temporaryStore(context))
        } catch {
            return .failure(error)
        }
    }

    /// An index in memory holding the records of `--records`, ingested as `ingest` does (all or nothing).
    private func temporaryStore(_ context: CommandContext) throws(EntityIndexError) -> EntityStore {
        let store = try EntityStore(path: ":memory:", now: context.now())
        for path in records {
            let (fd, openError) = Platform.openForReading(path)
            guard fd >= 0 else { throw EntityIndexError(.io, "cannot read \(path): \(openError ?? "unknown error")") }
            defer { Platform.closeFile(fd) }
            let ingestion = try store.beginIngest()
            try ingestion.addAll(from: JSONStreamReader(fd: fd, maxElementBytes: RecordLimits.maxRecordBytes)) { _, _ in
            }
            do {
                _ = try ingestion.finish()
            } catch {
                throw EntityIndexError(error.code, "\(path): \(error.message)")
            }
        }
        return store
    }

    /// Rewrites each file's tops, says what changed, and checks the cases again with the new tops.
    private func update(
        _ files: [ExpectationFile], _ outcomes: [CaseOutcome], _ runner: ExpectationRunner, _ context: CommandContext
    ) throws -> [CaseOutcome] {
        var outcomes = outcomes
        let say: (String) -> Void = format == .human ? context.print : context.printError
        for file in files {
            let (bytes, changes) = file.updatingTops(outcomes)
            guard !changes.isEmpty else {
                say("\(file.path): every top holds, nothing to update")
                continue
            }
            if let error = Platform.replaceFile(file.path, with: bytes) {
                throw EntityIndexError(.io, "cannot write \(file.path): \(error)")
            }
            for change in changes {
                say(
                    "\(file.path):\(change.line): case \(change.caseIndex) (\(Quoting.quoted(change.name))) top: "
                        + "\(Self.list(change.before)) -> \(Self.list(change.after))")
                guard
                    let i = outcomes.firstIndex(where: { $0.file == file.path && $0.testCase.index == change.caseIndex }
                    )
                else { continue }
                var updated = outcomes[i].testCase
                updated.expect.top = change.after
                outcomes[i] = runner.run(updated, file: file.path)
            }
        }
        return outcomes
    }

    static func list(_ keys: [String]) -> String { "[" + keys.joined(separator: ", ") + "]" }
}
