import EntityIndex
import EntityIndexPipe
import JSON
import System

/// What every command receives: global options, the store (opened on first use) and the output streams.
///
/// Commands never open their own database or write to the process's streams directly, so tests can run them with
/// a temporary database and read what they printed.
public final class CommandContext {
    public let dbPath: String
    /// The fixed clock from `--now`, else nil (the wall clock).
    public let fixedNow: Int64?
    public let json: Bool
    var output: (String) -> Void
    var errorOutput: (String) -> Void
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    /// The terminal's width when stdout is a terminal, else nil (output to a pipe or a file is never cut).
    let columns: Int?
    private var openedStore: EntityStore?
    /// Whether opening the store may create the database (only commands that write may).
    var mayCreateIndex = true

    /// The default database: `$ENTITYIDX_DB`, else `entityidx.sqlite` in the working directory.
    public static var defaultDatabase: String {
        Platform.environment("ENTITYIDX_DB").flatMap { $0.isEmpty ? nil : $0 } ?? "entityidx.sqlite"
    }

    public init(
        arguments: ParsedArguments, output: @escaping (String) -> Void = { Platform.write(1, $0) },
        errorOutput: @escaping (String) -> Void = { Platform.write(2, $0) }
    ) throws(UsageError) {
        dbPath = arguments.value("db") ?? Self.defaultDatabase
        guard !dbPath.isEmpty else { throw UsageError("--db must be the path of a file, not empty") }
        guard dbPath != ":memory:" else {
            throw UsageError(
                "--db must be the path of a file, not :memory: (a database in memory would keep nothing between commands; ./:memory: is a file of that name)"
            )
        }
        if let text = arguments.value("now") {
            guard let ms = Timestamp.parse(text) else {
                throw UsageError(
                    "--now must be an ISO-8601 date-time with a zone, such as 2026-03-02T09:00:00Z; got \(Quoting.quoted(text))"
                )
            }
            fixedNow = ms
        } else {
            fixedNow = nil
        }
        json = arguments.flag("json")
        self.output = output
        self.errorOutput = errorOutput
        stdoutIsTerminal = Platform.isTerminal(1)
        stderrIsTerminal = Platform.isTerminal(2)
        columns = stdoutIsTerminal ? Platform.terminalColumns(1) : nil
    }

    /// How long a write waits for another writer: `$ENTITYIDX_LOCK_TIMEOUT` seconds, else as long as it takes.
    static func lockTimeout() throws(EntityIndexError) -> Double? { try seconds("ENTITYIDX_LOCK_TIMEOUT") }

    /// How long opening waits for a process that still uses the `-wal` and `-shm` at the path for a file moved away
    /// from it: `$ENTITYIDX_REPLACED_WAIT` seconds, else the engine's 3.
    static func replacedFileWait() throws(EntityIndexError) -> Double? { try seconds("ENTITYIDX_REPLACED_WAIT") }

    /// A number of seconds (0 or more) from the environment variable `name`; nil when it is unset or empty.
    private static func seconds(_ name: String) throws(EntityIndexError) -> Double? {
        guard let text = Platform.environment(name), !text.isEmpty else { return nil }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw EntityIndexError(.invalidParams, "\(name) must be a number of seconds, got \(Quoting.quoted(text))")
        }
        return seconds
    }

    public func now() -> Int64 { fixedNow ?? SystemClock.wallMilliseconds() }

    /// The store, opened (and created or migrated) on first use.
    public func store() throws(EntityIndexError) -> EntityStore {
        if let openedStore { return openedStore }
        if !mayCreateIndex && !Self.holdsAnIndex(dbPath) {
            throw EntityIndexError(.noIndex, "no index at \(dbPath); run entityidx ingest first")
        }
        let errorOutput = self.errorOutput
        let path = dbPath
        let onLockWait: ((Double) -> Void)? =
            stderrIsTerminal
            ? { waited in
                errorOutput("\r\u{1B}[K  waiting for the write lock of \(path) (\(Int(waited)) s; Ctrl-C to give up)")
            } : nil
        let store = try EntityStore(
            path: dbPath, now: now(), lockTimeout: try Self.lockTimeout(), onLockWait: onLockWait,
            replacedFileWait: try Self.replacedFileWait()
        ) { count in
            errorOutput("rebuilding the search index of \(count) entities for this version of entityidx…\n")
        }
        if store.readsACopy {
            errorOutput(
                "warning: \(dbPath) is read-only and has changes in its -wal file that cannot be read in place (there is no -shm file, and this process may not create one); a private copy with them applied is read instead (one per version of the file, shared by its readers)\n"
            )
        }
        if !store.indexesAreCurrent {
            errorOutput(
                "warning: \(dbPath) was indexed by another version of entityidx; searches may miss some matches until it is rebuilt (run 'entityidx rebuild'; any write also rebuilds it)\n"
            )
        }
        openedStore = store
        return store
    }

    /// Checks that the index knows each type of a union.
    func check(types: [String]) throws(EntityIndexError) {
        for type in types { try check(type: type) }
    }

    /// Checks that the index knows `type`: a misspelt `--type` is an error with a suggestion, not an empty answer.
    func check(type: String?) throws(EntityIndexError) {
        guard let type else { return }
        try store().checkKnown(types: [type], emptyIndexAnswers: false)
    }

    /// Whether the path names a file that may hold an index: a missing file holds none, nor does an empty one
    /// with nothing in a `-wal` beside it (SQLite would take it for a new database, and a read would write a schema
    /// into it).
    static func holdsAnIndex(_ path: String) -> Bool {
        guard let size = Platform.fileSize(path) else { return false }
        return size > 0 || (Platform.fileSize(path + "-wal") ?? 0) > 0
    }

    public func handler() throws(EntityIndexError) -> RequestHandler {
        let store = try store()
        let fixed = fixedNow
        return RequestHandler(
            store: store, clock: { fixed ?? SystemClock.wallMilliseconds() },
            reopen: { [self] () throws(EntityIndexError) in try reopenStore() })
    }

    /// Opens the path again (a file was moved over the database, or it was removed, while a server had it open).
    func reopenStore() throws(EntityIndexError) -> EntityStore {
        openedStore = nil
        return try store()
    }

    /// Runs a request the way the pipe runs it.
    public func perform<R: PipeMethod>(_ request: R) throws(EntityIndexError) -> R.Result {
        try handler().perform(request)
    }

    /// Runs a request and prints its result: with `--json` as the pipe's `result` object, else with `human`.
    func run<R: PipeMethod>(_ request: R, human: (R.Result) -> Void) throws(EntityIndexError) {
        emit(R.self, try perform(request), human: human)
    }

    /// Prints a result of method `R`: with `--json` as the pipe's `result` object, else with `human`.
    func emit<R: PipeMethod>(_ method: R.Type, _ result: R.Result, human: (R.Result) -> Void) {
        if json { print(JSONWriter.string(R.encode(result))) } else { human(result) }
    }

    public func print(_ text: String) { output(text + "\n") }
    public func printError(_ text: String) { errorOutput(text + "\n") }
}
