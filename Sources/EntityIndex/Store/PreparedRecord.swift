import JSON
import SQLite

/// One record made ready for writing, without touching the database: validated, serialized, and (unless it is known
/// to be stored unchanged) its search document and property rows computed. Preparing is pure, so it can run on
/// another thread than the writing; the writer derives what was not.
public struct PreparedRecord: Sendable {
    let position: Int
    let line: Int?
    let outcome: Outcome

    enum Outcome: Sendable {
        case invalid([RecordProblem])
        /// `analyzed`: what the indexes derive from the record, computed by the reader (nil: left to the writer, for
        /// a record known to be stored unchanged).
        case valid(EntityRecord, stored: StoredRecord, analyzed: AnalyzedRecord?)
    }
}

/// One row of the `property` table.
struct PropertyRow: Sendable {
    var name: String
    var ord: Int
    var multi: Bool
    var kind: String
    var num: Double?
    var text: String?

    /// The rows of a record's properties: one per value, one per element of an array.
    static func rows(of record: EntityRecord, declarations: [String: PropertyDeclaration]) -> [PropertyRow] {
        var rows: [PropertyRow] = []
        for (name, value) in record.properties {
            let declared = declarations[name]?.kind
            var elements = [value], multi = false
            if case .array(let items) = value { elements = items; multi = true }
            if multi && elements.isEmpty {
                // `[]`: a row without a value, so that the entity still holds the property (schema/020).
                rows.append(PropertyRow(name: name, ord: 0, multi: true, kind: "empty", num: nil, text: nil))
            }
            for (ord, element) in elements.enumerated() {
                let (kind, num, text) = EntityStore.propertyRow(element, declared: declared)
                rows.append(PropertyRow(name: name, ord: ord, multi: multi, kind: kind, num: num, text: text))
            }
        }
        return rows
    }
}

/// Prepares records against a snapshot of the property declarations (they do not change during an ingest).
public struct RecordPreparer: Sendable {
    let declarations: [String: [String: PropertyDeclaration]]
    /// The types whose text is also indexed by its stems (`Stemming`).
    let stemmed: Set<String>
    /// The types whose text is also indexed by its Latin transliteration (`Transliteration`).
    let transliterated: Set<String>
    /// The dictionary records are compressed with (`StoredRecord`); nil: deflate.
    var dictionary: RecordDictionary?
    /// Whether records are stored as text until a dictionary is trained on them (`Ingestion.Producer`).
    var defersCompression = false

    init(
        declarations: [String: [String: PropertyDeclaration]], stemmed: Set<String>,
        transliterated: Set<String> = [], dictionary: RecordDictionary? = nil
    ) {
        self.declarations = declarations
        self.stemmed = stemmed
        self.transliterated = transliterated
        self.dictionary = dictionary
    }

    func declarations(for type: String) -> [String: PropertyDeclaration] { declarations[type] ?? [:] }

    /// Validates and serializes a record; `derive` computes what the index needs from it.
    public func prepare(_ value: JSONValue, position: Int, line: Int?) -> PreparedRecord {
        switch RecordValidator.validate(value, position: position, line: line) {
        case .failure(let failure):
            return PreparedRecord(position: position, line: line, outcome: .invalid(failure.problems))
        case .success(let record):
            let kinds = PropertyDeclaration.problems(
                in: record.properties, declarations: declarations(for: record.type))
            guard kinds.isEmpty else {
                return PreparedRecord(
                    position: position, line: line,
                    outcome: .invalid(
                        kinds.map {
                            RecordProblem(
                                position: position, line: line, entity: record.key.description, field: $0.field,
                                problem: $0.problem)
                        }))
            }
            let text = JSONWriter.string(.object(record.json))
            if text.utf8.count > RecordLimits.maxRecordBytes {
                return PreparedRecord(
                    position: position, line: line,
                    outcome: .invalid([
                        RecordProblem(
                            position: position, line: line, entity: record.key.description,
                            problem: "is \(text.utf8.count) bytes; the maximum is \(RecordLimits.maxRecordBytes)")
                    ]))
            }
            let stored =
                defersCompression
                ? StoredRecord(text: Array(text.utf8), value: .text(text))
                : StoredRecord(text: text, dictionary: dictionary)
            return PreparedRecord(
                position: position, line: line, outcome: .valid(record, stored: stored, analyzed: nil))
        }
    }

    /// A problem found before validation (a line that is not JSON, say).
    public func rejected(_ problem: RecordProblem) -> PreparedRecord {
        PreparedRecord(position: problem.position, line: problem.line, outcome: .invalid([problem]))
    }

    /// What the indexes derive from a record, computed now.
    func analyze(_ record: EntityRecord) -> AnalyzedRecord {
        AnalyzedRecord(
            record, declarations: declarations(for: record.type), stemming: stemmed.contains(record.type),
            transliterating: transliterated.contains(record.type)
        ).analyzed()
    }
}
