import JSON
import SQLite

/// How an ingest changed the index.
public struct IngestCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0
    /// Records left out by an ingest that skips invalid records (`Ingestion.skipsInvalid`), and their problems.
    public var skipped = 0
    public var problems: [RecordProblem] = []
    /// Whether the ingest skipped invalid records instead of refusing the input (its result then lists them).
    public var skipsInvalid = false
    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
    public var total: Int { inserted + updated + unchanged }
}

/// An all-or-nothing ingest: records are upserted as they come, inside one transaction (or one savepoint of an
/// open batch), and `finish()` commits only if every record was valid. With `skipsInvalid`, invalid records are
/// left out instead, the valid ones commit, and the counts list every skipped record's problems.
///
/// Records are streamed: memory does not grow with the number of records. A bad record stops the writing but not
/// the reading, so that one run reports every bad record of the input.
public final class Ingestion {
    public static let maxListedProblems = 100

    let store: EntityStore
    public private(set) var counts = IngestCounts()
    public private(set) var problems: [RecordProblem] = []
    public private(set) var problemCount = 0
    /// Every problem, gathered by field and text (what a person reads when one mistake repeats in many records).
    public private(set) var problemGroups = ProblemGroups()
    public private(set) var position = 0
    /// Prepares records against the declarations as they stand when the ingest starts.
    public let preparer: RecordPreparer
    /// What hands this ingest's changes to the derived indexes, made with the transaction (it rolls back with what it
    /// interned and held, so it lives as long as the transaction).
    private var writer: IndexWriter?
    /// Whether any reindex request waits for entities (if not, ingest skips settling them).
    private var reindexPending: Bool

    /// The transaction (or savepoint of the open batch), taken with the first record to write, so that a slow
    /// producer holds no lock while it has nothing to give; rolled back unless the ingest commits it.
    private var transaction: Transaction?
    /// Set when the declarations changed between the start and the taking of the lock: records prepared against the
    /// old ones are derived again.
    private var declarationsChanged = false
    /// Leave invalid records out and commit the others (`ingest --skip-invalid`) instead of refusing the input.
    public let skipsInvalid: Bool
    /// How many records were rejected, and the position of the last one (a record may have several problems).
    private var rejectedRecords = 0
    private var lastRejectedPosition = 0

    init(store: EntityStore, skipsInvalid: Bool = false) throws {
        self.store = store
        self.skipsInvalid = skipsInvalid
        preparer = RecordPreparer(
            declarations: try store.allDeclarations(), stemmed: try store.stemmedTypes(),
            transliterated: try store.transliteratedTypes(), dictionary: try store.db.recordDictionaries.newest())
        reindexPending = true
    }

    /// Takes the write lock (or a savepoint of the open batch), and reads again what was read without it.
    private func begin() throws {
        if let transaction {
            guard transaction.isOpen else {
                throw EntityIndexError(.storage, "the ingest was already committed or rolled back; start another")
            }
            return
        }
        if store.batchOpen {
            transaction = try Transaction(store.db, savepoint: "ingest")
        } else {
            try store.prepareWrite()
            do {
                transaction = try Transaction(store.db)
            } catch {
                throw store.lockError(error)
            }
        }
        try store.checkFile()
        reindexPending = try store.db.scalar("SELECT EXISTS (SELECT 1 FROM reindex_outstanding)")?.int == 1
        // The dictionary records are compressed with was read before the lock: stored again if a rollback since
        // (an aborted batch that trained it) took it away.
        if let dictionary = preparer.dictionary { try store.db.recordDictionaries.add(dictionary, now: store.now) }
        let declarations = try store.allDeclarations(type: nil), stemmed = try store.stemmedTypes()
        let transliterated = try store.transliteratedTypes()
        var current = preparer
        if declarations != preparer.declarations || stemmed != preparer.stemmed
            || transliterated != preparer.transliterated
        {
            declarationsChanged = true
            current = RecordPreparer(
                declarations: declarations, stemmed: stemmed, transliterated: transliterated,
                dictionary: preparer.dictionary)
        }
        writer = IndexWriter(store, preparer: current)
    }

    /// Records a problem found before validation (a line that is not JSON, say).
    public func reject(_ problem: RecordProblem) {
        position = max(position, problem.position)
        problemCount += 1
        problemGroups.add(problem)
        if problem.position != lastRejectedPosition {
            rejectedRecords += 1
            lastRejectedPosition = problem.position
        }
        // Skipping records reports every one of them; refusing the input lists the first ones.
        if skipsInvalid || problems.count < Self.maxListedProblems { problems.append(problem) }
    }

    /// Validates and upserts one record; problems are collected, not thrown.
    public func add(_ value: JSONValue, position: Int? = nil, line: Int? = nil) throws(EntityIndexError) {
        try add(preparer.prepare(value, position: position ?? (self.position + 1), line: line))
    }

    /// Upserts one prepared record, or collects its problems.
    public func add(_ prepared: PreparedRecord) throws(EntityIndexError) {
        position = max(position, prepared.position)
        switch prepared.outcome {
        case .invalid(let problems):
            for problem in problems { reject(problem) }
        case .valid(let record, let stored, let analyzed):
            guard problemCount == 0 || skipsInvalid else { return }  // nothing will be committed; keep validating only
            do {
                try begin()
                try upsert(record, stored: stored, analyzed: declarationsChanged ? nil : analyzed)
            } catch {
                throw EntityIndexError.wrap(error, doing: "ingesting record \(prepared.position) (\(record.key))")
            }
        }
    }

    /// Stores a dictionary the records that follow are compressed with (`Producer`), in the ingest's transaction.
    func add(_ dictionary: RecordDictionary) throws(EntityIndexError) {
        guard problemCount == 0 || skipsInvalid else { return }  // nothing will be committed
        do {
            try begin()
            try store.db.recordDictionaries.add(dictionary, now: store.now)
        } catch {
            throw EntityIndexError.wrap(error, doing: "storing the dictionary of records \(position + 1) and on")
        }
    }

    /// Commits when every record was valid (or, with `skipsInvalid`, the valid ones); otherwise rolls back and
    /// throws an error listing the bad records.
    @discardableResult
    public func finish() throws(EntityIndexError) -> IngestCounts {
        if skipsInvalid {
            counts.skipsInvalid = true
            counts.skipped = rejectedRecords
            counts.problems = problems
        }
        guard problemCount == 0 || skipsInvalid else {
            rollback()
            var message = problemCount == 1 ? "1 problem" : "\(problemCount) problems"
            message +=
                " in the input; nothing was ingested:\n"
                + problems.map { "  " + $0.description }.joined(separator: "\n")
            if problemCount > problems.count { message += "\n  … and \(problemCount - problems.count) more" }
            throw EntityIndexError(.invalidRecord, message, details: problems)
        }
        // Nothing to write (an empty input): no lock was taken, nothing changes.
        guard let transaction, let writer else { return counts }
        do {
            try store.purgeExpired(writer)
            try writer.finish()
            self.writer = nil
            try transaction.commit()
        } catch {
            rollback()
            throw EntityIndexError.wrap(error, doing: "committing the ingest")
        }
        return counts
    }

    /// Abandons the ingest: nothing of it stays (also when the ingest is dropped unfinished).
    public func rollback() {
        transaction?.rollback()
        writer = nil
    }

    private func upsert(_ record: EntityRecord, stored: StoredRecord, analyzed: AnalyzedRecord?) throws {
        guard let writer else { return }
        let db = store.db
        let now = store.now
        let expires = record.expiresAt ?? EntityStore.defaultExpiry(from: now)
        let existing = try db.cached("SELECT rowid, record FROM entity WHERE type = ? AND id = ?")
        try existing.bind([.text(record.type), .text(record.id)])
        var rowid: Int64?
        var same = false
        if try existing.step() {
            rowid = existing.int(0)
            same = existing.holds(1, stored)
        }
        existing.reset()
        if reindexPending {
            try db.run(
                "DELETE FROM reindex_outstanding WHERE type = ? AND id = ?", [.text(record.type), .text(record.id)])
        }

        if let rowid, same {
            // A record stored in an older form (as text, deflated, another dictionary) takes the current one; one
            // in the current form was not compressed again (`Producer.prepare`: its value is null) and is kept.
            try db.run(
                "UPDATE entity SET ingested_at = ?, expires_at = ?, record = coalesce(?, record) WHERE rowid = ?",
                [.integer(now), .integer(expires), stored.value, .integer(rowid)])
            counts.unchanged += 1
            return
        }
        // Found unchanged by the reading thread but changed since (by an earlier record of this input): compressed
        // here, with the dictionary the database now has.
        let stored =
            stored.value == .null
            ? StoredRecord(text: stored.text, dictionary: try db.recordDictionaries.newest()) : stored
        let new = try analyzed ?? writer.analyzed(record)
        let values: [SQLValue] = [
            .text(new.document?.idKey ?? TextAnalyzer.idKey(record.id)), .text(record.title), stored.value,
            SQLValue(record.domain), SQLValue(record.hidden), SQLValue(record.rankingHint), SQLValue(record.priority),
            SQLValue(record.lastUsedAt), .integer(now), .integer(expires),
        ]
        if let rowid {
            // The indexes take the change while the row still holds the record it replaces.
            let old = try db.rows("SELECT record FROM entity WHERE rowid = ?", [.integer(rowid)]) { $0.record(0) }
            try writer.apply(.replace(rowid: rowid, old: try writer.stored(old[0], type: record.type), new: new))
            try db.run(
                """
                UPDATE entity SET id_key = ?, title = ?, record = ?, domain = ?, hidden = ?, ranking_hint = ?, priority = ?,
                    last_used_at = ?, ingested_at = ?, expires_at = ? WHERE rowid = ?
                """, values + [.integer(rowid)])
            counts.updated += 1
        } else {
            try db.run(
                """
                INSERT INTO entity(type, id, id_key, title, record, domain, hidden, ranking_hint, priority, last_used_at,
                    ingested_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(record.type), .text(record.id)] + values)
            try writer.apply(.insert(rowid: db.lastInsertRowID, new: new))
            counts.inserted += 1
        }
    }
}

extension EntityStore {
    /// Starts an all-or-nothing ingest, or one that leaves invalid records out (`skipInvalid`).
    public func beginIngest(skipInvalid: Bool = false) throws(EntityIndexError) -> Ingestion {
        do {
            return try Ingestion(store: self, skipsInvalid: skipInvalid)
        } catch {
            throw EntityIndexError.wrap(error, doing: "starting an ingest")
        }
    }

    /// Ingests a list of records at once (the pipe's `ingest`).
    ///
    /// Many records are prepared on a second thread while this one writes (see `Ingestion.addAll`).
    public func ingest(_ records: [JSONValue], skipInvalid: Bool = false) throws(EntityIndexError) -> IngestCounts {
        let ingestion = try beginIngest(skipInvalid: skipInvalid)
        if records.count >= Self.parallelIngestThreshold {
            try ingestion.addAll(records)
        } else {
            for record in records { try ingestion.add(record) }
        }
        return try ingestion.finish()
    }

    /// From this many records a list is ingested on two threads (below, starting a thread costs more than it saves).
    static let parallelIngestThreshold = 256

    /// Deletes entities past their expiry. Called by every write.
    ///
    /// An entity pushed at this very `now` is kept even when already expired, so that re-ingesting the same input
    /// reports it unchanged instead of inserting it again; a later write purges it. Until then `stats` counts it.
    func purgeExpired(_ writer: IndexWriter) throws {
        try deleteEntities(where: "e.expires_at <= ? AND e.ingested_at < ?", [.integer(now), .integer(now)], writer)
    }
}
