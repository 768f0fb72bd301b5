import JSON
import SQLite

/// The normalized text of one entity, column by column, as stored in `search_doc` and indexed by FTS5.
///
/// Columns, best first: title, names (synonyms and keywords), subtitle, description, props (string properties),
/// ident (the id). A property declared with an `indexingKey` is searched in the column of that Spotlight attribute.
struct SearchDocument {
    static let columnNames = ["title", "names", "subtitle", "description", "props", "ident"]
    var columns: [String]
    /// The title's tokens alone (no compound or CJK expansions), for the exactness tier.
    var titlePlain: String
    /// The document's words for `vocabulary` (terms without digits), repeats included.
    var vocabularyTerms: [String]
    /// The id and the words with digits of the title, names and string properties, normalized and joined, for the
    /// trigram index (`search_code`); those shorter than a trigram are left out.
    var codes: String
    /// The id's tokens joined (`#1042-A` → `1042a`), for exact-id matching (`entity.id_key`).
    var idKey: String
    /// The high bits of the document's id in the full-text indexes: how it ranks inside a tier (see `DocumentRank`).
    var rank: DocumentRank
    /// `DocumentRank.nameKey` of each synonym and keyword, for the "a name equals the query" lookup (`name_key`).
    var nameKeys: [Int64]

    /// `stemming`: each column's words are also indexed by their stems (`Stemming`), after the words.
    init(_ record: EntityRecord, declarations: [String: PropertyDeclaration], stemming: Bool = false) {
        var title = [record.title], names = record.synonyms + record.keywords
        var subtitle = record.subtitle.map { [$0] } ?? [], description = record.description.map { [$0] } ?? []
        var props: [String] = []
        for (name, value) in record.properties {
            let texts = SearchDocument.strings(value)
            guard !texts.isEmpty else { continue }
            switch declarations[name]?.column {
            case 0?: title += texts
            case 1?: names += texts
            case 2?: subtitle += texts
            case 3?: description += texts
            default: props += texts
            }
        }
        var vocabulary: [String] = []
        var codes: [String] = []
        func text(_ parts: [String], keepingCodes: Bool = false) -> String {
            var found: [String] = []
            let terms = parts.flatMap { TextAnalyzer.indexTerms($0, codes: &found) }
            if keepingCodes { codes += found }
            vocabulary += terms.filter(Self.isVocabularyWord)
            return (stemming ? terms + Stemming.stemTerms(terms) : terms).joined(separator: " ")
        }
        columns = [
            text(title, keepingCodes: true), text(names, keepingCodes: true), text(subtitle), text(description),
            text(props, keepingCodes: true), text([record.id]),
        ]
        vocabularyTerms = vocabulary
        idKey = TextAnalyzer.idKey(record.id)
        var seen = Set<String>()
        self.codes = ([idKey] + codes)
            .filter { $0.unicodeScalars.count >= 3 && seen.insert($0).inserted }
            .joined(separator: " ")
        let titleTokens = TextAnalyzer.tokens(record.title).map(\.text)
        titlePlain = titleTokens.joined(separator: " ")
        rank = DocumentRank(
            rankingHint: record.rankingHint, priority: record.priority, lastUsedAt: record.lastUsedAt,
            titleWords: titleTokens.count)
        var keys = Set<Int64>()
        nameKeys = (record.synonyms + record.keywords).compactMap { value in
            let key = DocumentRank.nameKey(EntityStore.comparisonText(value))
            return key.flatMap { keys.insert($0).inserted ? $0 : nil }
        }
    }

    /// Whether an index term goes into `vocabulary`: terms without digits (ids and codes stay out).
    static func isVocabularyWord(_ term: String) -> Bool {
        !term.hasASCIIDigit
    }

    /// The searchable strings of a property value. Date-times are left out: their digits would only add noise
    /// (`2026`, `03`, `00z`…) to the index; property queries compare them as dates instead.
    static func strings(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let s): return Timestamp.parse(s) == nil ? [s] : []
        case .array(let items): return items.compactMap(\.string).filter { Timestamp.parse($0) == nil }
        default: return []
        }
    }
}

extension SearchDocument {
    /// A 64-bit FNV-1a hash of every column as indexed, of the codes and of the name keys, stored in
    /// `search_doc.text_hash`: a delete that re-derives them from the record checks them against this (see `EntityStore.deleteIndexEntry`).
    var textHash: Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in columns + [codes] {
            for b in part.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
            h = (h ^ 0x1f) &* 0x100_0000_01b3  // a separator no text holds
        }
        for key in nameKeys {
            for shift in stride(from: 0, to: 64, by: 8) {
                h = (h ^ UInt64(truncatingIfNeeded: key >> shift & 0xFF)) &* 0x100_0000_01b3
            }
        }
        return Int64(bitPattern: h)
    }
}

extension EntityStore {
    /// Writes an entity's search document (`search_doc`, inserted or replaced), its FTS entries and its name keys.
    ///
    /// The full-text indexes are contentless (schema/012): the entity must have no entries, either because it is
    /// new or because `deleteIndexEntry` removed them, with the text re-derived from the record it replaces. The
    /// FTS index is written by single-row statements rather than triggers: see schema/004_explicit_fts_writes.sql.
    /// `newTerms` go into `vocabulary` (words already there are ignored).
    func writeSearchDocument(_ doc: SearchDocument, rowid: Int64, newTerms: [String]) throws {
        let docid = try doc.rank.docid(rowid: rowid)
        let columns = doc.columns.map { SQLValue.text($0) }
        try db.run(
            """
            INSERT INTO search_doc(rowid, doc, title, ident, title_plain, text_hash) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(rowid) DO UPDATE SET doc = excluded.doc, title = excluded.title, ident = excluded.ident,
                title_plain = excluded.title_plain, text_hash = excluded.text_hash
            """,
            [.integer(rowid), .integer(docid), columns[0], columns[5], .text(doc.titlePlain), .integer(doc.textHash)])
        try writeIndexRows(DeferredIndexRow(docid: docid, columns: columns, codes: doc.codes))
        for key in doc.nameKeys {
            try db.run("INSERT OR IGNORE INTO name_key(hash, doc) VALUES (?, ?)", [.integer(key), .integer(docid)])
        }
        let vocabulary = try db.cached("INSERT OR IGNORE INTO vocabulary(term) VALUES (?)")
        for term in newTerms {
            try vocabulary.bind([.text(term)])
            while try vocabulary.step() {}
        }
    }

    /// Deletes an entity's FTS entries and name keys, given the text and keys they were made from (`doc`, re-derived from
    /// its stored record): single-row 'delete's (an INSERT … SELECT would run in a statement transaction, which
    /// makes FTS5 flush its pending terms; see schema/004).
    ///
    /// When the re-derived text is not what was indexed (its hash differs from `search_doc.text_hash`: the text
    /// pipeline, ICU or the declarations changed and the index was not rebuilt), or the record cannot be derived
    /// again (`doc` nil), deleting would leave wrong postings behind: the indexes are then rebuilt from the records
    /// as they are, after which the entity's entries are exactly `doc`'s and are deleted.
    func deleteIndexEntry(rowid: Int64, _ doc: SearchDocument?, checked: Bool = true) throws {
        let stored = try db.rows("SELECT doc, text_hash FROM search_doc WHERE rowid = ?", [.integer(rowid)]) {
            ($0.int(0), $0.int(1))
        }
        guard let (docid, hash) = stored.first else { return }
        // A row still held would be written after its delete.
        try writeDeferredIndexRows()
        guard let doc, !checked || hash == doc.textHash else {
            try rebuildIndexes()
            if let doc { try deleteIndexEntry(rowid: rowid, doc, checked: false) }
            return
        }
        let columns = doc.columns.map { SQLValue.text($0) }
        try db.run(
            """
            INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
            VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(docid)] + columns)
        try db.run(
            "INSERT INTO search_title(search_title, rowid, title, ident) VALUES ('delete', ?, ?, ?)",
            [.integer(docid), columns[0], columns[5]])
        try db.run(
            "INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', ?, ?)",
            [.integer(docid), .text(doc.codes)])
        for key in doc.nameKeys {
            try db.run("DELETE FROM name_key WHERE hash = ? AND doc = ?", [.integer(key), .integer(docid)])
        }
    }

    /// Deletes the FTS entries of the entities that `condition` (on `entity e`) selects, before they are deleted or
    /// derived again: their text is re-derived from their records. `deletingEntities`: they are about to be
    /// deleted, and the `relation` and `spotlight_key` rows their records wrote go too (found by their keys,
    /// re-derived the same way). Returns how many entities were selected.
    @discardableResult
    func deleteIndexEntries(where condition: String, _ arguments: [SQLValue], deletingEntities: Bool = false) throws
        -> Int
    {
        let rows = try db.rows("SELECT e.rowid, e.type, e.record FROM entity e WHERE \(condition)", arguments) {
            ($0.int(0), $0.text(1), $0.record(2))
        }
        guard !rows.isEmpty else { return 0 }
        let declarations = try allDeclarations(type: nil), stemmed = try stemmedTypes()
        for (rowid, type, object) in rows {
            try deleteIndexEntry(
                rowid: rowid, previousDocument(object, declarations[type] ?? [:], stemming: stemmed.contains(type)))
            if deletingEntities {
                try deleteRelations(rowid: rowid, EntityRecord.related(of: object))
                try deleteSpotlightKeys(rowid: rowid, SpotlightKey.keys(of: object))
            }
        }
        return rows.count
    }

    /// The search document a stored record was indexed with, derived again (nil for a record that no longer
    /// validates).
    func previousDocument(_ object: JSONObject, _ declarations: [String: PropertyDeclaration], stemming: Bool)
        -> SearchDocument?
    {
        guard case .success(let record) = RecordValidator.validate(.object(object), position: 0) else { return nil }
        return SearchDocument(record, declarations: declarations, stemming: stemming)
    }

    /// Removes every entry of the full-text indexes.
    func emptyFullTextIndexes() throws {
        if deferredIndexRows != nil { deferredIndexRows = [] }
        deferredIndexBytes = 0
        for table in ["search", "search_title", "search_code"] {
            try db.execute("INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        }
    }

    /// Empties the full-text indexes, the name keys and the vocabulary and fills them again from the stored
    /// records (with the declarations as they are).
    func rebuildIndexes() throws {
        try emptyFullTextIndexes()
        try db.run("DELETE FROM name_key")
        try db.run("DELETE FROM vocabulary")
        try rederive(type: nil)
        try optimizeFullTextIndexes(written: Int.max)
    }
}

extension String {
    /// Whether the text has a digit 0–9 (normalized text has no other digits).
    var hasASCIIDigit: Bool { utf8.contains { $0 >= 0x30 && $0 <= 0x39 } }
}
