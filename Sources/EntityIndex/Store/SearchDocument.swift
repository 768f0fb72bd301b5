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

    init(_ record: EntityRecord, declarations: [String: PropertyDeclaration]) {
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
            return terms.joined(separator: " ")
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

extension EntityStore {
    /// Writes an entity's search document, its name keys and its FTS entries (the old ones are deleted first when
    /// replacing).
    ///
    /// The FTS index is written by single-row statements rather than triggers: see schema/004_explicit_fts_writes.sql.
    /// `newTerms` go into `vocabulary` (words already there are ignored). Without `updatingIndex`, only the document
    /// is written (for a caller that rebuilds the whole index afterwards).
    func writeSearchDocument(
        _ doc: SearchDocument, rowid: Int64, replacing: Bool, newTerms: [String],
        updatingIndex: Bool = true
    ) throws {
        let docid = try doc.rank.docid(rowid: rowid)
        let columns = doc.columns.map { SQLValue.text($0) }
        if replacing {
            if let old = try db.scalar("SELECT doc FROM search_doc WHERE rowid = ?", [.integer(rowid)])?.int {
                if updatingIndex { try deleteIndexEntry(docid: old) }
                try db.run("DELETE FROM name_key WHERE doc = ?", [.integer(old)])
            }
            try db.run(
                """
                UPDATE search_doc SET title = ?, names = ?, subtitle = ?, description = ?, props = ?, ident = ?, title_plain = ?,
                codes = ?, doc = ? WHERE rowid = ?
                """, columns + [.text(doc.titlePlain), .text(doc.codes), .integer(docid), .integer(rowid)])
        } else {
            try db.run(
                """
                INSERT INTO search_doc(title, names, subtitle, description, props, ident, title_plain, codes, doc, rowid)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, columns + [.text(doc.titlePlain), .text(doc.codes), .integer(docid), .integer(rowid)])
        }
        if updatingIndex {
            try db.run(
                "INSERT INTO search(rowid, title, names, subtitle, description, props, ident) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.integer(docid)] + columns)
            try db.run(
                "INSERT INTO search_title(rowid, title, ident) VALUES (?, ?, ?)",
                [.integer(docid), columns[0], columns[5]])
            try db.run("INSERT INTO search_code(rowid, codes) VALUES (?, ?)", [.integer(docid), .text(doc.codes)])
        }
        for key in doc.nameKeys {
            try db.run("INSERT OR IGNORE INTO name_key(hash, doc) VALUES (?, ?)", [.integer(key), .integer(docid)])
        }
        let vocabulary = try db.cached("INSERT OR IGNORE INTO vocabulary(term) VALUES (?)")
        for term in newTerms {
            try vocabulary.bind([.text(term)])
            while try vocabulary.step() {}
        }
    }

    /// Deletes a document's FTS entries, which FTS5 needs given with the text it indexed: read from `search_doc`,
    /// then a single-row 'delete' (an INSERT … SELECT would run in a statement transaction, which makes FTS5 flush
    /// its pending terms; see schema/004).
    private func deleteIndexEntry(docid: Int64) throws {
        let old = try db.rows(
            "SELECT title, names, subtitle, description, props, ident, codes FROM search_doc WHERE doc = ?",
            [.integer(docid)]
        ) { s in (0..<7).map { SQLValue.text(s.text(Int32($0))) } }
        guard let old = old.first else { return }
        try db.run(
            """
            INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
            VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(docid)] + old.prefix(6))
        try db.run(
            "INSERT INTO search_title(search_title, rowid, title, ident) VALUES ('delete', ?, ?, ?)",
            [.integer(docid), old[0], old[5]])
        try db.run(
            "INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', ?, ?)", [.integer(docid), old[6]])
    }
}

extension String {
    /// Whether the text has a digit 0–9 (normalized text has no other digits).
    var hasASCIIDigit: Bool { utf8.contains { $0 >= 0x30 && $0 <= 0x39 } }
}
