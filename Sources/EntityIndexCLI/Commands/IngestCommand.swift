import EntityIndex
import EntityIndexPipe
import JSON
import System

/// `entityidx ingest FILE|-`: streams records into the index, all or nothing (or skipping invalid records).
struct IngestCommand: Command {
    static let spec = CommandSpec(
        name: "ingest", abstract: "Ingest entity records (a JSON array or NDJSON) from a file or stdin",
        usage:
            "entityidx ingest FILE|- [--skip-invalid] [--client-state S [--expect-client-state S0]] [--watch] [--json]",
        options: [
            (
                "skip-invalid",
                "leave invalid records out, commit the valid ones and list every skipped one (exit 2 if any)"
            ),
            ("client-state=", "commit the ingest as a batch with this client state (at most 250 bytes)"),
            ("expect-client-state=", "only commit if the stored client state is this one (compare-and-swap)"),
            ("watch", "ingest FILE, then again each time it is written or replaced, one line a round, until a signal"),
        ],
        discussion: """
            Records are upserted by (type, id). The input is all or nothing: one bad record rejects it, every bad
            record is listed, and the database is left as it was. With --skip-invalid, invalid records are left out
            instead: the valid ones are committed, every skipped record's problems are printed on stderr and listed
            in the result (`skipped`, `problems`), and the exit status is 2 when any record was skipped (0 when none
            was). A problem repeated in more than three records is printed once, with its count and first records
            (--json lists every one). Re-ingesting a record unchanged renews its expiry.
            Progress (records, rate, elapsed) is shown on stderr when it is a terminal; when the input's size is
            known (a file, or stdin redirected from one), with the share read and an estimate of the time left.
            With --watch, FILE is ingested, then ingested again each time a write to it ends or a file is moved
            onto its name (editors that write a new file and rename it), changes that come together making one
            round. Each round prints one line on standard output: its counts, or `rejected: ` and the first problem
            (the record and field), the round then changing nothing; a missing or unreadable file is such a round
            too. The watch goes on after a rejected round, and ends with status 0 on SIGINT or SIGTERM (a round the
            signal interrupts is rolled back whole).
            """, literalExample: "ingest -- -records.json")

    var path: String
    var clientState: String?
    var expectedClientState: String?
    var skipInvalid: Bool
    var watch: Bool

    var writes: Bool { true }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                arguments.positionals.isEmpty ? "missing FILE (use - for stdin)" : "ingest takes one FILE",
                usage: Self.spec.usage)
        }
        path = arguments.positionals[0]
        clientState = arguments.value("client-state")
        expectedClientState = arguments.value("expect-client-state")
        skipInvalid = arguments.flag("skip-invalid")
        watch = arguments.flag("watch")
        if watch && path == "-" { throw UsageError("--watch needs a FILE, not stdin", usage: Self.spec.usage) }
        if watch && clientState != nil {
            throw UsageError("--watch cannot be combined with --client-state", usage: Self.spec.usage)
        }
        if expectedClientState != nil && clientState == nil {
            throw UsageError("--expect-client-state needs --client-state", usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        if watch { return try IngestWatch(command: self).run(context) }
        let (counts, elapsed) = try ingestOnce(context)
        let skipped = ProblemGroups(counts.problems)
        for line in Output.problemLines(skipped, prefix: "skipped ") { context.printError(line) }
        context.emit(IngestRequest.self, counts) { counts in
            context.print(summary(counts, elapsed: elapsed))
        }
        return counts.skipped > 0 ? 2 : 0
    }

    /// `inserted 2, updated 1, unchanged 7 (10 records in 0.01 s)`.
    func summary(_ counts: IngestCounts, elapsed: Double) -> String {
        var line =
            "inserted \(Output.number(counts.inserted)), updated \(Output.number(counts.updated)), unchanged \(Output.number(counts.unchanged))"
        if skipInvalid { line += ", skipped \(Output.number(counts.skipped))" }
        return line + " (\(Output.count(counts.total, "record", "records")) in \(String(format2(elapsed))) s)"
    }

    /// Reads the file and ingests its records, all or nothing (or skipping invalid ones); the counts and seconds.
    func ingestOnce(_ context: CommandContext) throws -> (IngestCounts, Double) {
        let (fd, openError) = Platform.openForReading(path)
        guard fd >= 0 else { throw EntityIndexError(.io, "cannot read \(path): \(openError ?? "unknown error")") }
        defer { Platform.closeFile(fd) }
        let store = try context.store()
        // Each round of --watch is a request of its own, at its own clock.
        return try store.perform(store.operation(at: context.now())) { try ingest(fd, into: store, context) }
    }

    private func ingest(_ fd: Int32, into store: EntityStore, _ context: CommandContext) throws -> (
        IngestCounts, Double
    ) {
        if clientState != nil { try store.beginBatch() }
        let ingestion: Ingestion
        do {
            ingestion = try store.beginIngest(skipInvalid: skipInvalid)
        } catch {
            store.abortBatch()
            throw error
        }
        let reader = JSONStreamReader(fd: fd, maxElementBytes: RecordLimits.maxRecordBytes)
        let progress = Progress(
            enabled: context.stderrIsTerminal, context: context, totalBytes: Platform.regularFileSize(fd))
        try ingestion.addAll(from: reader) { records, bytes in progress.tick(records, bytes: bytes) }
        progress.finish()
        let counts: IngestCounts
        do {
            counts = try ingestion.finish()
            if let clientState {
                try store.endBatch(clientState: clientState, expected: expectedClientState.map { .some($0) })
            }
        } catch {
            store.abortBatch()
            throw context.json ? error : Self.grouped(error, ingestion.problemGroups)
        }
        return (counts, progress.elapsed)
    }

    /// A refused input's error as a person reads it: a problem repeated in many records once, with its count and
    /// first records (the error's `details`, and so `--json`, list the records as they are).
    static func grouped(_ error: any Error, _ groups: ProblemGroups) -> any Error {
        guard let error = error as? EntityIndexError, error.code == .invalidRecord, groups.repeats else { return error }
        let headline = error.message.prefix { $0 != "\n" }
        let lines = Output.problemLines(groups, indent: "  ")
        return EntityIndexError(
            .invalidRecord, ([String(headline)] + lines).joined(separator: "\n"), details: error.details)
    }

    private func format2(_ v: Double) -> String {
        let cents = Int((v * 100).rounded())
        return "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
    }
}

/// Progress of a long ingest on stderr, redrawn at most twice a second, only on a terminal.
///
/// When the input's size is known, the line shows the share of it read and the time left, estimated from the
/// rate so far: `  12,000 records  40%  6,000/s  2 s, about 3 s left  5 MiB`.
final class Progress {
    let enabled: Bool
    let context: CommandContext
    let totalBytes: Int?
    let start = SystemClock.monotonicSeconds()
    var last = 0.0
    var shown = false

    init(enabled: Bool, context: CommandContext, totalBytes: Int? = nil) {
        self.enabled = enabled
        self.context = context
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
    }

    var elapsed: Double { SystemClock.monotonicSeconds() - start }

    func tick(_ records: Int, bytes: Int) {
        guard enabled else { return }
        let t = elapsed
        guard t - last >= 0.5 else { return }
        last = t
        shown = true
        context.errorOutput("\r\u{1B}[K" + Self.line(records: records, bytes: bytes, total: totalBytes, elapsed: t))
    }

    /// The progress line for `records` read in `elapsed` seconds, `bytes` of `total`.
    static func line(records: Int, bytes: Int, total: Int?, elapsed t: Double) -> String {
        let rate = Int(Double(records) / max(t, 0.001))
        var time = "\(Int(t)) s"
        var share = ""
        if let total, bytes > 0 {
            let done = min(Double(bytes) / Double(total), 1)
            share = "  \(Int(done * 100))%"
            let left = Int((t * (1 - done) / done).rounded(.up))
            time += ", about \(Self.duration(left)) left"
        }
        return
            "  \(Output.number(records)) records\(share)  \(Output.number(rate))/s  \(time)  \(Output.number(bytes >> 20)) MiB"
    }

    /// `45 s`, `3 min 5 s`, `2 h 10 min`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min \(seconds % 60) s" }
        return "\(seconds / 3600) h \(seconds % 3600 / 60) min"
    }

    func finish() {
        if shown { context.errorOutput("\r\u{1B}[K") }
    }
}
