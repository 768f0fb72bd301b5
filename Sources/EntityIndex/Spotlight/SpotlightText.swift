import JSON
import SQLite

/// One row of `spotlight_text`: a text value of an entity as a Core Spotlight query compares it.
struct SpotlightTextRow: Sendable, Equatable {
    var attr: String
    var ord: Int
    /// The value as given, in NFC.
    var value: String
    /// Case and marks folded: what the index orders by.
    var fold: String

    init(attr: String, ord: Int, value: String) {
        self.attr = attr
        self.ord = ord
        self.value = SpotlightFold.fold(value, case: false, marks: false)
        self.fold = SpotlightFold.key(value)
    }

    /// The rows of a record: title, subtitle, description, each keyword and synonym, each string property value
    /// (and each string element of an array property).
    static func rows(of record: EntityRecord) -> [SpotlightTextRow] {
        var rows = [SpotlightTextRow(attr: "title", ord: 0, value: record.title)]
        if let s = record.subtitle { rows.append(SpotlightTextRow(attr: "subtitle", ord: 0, value: s)) }
        if let s = record.description { rows.append(SpotlightTextRow(attr: "description", ord: 0, value: s)) }
        for (ord, k) in record.keywords.enumerated() {
            rows.append(SpotlightTextRow(attr: "keywords", ord: ord, value: k))
        }
        for (ord, k) in record.synonyms.enumerated() {
            rows.append(SpotlightTextRow(attr: "synonyms", ord: ord, value: k))
        }
        for (name, value) in record.properties {
            let key = SpotlightAttribute.propertyKey(name)
            switch value {
            case .string(let s): rows.append(SpotlightTextRow(attr: key, ord: 0, value: s))
            case .array(let items):
                for (ord, item) in items.enumerated() {
                    if case .string(let s) = item { rows.append(SpotlightTextRow(attr: key, ord: ord, value: s)) }
                }
            default: break
            }
        }
        return rows
    }
}

extension EntityStore {
    /// Bump when what `spotlight_text` holds changes: opening a database filled by another version refills it.
    static let spotlightTextVersion = 1

    /// Writes an entity's `spotlight_text` rows, one statement per row (see `writeProperties` for why).
    func writeSpotlightText(rowid: Int64, rows: [SpotlightTextRow], replacing: Bool) throws {
        if replacing { try db.run("DELETE FROM spotlight_text WHERE entity = ?", [.integer(rowid)]) }
        let insert = try db.cached("INSERT INTO spotlight_text(entity, attr, ord, value, fold) VALUES (?, ?, ?, ?, ?)")
        for row in rows {
            try insert.bind([
                .integer(rowid), .text(row.attr), .integer(Int64(row.ord)), .text(row.value), .text(row.fold),
            ])
            while try insert.step() {}
        }
    }

    /// Fills `spotlight_text` from the stored records when it was filled by another version (or not at all), once
    /// when the database is opened; the version is read again under the write lock, so that only one process fills.
    func prepareSpotlightText() throws {
        let current = String(Self.spotlightTextVersion)
        guard try meta("spotlight_text_version") != current else { return }
        try db.transaction(.immediate) {
            guard try meta("spotlight_text_version") != current else { return }
            try db.run("DELETE FROM spotlight_text")
            let rows = try db.rows("SELECT rowid, record FROM entity") { ($0.int(0), $0.record(1)) }
            for (rowid, object) in rows {
                guard case .success(let record) = RecordValidator.validate(.object(object), position: 0) else {
                    continue
                }
                try writeSpotlightText(rowid: rowid, rows: SpotlightTextRow.rows(of: record), replacing: false)
            }
            try setMeta("spotlight_text_version", String(Self.spotlightTextVersion))
        }
    }
}
