import JSON
import SQLite

extension EntityStore {
    /// The declared properties of a type.
    public func declarations(for type: String) throws -> [String: PropertyDeclaration] {
        try allDeclarations(type: type)[type] ?? [:]
    }

    /// The declared properties of every type (or of one), by type and name.
    func allDeclarations(type: String? = nil) throws -> [String: [String: PropertyDeclaration]] {
        var result: [String: [String: PropertyDeclaration]] = [:]
        let sql =
            "SELECT type, name, kind, sortable, indexing_key FROM property_decl"
            + (type == nil ? "" : " WHERE type = ?")
        for (type, declaration) in try db.rows(
            sql, type.map { [.text($0)] } ?? [],
            {
                (
                    $0.text(0),
                    PropertyDeclaration(
                        name: $0.text(1), kind: PropertyDeclaration.Kind(rawValue: $0.text(2)) ?? .string,
                        sortable: $0.int(3) != 0, indexingKey: $0.optionalText(4))
                )
            })
        {
            result[type, default: [:]][declaration.name] = declaration
        }
        return result
    }

    /// The comparable form of a string property: its tokens, normalized like search text, separated by spaces.
    static func comparisonText(_ s: String) -> String {
        TextAnalyzer.tokens(s).map(\.text).joined(separator: " ")
    }

    /// Writes the rows that property queries and sorting read.
    ///
    /// `kinds` remembers which rows of `property_kind` this transaction already wrote.
    func writeProperties(
        rowid: Int64, type: String, rows: [PropertyRow], replacing: Bool, kinds: inout Set<PropertyKindKey>,
        interned: InternedIDs = InternedIDs()
    ) throws {
        if replacing { try db.run("DELETE FROM property WHERE entity = ?", [.integer(rowid)]) }
        // One row per statement, on purpose: a statement writing several rows runs in a statement transaction, and
        // FTS5 flushes its pending terms at every statement savepoint (schema/004): a multi-row INSERT here made
        // ingest twice as slow.
        let insert = try db.cached(
            "INSERT INTO property(entity, name, ord, multi, kind, num, text) VALUES (?, ?, ?, ?, ?, ?, ?)")
        // Names are interned as bytes, as `property_name` compares them.
        for row in rows {
            let bytes = Array(row.name.utf8)
            let name: Int64
            if let known = interned.properties[bytes] {
                name = known
            } else {
                name = try propertyNameID(row.name)
                interned.properties[bytes] = name
            }
            try insert.bind([
                .integer(rowid), .integer(name), .integer(Int64(row.ord)), SQLValue(row.multi),
                .integer(PropertyKind.code(row.kind)), SQLValue(row.num), SQLValue(row.text),
            ])
            while try insert.step() {}
            // An empty array (kind `empty`) holds no value of any kind: `property_kind` lists the kinds of values.
            if row.kind != "empty",
                kinds.insert(PropertyKindKey(type: type, name: row.name, kind: row.kind, multi: row.multi)).inserted
            {
                try db.run(
                    "INSERT OR IGNORE INTO property_kind(type, name, kind, multi) VALUES (?, ?, ?, ?)",
                    [.text(type), .text(row.name), .text(row.kind), SQLValue(row.multi)])
            }
        }
    }

    /// The id of a property name in `property_name`, added when new.
    private func propertyNameID(_ name: String) throws -> Int64 {
        let select = try db.cached("SELECT id FROM property_name WHERE name = ?")
        try select.bind([.text(name)])
        defer { select.reset() }
        if try select.step() { return select.int(0) }
        try db.run("INSERT INTO property_name(name) VALUES (?)", [.text(name)])
        return db.lastInsertRowID
    }

    /// `property.name` for a name bound after it: its id, looked up once per statement (NULL, which matches
    /// nothing, for a name no value ever had).
    static let propertyName = "(SELECT id FROM property_name WHERE name = ?)"

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

/// A row of `property_kind`: which kind of value a property of a type has held.
struct PropertyKindKey: Hashable {
    var type: String
    var name: String
    var kind: String
    var multi: Bool
}

/// How `property.kind` stores the kind of a value (schema/016): the commonest kinds take the codes SQLite stores in
/// no bytes. `property_kind` keeps the names. `empty` marks an empty array (schema/020), which has no value.
enum PropertyKind {
    static let codes: [String: Int64] = ["string": 0, "number": 1, "boolean": 2, "date": 3, "null": 4, "empty": 5]

    static func code(_ kind: String) -> Int64 { codes[kind] ?? codes["null"]! }

    /// The codes of kinds, as a list for SQL (`kind IN (…)`).
    static func sql(_ kinds: String...) -> String { kinds.map { String(code($0)) }.joined(separator: ", ") }
}

/// The ids of interned names (`property_name`, `spotlight_attr`, `entity_type`) that one write transaction read or made, by the
/// name's bytes: held by what owns the transaction (an ingest, a rebuild), so that a rollback takes them with it,
/// and a record's names are not looked up again for every record (two statements a name).
final class InternedIDs {
    var properties: [[UInt8]: Int64] = [:]
    var spotlightAttributes: [[UInt8]: Int64] = [:]
    var entityTypes: [[UInt8]: Int64] = [:]
}
