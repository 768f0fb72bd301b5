import JSON
import SQLite

/// The stamps of the derived indexes (`index_version`, one row per index) and the one loop that refills them from
/// the stored records.
extension EntityStore {
    /// The indexes whose stored stamp is not the one this entityidx writes (a missing row is stale too).
    func staleIndexes() throws -> [any DerivedIndex] {
        let stored = Dictionary(
            try db.rows("SELECT name, version FROM index_version") { ($0.text(0), $0.text(1)) },
            uniquingKeysWith: { $1 })
        return Indexes.all.filter { stored[$0.name] != $0.stamp }
    }

    /// The stamp stored for an index (nil when it has none).
    func storedStamp(_ name: String) throws -> String? {
        try db.scalar("SELECT version FROM index_version WHERE name = ?", [.text(name)])?.string
    }

    /// Records that these indexes were made by this entityidx.
    func stamp(_ indexes: [any DerivedIndex]) throws {
        let upsert = try db.cached(
            "INSERT INTO index_version(name, version) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET version = excluded.version"
        )
        for index in indexes {
            try upsert.bind([.text(index.name), .text(index.stamp)])
            defer { upsert.reset() }
            while try upsert.step() {}
        }
    }

    /// Empties these indexes and fills them again from the stored records, with the declarations as they are, in
    /// the open transaction: one pass over the records, whatever the number of indexes; then stamps them.
    ///
    /// Records are read a run of rowids at a time, so that memory holds one run and no statement reads `entity`
    /// while an index writes to it.
    func rebuild(_ indexes: [any DerivedIndex]) throws {
        guard !indexes.isEmpty else { return }
        for index in indexes { try index.empty(db) }
        let writer = IndexWriter(self, indexes: indexes, isRebuild: true)
        try refill(writer, where: nil, [])
        try writer.finish()
        try stamp(indexes)
    }

    /// Hands every stored record `condition` (on `entity e`) selects to the writer as an insert.
    func refill(_ writer: IndexWriter, where condition: String?, _ arguments: [SQLValue]) throws {
        let filter = condition.map { " AND (\($0))" } ?? ""
        let read = "SELECT e.rowid, e.type, e.record FROM entity e WHERE e.rowid > ?\(filter) ORDER BY e.rowid LIMIT ?"
        var last: Int64 = .min
        while true {
            let rows = try db.rows(read, [.integer(last)] + arguments + [.integer(Int64(Self.refillRun))]) {
                ($0.int(0), $0.text(1), $0.record(2))
            }
            for (rowid, type, json) in rows {
                try writer.apply(.insert(rowid: rowid, new: try writer.stored(json, type: type)))
            }
            guard rows.count == Self.refillRun, let next = rows.last?.0 else { return }
            last = next
        }
    }

    /// How many records a refill reads at a time.
    static let refillRun = 1_024

    /// Rebuilds the stale indexes, in their own transaction: the stamps are read again once the write lock is held,
    /// so that of several processes only the first rebuilds. `onOpen`: only those whose stale answers would be
    /// wrong (`DerivedIndex.rebuildsOnOpen`).
    func rebuildStale(onOpen: Bool = false) throws {
        guard !batchOpen else { return }
        let stale = try staleIndexes().filter { !onOpen || $0.rebuildsOnOpen }
        guard !stale.isEmpty else {
            if !onOpen { indexesAreCurrent = true }
            return
        }
        try db.transaction(.immediate) {
            try checkFile()
            let stale = try staleIndexes().filter { !onOpen || $0.rebuildsOnOpen }
            if !stale.isEmpty {
                // Only a rebuild of the search text takes long enough to tell the caller about.
                if stale.contains(where: { $0.name == SearchTextIndex().name }) {
                    let count = Int(try db.scalar("SELECT count(*) FROM entity")?.int ?? 0)
                    if count > 0 { onRebuild?(count) }
                }
                try rebuild(stale)
            }
            if try db.scalar("PRAGMA application_id")?.int != Int64(Self.applicationID) {
                try db.execute("PRAGMA application_id = \(Self.applicationID)")
            }
        }
        indexesAreCurrent = try staleIndexes().isEmpty
    }
}
