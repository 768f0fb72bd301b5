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
    /// `transliterating`: the words of other scripts in the title, names, subtitle and string properties are also
    /// indexed by their Latin form (`Transliteration`), and their Japanese words by their readings (`Readings`), after
    /// the words and stems; not the description (prose,
    /// where the cost per record is largest) nor the id.
    init(
        _ record: EntityRecord, declarations: [String: PropertyDeclaration], stemming: Bool = false,
        transliterating: Bool = false
    ) {
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
        func text(_ parts: [String], keepingCodes: Bool = false, latin: Bool = false) -> String {
            var found: [String] = []
            let terms = parts.flatMap { TextAnalyzer.indexTerms($0, codes: &found) }
            if keepingCodes { codes += found }
            vocabulary += terms.filter(Self.isVocabularyWord)
            var indexed = stemming ? terms + Stemming.stemTerms(terms) : terms
            if latin && transliterating { indexed += Transliteration.latinTerms(terms) + Readings.terms(parts) }
            return indexed.joined(separator: " ")
        }
        columns = [
            text(title, keepingCodes: true, latin: true), text(names, keepingCodes: true, latin: true),
            text(subtitle, latin: true), text(description), text(props, keepingCodes: true, latin: true),
            text([record.id]),
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
    /// `search_doc.text_hash`: a delete that re-derives them from the record checks them against this (see `SearchTextIndex`).
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

extension String {
    /// Whether the text has a digit 0–9 (normalized text has no other digits).
    var hasASCIIDigit: Bool { utf8.contains { $0 >= 0x30 && $0 <= 0x39 } }
}
