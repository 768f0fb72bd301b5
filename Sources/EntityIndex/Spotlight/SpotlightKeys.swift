import JSON
import SQLite

/// The text values of a record that Core Spotlight queries compare, by attribute key: `title`, `subtitle`,
/// `description`, `keywords` and `synonyms` (each element), and `@name` for a string property (each string element
/// of an array property). Read from the record as stored; the matchers fold them.
enum SpotlightValues {
    static let fields = ["title", "subtitle", "description", "keywords", "synonyms"]

    /// The values of one attribute.
    static func values(_ record: JSONObject, key: String) -> [String] {
        if key.hasPrefix("@") {
            guard case .object(let properties)? = record["properties"] else { return [] }
            return strings(properties[String(key.dropFirst())])
        }
        return strings(record[key])
    }

    /// Every attribute's values, in the order of `fields`, then the properties'.
    static func all(_ record: JSONObject) -> [(key: String, value: String)] {
        var result: [(String, String)] = []
        for field in fields { result += strings(record[field]).map { (field, $0) } }
        if case .object(let properties)? = record["properties"] {
            for (name, value) in properties {
                let key = SpotlightAttribute.propertyKey(name)
                result += strings(value).map { (key, $0) }
            }
        }
        return result
    }

    /// The values of attributes of a stored record (the bytes of `entity.record`), their members alone parsed, and
    /// the length of the record's JSON text; nil when the stored value cannot be read.
    static func values(stored: UnsafeBufferPointer<UInt8>, keys: [String], _ dictionaries: RecordDictionaries)
        -> (values: [String], textBytes: Int)?
    {
        guard let text = StoredRecord.decode(stored, dictionaries) else { return nil }
        let properties = Set(keys.filter { $0.hasPrefix("@") }.map { String($0.dropFirst()) })
        let members = Set(keys.map { $0.hasPrefix("@") ? "properties" : $0 })
        let selected = JSONText(writerOutput: text).selectingMembers { name in
            guard members.contains(name) else { return .drop }
            return name == "properties" ? .select { properties.contains($0) } : .keep
        }
        guard let object = selected.flatMap({ JSONValue.encoded($0).object }) else { return nil }
        return (keys.flatMap { values(object, key: $0) }, text.count)
    }

    private static func strings(_ value: JSONValue?) -> [String] {
        switch value {
        case .string(let s)?: return [s]
        case .array(let items)?: return items.compactMap(\.string)
        default: return []
        }
    }
}

/// One row of `spotlight_key`: what the index knows of one value (see schema/011_spotlight_keys.sql).
struct SpotlightKey: Hashable, Sendable {
    var attr: String
    var head: Int64
    var hash: Int64

    init(attr: String, value: String) {
        self.attr = attr
        let fold = Array(SpotlightFold.key(value).utf8)
        head = Self.head(fold)
        hash = Self.hash(fold)
    }

    /// The first 8 bytes, big-endian, padded with zeros, its sign bit flipped: heads order as the bytes do.
    static func head(_ bytes: [UInt8]) -> Int64 {
        var n: UInt64 = 0
        for i in 0..<8 { n = n << 8 | UInt64(i < bytes.count ? bytes[i] : 0) }
        return Int64(bitPattern: n ^ (1 << 63))
    }

    /// The heads of the values that start with `prefix` (of at most 8 bytes).
    static func heads(startingWith prefix: [UInt8]) -> ClosedRange<Int64> {
        var low: UInt64 = 0, high: UInt64 = 0
        for i in 0..<8 {
            let known = i < prefix.count
            low = low << 8 | UInt64(known ? prefix[i] : 0)
            high = high << 8 | UInt64(known ? prefix[i] : 0xFF)
        }
        return Int64(bitPattern: low ^ (1 << 63))...Int64(bitPattern: high ^ (1 << 63))
    }

    /// FNV-1a of the whole folded value; 0 for a value of 8 bytes or fewer, which its head holds.
    static func hash(_ bytes: [UInt8]) -> Int64 {
        guard bytes.count > 8 else { return 0 }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: h)
    }

    /// The keys of a record's values (a value repeated in an array counts once).
    static func keys(of record: JSONObject) -> [SpotlightKey] {
        var seen = Set<SpotlightKey>()
        return SpotlightValues.all(record).compactMap { item in
            let key = SpotlightKey(attr: item.key, value: item.value)
            return seen.insert(key).inserted ? key : nil
        }
    }
}

extension EntityStore {
    /// The id of an attribute key in `spotlight_attr`; nil when no value ever had it (unless `create`).
    func spotlightAttributeID(_ key: String, create: Bool = false) throws -> Int64? {
        let select = try db.cached("SELECT id FROM spotlight_attr WHERE name = ?")
        try select.bind([.text(key)])
        defer { select.reset() }
        if try select.step() { return select.int(0) }
        guard create else { return nil }
        try db.run("INSERT INTO spotlight_attr(name) VALUES (?)", [.text(key)])
        return db.lastInsertRowID
    }

    /// The rows of `spotlight_key` (without the entity) of keys: attribute names are looked up as bytes, as the
    /// queries look them up; a key of an attribute `spotlight_attr` does not hold has no row (unless `create`).
    private func spotlightRows(_ keys: [SpotlightKey], create: Bool, _ interned: InternedIDs) throws
        -> [SpotlightRow]
    {
        var missing = Set<[UInt8]>()
        var rows: [SpotlightRow] = []
        for key in keys {
            let bytes = Array(key.attr.utf8)
            var id = interned.spotlightAttributes[bytes]
            if id == nil && !missing.contains(bytes) {
                // An attribute the table does not hold is not remembered: a later record may add it.
                id = try spotlightAttributeID(key.attr, create: create)
                if let id { interned.spotlightAttributes[bytes] = id } else { missing.insert(bytes) }
            }
            if let id { rows.append(SpotlightRow(attr: id, head: key.head, hash: key.hash)) }
        }
        return rows
    }

    /// Writes an entity's `spotlight_key` rows. When it replaces a record, `old` holds that record's keys
    /// (re-derived from its stored record): the rows of those the new record does not have are deleted, the
    /// others kept. There is no index by entity: rows are only ever found by their whole key.
    func writeSpotlightKeys(
        rowid: Int64, keys: [SpotlightKey], replacing old: [SpotlightKey] = [], interned: InternedIDs = InternedIDs()
    ) throws {
        let rows = try spotlightRows(keys, create: true, interned)
        let written = try spotlightRows(old, create: false, interned)
        let kept = Set(rows), had = Set(written)
        try deleteSpotlightRows(rowid: rowid, written.filter { !kept.contains($0) })
        let insert = try db.cached("INSERT OR IGNORE INTO spotlight_key(attr, head, hash, entity) VALUES (?, ?, ?, ?)")
        for row in rows where !had.contains(row) {
            try insert.bind([.integer(row.attr), .integer(row.head), .integer(row.hash), .integer(rowid)])
            while try insert.step() {}
        }
    }

    /// Deletes the `spotlight_key` rows an entity's record wrote (`keys`, re-derived from its stored record).
    func deleteSpotlightKeys(rowid: Int64, _ keys: [SpotlightKey]) throws {
        try deleteSpotlightRows(rowid: rowid, try spotlightRows(keys, create: false, InternedIDs()))
    }

    private func deleteSpotlightRows(rowid: Int64, _ rows: [SpotlightRow]) throws {
        guard !rows.isEmpty else { return }
        let delete = try db.cached(
            "DELETE FROM spotlight_key WHERE attr = ? AND head = ? AND hash = ? AND entity = ?")
        for row in rows {
            try delete.bind([.integer(row.attr), .integer(row.head), .integer(row.hash), .integer(rowid)])
            while try delete.step() {}
        }
    }
}

/// A row of `spotlight_key` without its entity.
private struct SpotlightRow: Hashable {
    var attr: Int64
    var head: Int64
    var hash: Int64
}
