import SQLite

/// The other direction of `related` (`relation`: one row per listed entity and entity that lists it; the types
/// interned in `entity_type`). Its rows are found by their whole key: a replace deletes those the new record no
/// longer lists and adds the new ones; a delete takes those its record wrote.
struct RelationIndex: DerivedIndex {
    var name: String { "relations" }
    var stamp: String { "1" }
    var tables: [String] { ["relation", "entity_type"] }

    func apply(_ change: Change, _ writer: IndexWriter) throws {
        switch change {
        case .insert(let rowid, let new):
            try writer.store.writeRelations(rowid: rowid, new.related, interned: writer.interned)
        case .replace(let rowid, let old, let new):
            try writer.store.writeRelations(
                rowid: rowid, new.related, replacing: old.related, interned: writer.interned)
        case .delete(let rowid, let old):
            try writer.store.deleteRelations(rowid: rowid, old.related)
        }
    }
}
