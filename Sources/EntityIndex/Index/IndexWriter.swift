import JSON
import SQLite

/// What one write transaction holds while it changes the derived indexes: the indexes it keeps, the declarations
/// stored records are analyzed again with, the names it interned, and the rows held back to be written in order.
///
/// Made inside the transaction (`EntityStore.write`, an ingest's first record, a rebuild) and finished before it
/// commits; a rollback drops it with everything it held.
final class IndexWriter {
    let store: EntityStore
    var db: Connection { store.db }
    /// The indexes this write keeps: all of them, or those a rebuild refills.
    let indexes: [any DerivedIndex]
    /// Whether the write refills indexes from the stored records (`EntityStore.rebuild(_:)`).
    let isRebuild: Bool
    /// The interned names this write read or made.
    let interned = InternedIDs()
    /// The rows of `property_kind` this write wrote.
    var kinds = Set<PropertyKindKey>()
    /// The words this write put in `vocabulary`.
    var knownTerms = Set<String>()
    /// Full-text rows held to be written in document order (`SearchTextIndex`), and their text's bytes.
    var heldRows: [DeferredIndexRow] = []
    var heldBytes = 0
    /// How many documents this write gave the full-text indexes (a large share is followed by a merge).
    var documentsWritten = 0
    /// The indexes found not to hold what the stored records give (a delete could not find what it was to delete):
    /// they are rebuilt from the records as they are when the write finishes, whatever was written to them since.
    var foundStale = Set<String>()

    private var declarations: RecordPreparer?

    init(
        _ store: EntityStore, indexes: [any DerivedIndex] = Indexes.all, preparer: RecordPreparer? = nil,
        isRebuild: Bool = false
    ) {
        self.store = store
        self.indexes = indexes
        self.isRebuild = isRebuild
        declarations = preparer
    }

    /// The declarations and text settings records are analyzed with, as they stand in this transaction.
    func preparer() throws -> RecordPreparer {
        if let declarations { return declarations }
        let current = RecordPreparer(
            declarations: try store.allDeclarations(), stemmed: try store.stemmedTypes(),
            transliterated: try store.transliteratedTypes())
        declarations = current
        return current
    }

    /// A stored record, to be analyzed again as it was indexed.
    func stored(_ json: JSONObject, type: String) throws -> AnalyzedRecord {
        let preparer = try preparer()
        return AnalyzedRecord(
            stored: json, declarations: preparer.declarations(for: type), stemming: preparer.stemmed.contains(type),
            transliterating: preparer.transliterated.contains(type))
    }

    /// A record being written, analyzed with the declarations of this transaction.
    func analyzed(_ record: EntityRecord) throws -> AnalyzedRecord {
        let preparer = try preparer()
        return AnalyzedRecord(
            record, declarations: preparer.declarations(for: record.type),
            stemming: preparer.stemmed.contains(record.type),
            transliterating: preparer.transliterated.contains(record.type))
    }

    /// Hands one change to every index this write keeps, in order.
    func apply(_ change: Change) throws {
        for index in indexes { try index.apply(change, self) }
    }

    /// Writes what the indexes held back, and rebuilds those found stale; called once, before the commit.
    func finish() throws {
        for index in indexes where !foundStale.contains(index.name) { try index.finish(self) }
        let stale = indexes.filter { foundStale.contains($0.name) }
        guard !stale.isEmpty else { return }
        heldRows = []
        heldBytes = 0
        try store.rebuild(stale)
    }
}

extension EntityStore {
    /// Deletes the entities `condition` (on `entity e`) selects: each index takes the `.delete` of its stored
    /// record, then the row goes (its `property` and `search_doc` rows with it, by their foreign keys). Returns how
    /// many were deleted.
    @discardableResult
    func deleteEntities(where condition: String, _ arguments: [SQLValue], _ writer: IndexWriter) throws -> Int {
        let rows = try db.rows("SELECT e.rowid, e.type, e.record FROM entity e WHERE \(condition)", arguments) {
            ($0.int(0), $0.text(1), $0.record(2))
        }
        guard !rows.isEmpty else { return 0 }
        let delete = try db.cached("DELETE FROM entity WHERE rowid = ?")
        for (rowid, type, json) in rows {
            try writer.apply(.delete(rowid: rowid, old: try writer.stored(json, type: type)))
            try delete.bind([.integer(rowid)])
            defer { delete.reset() }
            while try delete.step() {}
        }
        return rows.count
    }
}
