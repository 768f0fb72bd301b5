import SQLite

/// What an export wrote.
public struct ExportCounts: Sendable, Equatable {
    /// Records written.
    public var records = 0
    /// Bytes of JSON text written, line ends not counted.
    public var bytes = 0

    public init() {}
}

extension EntityStore {
    /// Reads every record a query would see, as stored, by type then id (byte order), and hands each record's JSON
    /// text to `write`, one at a time.
    ///
    /// The records are read with one statement from one snapshot of the index (a read transaction), a row at a
    /// time, so that memory does not grow with their number. Expired entities are left out, as every query leaves
    /// them out; hidden ones are exported (they are hidden from Spotlight only). `types`, when not empty, keeps
    /// only those types. The text is the record as `ingest` stored it (an integer id as its string), and ingesting
    /// it again stores the same text: an export ingested into a fresh index exports the same bytes.
    /// A stop signal ends the export at the next row (`Statement.step`).
    public func export(types: [String] = [], _ write: ([UInt8]) throws(EntityIndexError) -> Void)
        throws(EntityIndexError) -> ExportCounts
    {
        var counts = ExportCounts()
        let ordered = Set(types).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        do {
            try db.read {
                if ordered.isEmpty {
                    // `+expires_at` keeps the planner off the expiry index, so that the rows come in the order
                    // of UNIQUE(type, id) instead of being sorted, records and all, before the first one.
                    let s = try db.prepare(
                        "SELECT type, id, record FROM entity WHERE +expires_at > ? ORDER BY type, id")
                    try s.bind([.integer(now)])
                    try exportRows(s, typeColumn: 0, type: nil, into: &counts, write)
                } else {
                    let s = try db.prepare(
                        "SELECT NULL, id, record FROM entity WHERE type = ? AND +expires_at > ? ORDER BY id")
                    for type in ordered {
                        try s.bind([.text(type), .integer(now)])
                        try exportRows(s, typeColumn: nil, type: type, into: &counts, write)
                        s.reset()
                    }
                }
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "exporting records")
        }
        return counts
    }

    /// Steps `s` (columns: type or NULL, id, record) to its end, writing each record's text.
    private func exportRows(
        _ s: Statement, typeColumn: Int32?, type: String?, into counts: inout ExportCounts,
        _ write: ([UInt8]) throws(EntityIndexError) -> Void
    ) throws {
        let dictionaries = db.recordDictionaries
        while try s.step() {
            guard let text = StoredRecord.decode(s.borrowedBytes(2), dictionaries) else {
                let key = EntityKey(type: typeColumn.map { s.text($0) } ?? type ?? "", id: s.text(1))
                throw EntityIndexError(
                    .storage,
                    "the stored record of \(key) cannot be read (its compressed bytes are damaged or name a dictionary the index does not hold); delete it or ingest it again"
                )
            }
            try write(text)
            counts.records += 1
            counts.bytes += text.count
        }
    }
}
