import SQLite

/// The keys of the text values Core Spotlight queries compare (`spotlight_key`; attribute names interned in
/// `spotlight_attr`), found by their whole key like `relation`'s. The values are folded by ICU: keys made by
/// another ICU would not be found again, so a stale copy is rebuilt as soon as the database can be written.
struct SpotlightKeyIndex: DerivedIndex {
    var name: String { "spotlight_keys" }
    var stamp: String { "2 icu \(TextAnalyzer.icuVersion)" }
    var tables: [String] { ["spotlight_key"] }
    var rebuildsOnOpen: Bool { true }

    func apply(_ change: Change, _ writer: IndexWriter) throws {
        switch change {
        case .insert(let rowid, let new):
            try writer.store.writeSpotlightKeys(rowid: rowid, keys: new.spotlightKeys, interned: writer.interned)
        case .replace(let rowid, let old, let new):
            try writer.store.writeSpotlightKeys(
                rowid: rowid, keys: new.spotlightKeys, replacing: old.spotlightKeys, interned: writer.interned)
        case .delete(let rowid, let old):
            try writer.store.deleteSpotlightKeys(rowid: rowid, old.spotlightKeys)
        }
    }
}
