import JSON

/// One version of a record as the indexes see it: the record, the declarations of its type at the time, and what
/// each index derives from it, each computed once, when first asked for.
///
/// A record being written is analyzed whole on the reading thread (`analyzed()`), then handed to the writer, which
/// only reads it; a stored record being replaced or deleted is analyzed again from its bytes on the writing thread,
/// and only what the indexes ask of it is computed (a replace asks no property rows of the old record).
final class AnalyzedRecord: @unchecked Sendable {
    /// The record as stored (the JSON object `EntityRecord.json` writes).
    let json: JSONObject
    /// The validated record; nil for a stored record that no longer validates (written by an older version).
    let record: EntityRecord?
    let declarations: [String: PropertyDeclaration]
    let stemming: Bool
    /// Whether the type's words of other scripts are also indexed in Latin letters (`Transliteration`).
    let transliterating: Bool

    init(
        _ record: EntityRecord, declarations: [String: PropertyDeclaration], stemming: Bool,
        transliterating: Bool = false
    ) {
        self.record = record
        json = record.json
        self.declarations = declarations
        self.stemming = stemming
        self.transliterating = transliterating
    }

    /// A stored record, read back from its bytes.
    init(
        stored json: JSONObject, declarations: [String: PropertyDeclaration], stemming: Bool,
        transliterating: Bool = false
    ) {
        self.json = json
        if case .success(let record) = RecordValidator.validate(.object(json), position: 0) {
            self.record = record
        } else {
            record = nil
        }
        self.declarations = declarations
        self.stemming = stemming
        self.transliterating = transliterating
    }

    /// The normalized text of each column and the keys made from it (nil when the record does not validate).
    private(set) lazy var document: SearchDocument? = record.map {
        SearchDocument($0, declarations: declarations, stemming: stemming, transliterating: transliterating)
    }
    /// The rows of `property`.
    private(set) lazy var properties: [PropertyRow] =
        record.map {
            PropertyRow.rows(of: $0, declarations: declarations)
        } ?? []
    /// The keys of the text values a Core Spotlight query compares (`spotlight_key`).
    private(set) lazy var spotlightKeys: [SpotlightKey] = SpotlightKey.keys(of: json)
    /// The entities the record lists, in its order, as the validator read them.
    private(set) lazy var related: [EntityKey] = record?.related ?? EntityRecord.related(of: json)
    /// The words for `vocabulary`; set by a reader that hands each word over once (`newTermsOnly`).
    lazy var terms: [String] = document?.vocabularyTerms ?? []
    /// Whether `terms` holds only words not handed over before in this write.
    var newTermsOnly = false

    /// Computes everything now (on the reading thread, before the record is handed to the writer).
    func analyzed() -> AnalyzedRecord {
        _ = document
        _ = properties
        _ = spotlightKeys
        _ = related
        _ = terms
        return self
    }
}
