import JSON
import SQLite

/// The entity index: one SQLite database holding entities, their search index and the system-side state.
///
/// A store is used from one thread at a time. Several stores (in one or several processes) can share a database:
/// WAL lets readers proceed while a writer commits, and a writer waits for another one for as long as it takes
/// (or `lockTimeout`), instead of failing.
///
/// Opening never writes for a read, except the schema migrations a read needs: a database indexed by another
/// version of the text pipeline is still searched, and rebuilt by its first write (or `rebuild()`), once.
public final class EntityStore {
    /// The connection; once the store has let go of a replaced file (`letGoIfReplaced`), a placeholder.
    var db: Connection
    public let path: String
    /// The file the path led to at open, symbolic links followed: its `-wal` and `-shm` are beside it.
    let resolvedPath: String
    /// The store has let go of its file, which the path no longer names (see `letGoIfReplaced`): open the path
    /// again for what is there now.
    public internal(set) var isDetached = false
    /// The request being answered (`perform`), or between requests the store's standing clock and bounds.
    public internal(set) var operation: Operation
    /// The clock of the request: fixed by `--now`, else the wall clock when it arrived (at open, between requests).
    public var now: Int64 { operation.now }
    /// Changes made between `batch.begin` and `batch.end` are held in an open transaction.
    var batchOpen = false
    /// The file could not be written by this process: it is opened read-only, leaving no file behind.
    public let isReadOnly: Bool
    /// The file is read-only and its `-wal` could not be read in place: a private copy with the `-wal` applied is
    /// read instead (see `DatabaseFile.Access.copy`).
    public let readsACopy: Bool
    /// The file opened (device, inode): a write is refused once the path names another file or none.
    let identity: DatabaseFile.Identity?
    /// Whether every derived index was made by this entityidx (if not, the first write rebuilds those that were not).
    public internal(set) var indexesAreCurrent = true
    /// The most bytes of stored records the request may return (see `ResultBudget`).
    public var maxResultBytes: Int { operation.maxResultBytes }
    /// The most text the request's Core Spotlight queries may compare (see `SpotlightBudget`).
    public var maxSpotlightScanBytes: Int { operation.maxSpotlightScanBytes }
    /// What the running Core Spotlight query has compared so far.
    let spotlightBudget = SpotlightBudget()
    /// The vocabulary's words in memory, for the Core Spotlight forms that look for words holding a run.
    let vocabularyCopy = VocabularyCopy()
    /// Told how many entities a rebuild of the search text concerns, before it starts.
    public var onRebuild: ((Int) -> Void)?

    /// entityidx's `PRAGMA application_id` ("EIDX"), which marks a SQLite file as an entity index.
    public static let applicationID: Int32 = 0x4549_4458

    /// Core Spotlight's default: an entity expires one month after its last ingest.
    static func defaultExpiry(from now: Int64) -> Int64 { Timestamp.addingMonth(to: now) }

    /// Opens (creating if needed) the database at `path`, migrating it to the current schema.
    ///
    /// A SQLite file of another application is refused before anything is written to it. `lockTimeout` is how long
    /// a write waits for another writer, in seconds (nil: as long as it takes); `onLockWait` is told once a second.
    /// `replacedFileWait` is how long opening waits for a process that still uses the `-wal` and `-shm` at the path
    /// for a file that was moved away from it, in seconds (nil: 3), before `database_replaced`.
    public init(
        path: String, now: Int64, lockTimeout: Double? = nil, onLockWait: ((Double) -> Void)? = nil,
        replacedFileWait: Double? = nil, onRebuild: ((Int) -> Void)? = nil
    ) throws(EntityIndexError) {
        self.path = path
        operation = Operation(now: now)
        self.onRebuild = onRebuild
        let file = try DatabaseFile(path: path)
        isReadOnly = file.readOnly
        resolvedPath = file.resolvedName
        let access = try file.access(foreignWALIndexWait: replacedFileWait ?? DatabaseFile.foreignWALIndexWait)
        do {
            switch access {
            case .readWrite(let name): db = try Connection(path: name, mode: .readWrite)
            case .readOnly(let name): db = try Connection(path: name, mode: .readOnly)
            case .immutable(let uri), .copy(let uri): db = try Connection(path: uri, mode: .immutable)
            }
        } catch {
            throw EntityIndexError(.storage, "cannot open the database \(path): \(error.message)", cause: error)
        }
        readsACopy = { if case .copy = access { true } else { false } }()
        identity = path == DatabaseFile.inMemory ? nil : DatabaseFile.identity(file.sqliteName)
        db.waitForLocks(timeoutSeconds: lockTimeout, report: onLockWait)
        do {
            let isNew = try checkApplication()
            try db.registerRankFunction()
            try db.execute("PRAGMA foreign_keys = ON")
            if !isReadOnly && path != DatabaseFile.inMemory {
                // Switching a new file to WAL takes the write lock after a read lock: when another process opening
                // the same new file holds it, SQLite fails at once instead of waiting (see `retryingWhileBusy`).
                try db.retryingWhileBusy {
                    let mode = try db.scalar("PRAGMA journal_mode")?.string ?? ""
                    if mode != "wal" { try db.execute("PRAGMA journal_mode = WAL") }
                }
            }
            try db.execute("PRAGMA synchronous = NORMAL")
            try db.execute("PRAGMA cache_size = -65536")  // 64 MiB, used only as the database grows
            try migrate(isNew: isNew)
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "opening \(path)")
        }
    }

    deinit { letGoIfReplaced() }

    /// Refuses a SQLite file that is not an entity index, reading only; returns whether the database is empty.
    ///
    /// An index has entityidx's application id, or (made before it was set) the `meta` and `schema_migrations`
    /// tables; an empty database becomes one.
    private func checkApplication() throws -> Bool {
        let id = Int32(truncatingIfNeeded: try db.scalar("PRAGMA application_id")?.int ?? 0)
        if id == Self.applicationID { return false }
        let tables = try db.rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
        if id == 0 && tables.isEmpty { return true }
        if id == 0 && tables.contains("meta") && tables.contains("schema_migrations") { return false }
        let what =
            id != 0
            ? "application id \(id)"
            : "tables " + tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
        throw EntityIndexError(
            .notADatabase,
            "\(path) is a SQLite database of another application (\(what)), not an entityidx index; it was left unchanged"
        )
    }

    private func migrate(isNew: Bool) throws {
        let applied: [Int]
        do {
            if isReadOnly {
                let current = try Schema.migrator.appliedVersion(db)
                if current > Schema.migrator.latestVersion {
                    throw Migrator.Failure.newerSchema(found: current, known: Schema.migrator.latestVersion)
                }
                guard current == Schema.migrator.latestVersion else {
                    throw EntityIndexError(
                        .readOnly,
                        "the database \(path) has schema version \(current) and is read-only here; open it once where it can be written, to upgrade it"
                    )
                }
                applied = []
            } else {
                applied = try Schema.migrator.migrate(db, now: Timestamp.format(now))
            }
        } catch Migrator.Failure.newerSchema(let found, let known) {
            throw EntityIndexError(
                .schemaTooNew,
                "the database \(path) has schema version \(found), newer than this entityidx understands (\(known)); use a newer entityidx"
            )
        }
        if isNew && !isReadOnly {
            try db.transaction(.immediate) {
                try stamp(Indexes.all)
                try db.execute("PRAGMA application_id = \(Self.applicationID)")
            }
        }
        indexesAreCurrent = try staleIndexes().isEmpty
        // No entity yet: another process is making this new index and has not stamped it, or it was never written.
        // Rebuilding empty indexes costs nothing, and saying they were made by another version would be wrong.
        if try !isReadOnly && !indexesAreCurrent && db.scalar("SELECT EXISTS (SELECT 1 FROM entity)")?.int == 0 {
            try rebuildStale()
        }
        if !isReadOnly && !indexesAreCurrent { try rebuildStale(onOpen: true) }
        // A schema upgrade already writes (and new columns are filled by a rebuild): then the rebuild happens now.
        if !applied.isEmpty && !isNew { try rebuildStale() }
        if !isReadOnly && !isNew && !applied.isEmpty && indexesAreCurrent {
            try db.execute("PRAGMA application_id = \(Self.applicationID)")
        }
    }

    /// Rebuilds the derived indexes made by another entityidx now (`entityidx rebuild`); returns whether any was.
    public func rebuild() throws(EntityIndexError) -> Bool {
        let stale = !indexesAreCurrent
        do {
            try prepareWrite()
        } catch {
            throw EntityIndexError.wrap(error, doing: "rebuilding the search index")
        }
        return stale
    }

    /// What every write transaction checks first: the file is writable here, still the file opened, and its search
    /// text is current (rebuilt here if not).
    func prepareWrite() throws {
        if isReadOnly {
            throw EntityIndexError(.readOnly, "the database \(path) is read-only for this process; nothing was written")
        }
        try checkFile()
        if !indexesAreCurrent { try rebuildStale() }
    }

    /// Refuses to write when the path no longer names the file that was opened (moved over, or removed): the
    /// write would go to a file nobody will open again.
    func checkFile() throws {
        guard let identity else { return }
        let current = isDetached ? nil : currentIdentity
        guard current != identity else { return }
        let what = isDetached ? "replaced or removed" : current == nil ? "removed" : "replaced by another file"
        throw EntityIndexError(
            .databaseReplaced,
            "the database file \(path) was \(what) after it was opened; nothing was written (open it again)")
    }

    /// Runs a write: in its own transaction, or inside the open batch, with the writer that hands its changes to
    /// the derived indexes. Every write purges expired entities.
    func write<T>(_ body: (IndexWriter) throws -> T) throws -> T {
        // Every write purges the expired first, and its writer finishes before the commit.
        func run() throws -> T {
            let writer = IndexWriter(self)
            try purgeExpired(writer)
            let result = try body(writer)
            try writer.finish()
            return result
        }
        if batchOpen { return try db.savepoint("write", run) }
        try prepareWrite()
        let transaction: Transaction
        do {
            transaction = try Transaction(db)
        } catch {
            throw lockError(error)
        }
        try checkFile()
        let result = try run()
        try transaction.commit()
        return result
    }

    /// Turns a failure to take the write lock into an error that says who holds it and how long this one waited.
    func lockError(_ error: any Error) -> any Error {
        guard let e = error as? SQLiteError, e.isBusy else { return error }
        let holder = LockHolder.describe(databasePath: path.hasPrefix("file:") ? "./" + path : path)
        if let reason = RequestBudget.current {
            // The wait ended with the request's budget, not with the lock timeout.
            return RequestBudget.error(
                reason, doing: "waiting for the write lock, held by \(holder ?? "another connection")", cause: e)
        }
        let waited = (db.lockWait.waited * 10).rounded() / 10
        let limit = db.lockWait.timeout.map { " (the lock timeout is \($0) s)" } ?? ""
        return EntityIndexError(
            .busy,
            "the database \(path) is locked for writing by \(holder ?? "another connection"); gave up after waiting \(waited) s\(limit); nothing was written",
            cause: e)
    }

    // MARK: - Meta

    func meta(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)])?.string
    }

    func setMeta(_ key: String, _ value: String) throws {
        try db.run(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [.text(key), .text(value)])
    }

}

extension EntityIndexError {
    /// Turns a storage error into an engine error with a code a caller can act on.
    static func wrap(_ error: any Error, doing what: String) -> EntityIndexError {
        if let e = error as? EntityIndexError { return e }
        guard let e = error as? SQLiteError else {
            return EntityIndexError(.storage, "\(what): \(error)", cause: error)
        }
        if e.isBusy {
            return EntityIndexError(
                .busy, "the database is busy (another process holds the write lock); try again", cause: e)
        }
        if e.isInterrupted {
            return RequestBudget.error(RequestBudget.current ?? .signal, doing: what, cause: e)
        }
        if e.isOutOfMemory {
            return EntityIndexError(.resourceExhausted, "out of memory while \(what); nothing was changed", cause: e)
        }
        if e.isFull {
            return EntityIndexError(
                .diskFull, "the disk or database is full while \(what); nothing was changed", cause: e)
        }
        if e.isReadOnly {
            return EntityIndexError(.readOnly, "the database is read-only while \(what): \(e.message)", cause: e)
        }
        if e.isCorrupt {
            return EntityIndexError(
                .notADatabase, "the file is not an entityidx database or is corrupt (\(e.message))", cause: e)
        }
        // The SQL stays in `cause` (for logs and tests): a client is told what failed, not the statement.
        return EntityIndexError(.storage, "storage error while \(what): SQLite error \(e.code): \(e.message)", cause: e)
    }
}
