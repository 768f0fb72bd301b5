import SQLite

/// One index derived from the stored records: the tables it alone writes, the stamp of what made them, and how it
/// takes a change of one entity.
///
/// Every write (upsert, delete, purge of the expired, a type's new declarations, a rebuild) becomes `Change`s that an
/// `IndexWriter` hands to each index of `Indexes.all`, in order; delete-all and a rebuild empty `tables`. A new index
/// is one type in this folder, its entry in `Indexes.all` and a migration creating its tables: nothing else names them.
protocol DerivedIndex: Sendable {
    /// Its row in `index_version`.
    var name: String { get }
    /// What made the index: when the stamp stored for it differs, it alone is rebuilt from the records. Bump the
    /// index's own version when what it holds for a record changes.
    var stamp: String { get }
    /// The tables it alone writes, emptied by delete-all and before its rebuild.
    var tables: [String] { get }
    /// Those of `tables` that are FTS5 tables (emptied with their 'delete-all' command).
    var fullTextTables: Set<String> { get }
    /// Whether answers read from a stale copy would be wrong, not merely ranked differently: such an index is
    /// rebuilt as soon as the database is opened where it can be written, the others by the first write.
    var rebuildsOnOpen: Bool { get }
    /// Takes one change of one entity. For a replace or a delete the entity row still holds the old record; for an
    /// insert or a replace of the row's rowid the new one is applied after the row was written.
    func apply(_ change: Change, _ writer: IndexWriter) throws
    /// Writes what the index held back during the write (rows kept to be written in order), before the commit.
    func finish(_ writer: IndexWriter) throws
}

extension DerivedIndex {
    var rebuildsOnOpen: Bool { false }
    var fullTextTables: Set<String> { [] }
    func finish(_ writer: IndexWriter) throws {}

    /// The stamp of an index made from analyzed text: its own version, the text pipeline's and ICU's.
    static func textStamp(_ version: Int) -> String {
        "\(version) text \(TextAnalyzer.version) icu \(TextAnalyzer.icuVersion)"
    }

    /// Empties the index's tables.
    func empty(_ db: Connection) throws {
        for table in tables {
            try db.execute(
                fullTextTables.contains(table)
                    ? "INSERT INTO \(table)(\(table)) VALUES ('delete-all')" : "DELETE FROM \(table)")
        }
    }
}

/// One change of one entity, carrying the records each index derives its rows from.
enum Change {
    case insert(rowid: Int64, new: AnalyzedRecord)
    /// `old` is the stored record being replaced, analyzed again from its bytes.
    case replace(rowid: Int64, old: AnalyzedRecord, new: AnalyzedRecord)
    case delete(rowid: Int64, old: AnalyzedRecord)

    var rowid: Int64 {
        switch self {
        case .insert(let rowid, _), .replace(let rowid, _, _), .delete(let rowid, _): rowid
        }
    }
    /// The record the entity holds after the change (nil once deleted).
    var new: AnalyzedRecord? {
        switch self {
        case .insert(_, let new), .replace(_, _, let new): new
        case .delete: nil
        }
    }
    /// The record the entity held before (nil for an insert).
    var old: AnalyzedRecord? {
        switch self {
        case .insert: nil
        case .replace(_, let old, _), .delete(_, let old): old
        }
    }
}

/// The derived indexes, in the order a change is applied to them.
enum Indexes {
    static let all: [any DerivedIndex] = [
        SearchTextIndex(), VocabularyIndex(), PropertyIndex(), RelationIndex(), SpotlightKeyIndex(),
    ]

    static func named(_ name: String) -> (any DerivedIndex)? { all.first { $0.name == name } }
}
