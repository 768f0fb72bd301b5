import JSON
import SQLite

/// The entity index: one SQLite database holding entities, their search index and the system-side state.
///
/// A store is used from one thread at a time. Several stores (in one or several processes) can share a database:
/// WAL lets readers proceed while a writer commits, and writers wait (`busy_timeout`) instead of failing.
public final class EntityStore {
    public let db: Connection
    public let path: String
    /// The clock: fixed by `--now`, else the wall clock at open.
    public var now: Int64
    /// Changes made between `batch.begin` and `batch.end` are held in an open transaction.
    var batchOpen = false

    /// Core Spotlight's default: an entity expires one month after its last ingest.
    static func defaultExpiry(from now: Int64) -> Int64 { Timestamp.addingMonth(to: now) }

    /// Opens (creating if needed) the database at `path`, migrating it to the current schema.
    ///
    /// When the database was indexed by another version of the text pipeline, its normalized text is rebuilt
    /// first; `onRebuild` is told how many entities that concerns, so that a caller can say why it waits.
    public init(path: String, now: Int64, busyTimeoutMilliseconds: Int32 = 10_000,
                onRebuild: ((Int) -> Void)? = nil) throws(EntityIndexError) {
        self.path = path
        self.now = now
        do {
            db = try Connection(path: path)
        } catch {
            throw EntityIndexError(.storage, "cannot open the database \(path): \(error.message)", cause: error)
        }
        db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        do {
            try db.execute("PRAGMA foreign_keys = ON")
            let mode = try db.scalar("PRAGMA journal_mode = WAL")?.string ?? ""
            if mode != "wal" && path != ":memory:" { try db.execute("PRAGMA journal_mode = WAL") }
            try db.execute("PRAGMA synchronous = NORMAL")
            try db.execute("PRAGMA cache_size = -65536") // 64 MiB, used only as the database grows
            try migrate(onRebuild: onRebuild)
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "opening \(path)")
        }
    }

    private func migrate(onRebuild: ((Int) -> Void)?) throws {
        do {
            try Schema.migrator.migrate(db, now: Timestamp.format(now))
        } catch Migrator.Failure.newerSchema(let found, let known) {
            throw EntityIndexError(
                .schemaTooNew,
                "the database \(path) has schema version \(found), newer than this entityidx understands (\(known)); use a newer entityidx"
            )
        }
        let stored = try meta("text_version").flatMap { Int($0) }
        if stored != TextAnalyzer.version {
            let count = Int(try db.scalar("SELECT count(*) FROM entity")?.int ?? 0)
            if count > 0 { onRebuild?(count) }
            try db.transaction { try rebuildSearchText() }
        }
    }

    /// Runs a write: in its own transaction, or inside the open batch. Every write purges expired entities.
    func write<T>(_ body: () throws -> T) throws -> T {
        if batchOpen { return try db.savepoint("write") { try purgeExpired(); return try body() } }
        return try db.transaction(.immediate) { try purgeExpired(); return try body() }
    }

    // MARK: - Meta

    func meta(_ key: String) throws -> String? {
        try db.scalar("SELECT value FROM meta WHERE key = ?", [.text(key)])?.string
    }

    func setMeta(_ key: String, _ value: String) throws {
        try db.run("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   [.text(key), .text(value)])
    }

    /// Recomputes the normalized text of every entity (after the text pipeline changed) and rebuilds the index.
    func rebuildSearchText() throws {
        try db.run("DELETE FROM vocabulary")
        try rederive(type: nil, updatingIndex: false)
        try db.execute("INSERT INTO search(search) VALUES ('rebuild')")
        try db.execute("INSERT INTO search_code(search_code) VALUES ('rebuild')")
        try setMeta("text_version", String(TextAnalyzer.version))
        try setMeta("icu_version", TextAnalyzer.icuVersion)
    }

    /// Re-derives what is computed from the stored records (id keys, search documents, property rows) for one type
    /// or for all, after the text pipeline or a type's declarations changed. Without `updatingIndex` the FTS index is
    /// left to the caller (a full rebuild re-reads every search document at once).
    func rederive(type: String?, updatingIndex: Bool = true) throws {
        let rows = try type.map { t in
            try db.rows("SELECT rowid, record FROM entity WHERE type = ?", [.text(t)]) { ($0.int(0), $0.text(1)) }
        } ?? db.rows("SELECT rowid, record FROM entity") { ($0.int(0), $0.text(1)) }
        let preparer = RecordPreparer(declarations: try allDeclarations(type: type))
        var kinds = Set<PropertyKindKey>()
        var knownTerms = Set<String>()
        for (rowid, text) in rows {
            guard case .success(let record) = RecordValidator.validate(.object(Self.parseRecord(text)), position: 0) else { continue }
            let derived = preparer.derive(record)
            try db.run("UPDATE entity SET id_key = ? WHERE rowid = ?", [.text(derived.document.idKey), .integer(rowid)])
            try writeSearchDocument(derived.document, rowid: rowid, replacing: true,
                                    newTerms: derived.terms.filter { knownTerms.insert($0).inserted }, updatingIndex: updatingIndex)
            try writeProperties(rowid: rowid, type: record.type, rows: derived.properties, replacing: true, kinds: &kinds)
        }
    }
}

extension EntityIndexError {
    /// Turns a storage error into an engine error with a code a caller can act on.
    static func wrap(_ error: any Error, doing what: String) -> EntityIndexError {
        if let e = error as? EntityIndexError { return e }
        guard let e = error as? SQLiteError else { return EntityIndexError(.storage, "\(what): \(error)", cause: error) }
        if e.isBusy { return EntityIndexError(.busy, "the database is busy (another process holds the write lock); try again", cause: e) }
        if e.isFull { return EntityIndexError(.diskFull, "the disk or database is full while \(what); nothing was changed", cause: e) }
        if e.isReadOnly { return EntityIndexError(.readOnly, "the database is read-only while \(what): \(e.message)", cause: e) }
        if e.isCorrupt { return EntityIndexError(.notADatabase, "the file is not an entityidx database or is corrupt (\(e.message))", cause: e) }
        return EntityIndexError(.storage, "storage error while \(what): \(e)", cause: e)
    }
}
