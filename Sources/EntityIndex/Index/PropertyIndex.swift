import SQLite

/// The rows property queries and sorting read (`property`, one per value, and `property_kind`, which kinds each
/// property of a type has held). A property's rows go with its entity's row (a foreign key), so a delete has
/// nothing to do here.
struct PropertyIndex: DerivedIndex {
    var name: String { "properties" }
    /// String values are compared by their normalized text. Version 2: an empty array is a row of its own
    /// (schema/021).
    var stamp: String { Self.textStamp(2) }
    var tables: [String] { ["property", "property_kind"] }

    func apply(_ change: Change, _ writer: IndexWriter) throws {
        guard let new = change.new, let record = new.record else {
            if case .replace(let rowid, _, _) = change {
                try writer.db.run("DELETE FROM property WHERE entity = ?", [.integer(rowid)])
            }
            return
        }
        try writer.store.writeProperties(
            rowid: change.rowid, type: record.type, rows: new.properties, replacing: change.old != nil,
            kinds: &writer.kinds, interned: writer.interned)
    }
}
