import JSON
import SQLite

extension EntityStore {
    /// The declared properties of a type.
    public func declarations(for type: String) throws -> [String: PropertyDeclaration] {
        let rows = try db.rows("SELECT name, kind, sortable, indexing_key FROM property_decl WHERE type = ?", [.text(type)]) {
            PropertyDeclaration(name: $0.text(0), kind: PropertyDeclaration.Kind(rawValue: $0.text(1)) ?? .string,
                                sortable: $0.int(2) != 0, indexingKey: $0.optionalText(3))
        }
        return Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The comparable form of a string property: its tokens, normalized like search text, separated by spaces.
    static func comparisonText(_ s: String) -> String {
        TextAnalyzer.tokens(s).map(\.text).joined(separator: " ")
    }

    /// Writes the rows that property queries and sorting read.
    ///
    /// `kinds` remembers which (type, property, kind) rows of `property_kind` this transaction already wrote.
    func writeProperties(rowid: Int64, record: EntityRecord, declarations: [String: PropertyDeclaration], replacing: Bool,
                         kinds: inout Set<String>) throws {
        if replacing { try db.run("DELETE FROM property WHERE entity = ?", [.integer(rowid)]) }
        let sql = "INSERT INTO property(entity, name, ord, multi, kind, num, text) VALUES (?, ?, ?, ?, ?, ?, ?)"
        for (name, value) in record.properties {
            let declared = declarations[name]?.kind
            var elements = [value], multi = false
            if case .array(let items) = value { elements = items; multi = true }
            for (ord, element) in elements.enumerated() {
                let (kind, num, text) = Self.propertyRow(element, declared: declared)
                try db.run(sql, [.integer(rowid), .text(name), .integer(Int64(ord)), SQLValue(multi), .text(kind), SQLValue(num), SQLValue(text)])
                if kinds.insert("\(record.type)\u{0}\(name)\u{0}\(kind)\u{0}\(multi)").inserted {
                    try db.run("INSERT OR IGNORE INTO property_kind(type, name, kind, multi) VALUES (?, ?, ?, ?)",
                               [.text(record.type), .text(name), .text(kind), SQLValue(multi)])
                }
            }
        }
    }

    /// How one property value is stored: its kind, numeric form and comparable text.
    static func propertyRow(_ value: JSONValue, declared: PropertyDeclaration.Kind?) -> (String, Double?, String?) {
        switch value {
        case .string(let s):
            if declared == .date || declared == nil, let ms = Timestamp.parse(s) { return ("date", Double(ms), nil) }
            if declared == .number || declared == .integer, let d = Double(s) { return ("number", d, nil) }
            return ("string", nil, comparisonText(s))
        case .number(let n): return ("number", n.double, nil)
        case .bool(let b): return ("boolean", b ? 1 : 0, b ? "true" : "false")
        default: return ("null", nil, nil)
        }
    }
}
