import EntityIndex
import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// Every derived index of `Indexes.all`, kept change by change, holds what a rebuild from the stored records makes:
/// after each step of seeded random sequences of ingests (inserts and replaces of every field an index reads),
/// deletes by id, by type and by domain, purges of the expired, new declarations, stemming and transliteration, and
/// delete-all, the index's tables are dumped by what they mean (interned ids and document ids joined to names and
/// entities, the full-text indexes by their postings) and compared with the same dump after `rebuild([index])` on
/// the same rows, rolled back. The vocabulary and the kinds a property has held only grow between rebuilds (by design): there the
/// rebuild's rows must be among the kept ones.
@Suite struct IndexesTests {
    static let seeds: [UInt64] = [1, 7, 2026]
    static let steps = 30
    static let checkedAgainstRecords: Set<String> = [
        PropertyIndex().name, RelationIndex().name, SpotlightKeyIndex().name,
    ]

    @Test(arguments: Indexes.all.map(\.name))
    func keptChangeByChangeAsARebuildMakesIt(_ name: String) throws {
        let index = try #require(Indexes.named(name))
        var kinds = Set<String>(), purged = 0
        for seed in Self.seeds {
            var sequence = RandomWrites(seed: seed)
            defer { (kinds, purged) = (kinds.union(sequence.kinds), purged + sequence.purged) }
            let store = try TestSupport.store()
            for step in 0..<Self.steps {
                let done = try sequence.step(store)
                let label = Comment(rawValue: "\(name) seed \(seed) step \(step): \(done)")
                try Self.compare(index, store, label)
                // The tables DerivedRowsTests checks against the records themselves, and the file's soundness.
                if Self.checkedAgainstRecords.contains(name) { try DerivedRowsTests.check(store, label) }
            }
        }
        // Every kind of write was made, and some purge took entities away.
        #expect(kinds == RandomWrites.allKinds, "\(RandomWrites.allKinds.subtracting(kinds))")
        #expect(purged > 0)
    }

    // MARK: - Dumps

    /// Compares the index's tables with what a rebuild on the same rows makes, then rolls the rebuild back.
    static func compare(_ index: any DerivedIndex, _ store: EntityStore, _ label: Comment) throws {
        for table in index.fullTextTables.sorted() {
            // Throws when the postings do not agree with themselves.
            try store.db.execute("INSERT INTO \(table)(\(table)) VALUES ('integrity-check')")
        }
        let kept = try dump(index, store)
        try store.db.execute("SAVEPOINT rebuilt")
        let rebuilt: [String: [String]]
        do {
            try store.rebuild([index])
            rebuilt = try dump(index, store)
        } catch {
            try store.db.execute("ROLLBACK TO rebuilt; RELEASE rebuilt")
            throw error
        }
        try store.db.execute("ROLLBACK TO rebuilt; RELEASE rebuilt")
        for table in index.tables {
            let have = kept[table] ?? [], want = rebuilt[table] ?? []
            if growsOnly.contains(table) {
                let missing = Set(want).subtracting(have)
                #expect(missing.isEmpty, "\(table) lacks \(missing.sorted().prefix(5)) — \(label.rawValue)")
            } else if have != want {
                let extra = Set(have).subtracting(want).sorted().prefix(5)
                let missing = Set(want).subtracting(have).sorted().prefix(5)
                Issue.record("\(table): kept \(extra) instead of \(missing) — \(label.rawValue)")
            }
        }
    }

    /// Tables whose rows stay when no record gives them any more (until a rebuild).
    static let growsOnly: Set<String> = ["vocabulary", "property_kind", "entity_type"]

    /// An entity row's key, for a join on `entity e`.
    static let entityKey = "coalesce(e.type || '/' || e.id, '?')"

    /// The rows of each table of the index, each as text that names entities and interned names, sorted.
    static func dump(_ index: any DerivedIndex, _ store: EntityStore) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        for table in index.tables {
            let sql: String
            if index.fullTextTables.contains(table) {
                // Every posting (term, column, offset) of every document, by the entity the document is.
                try store.db.execute(
                    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab_\(table) USING fts5vocab(main, \(table), 'instance')"
                )
                sql = """
                    SELECT v.term, \(entityKey), v.col, v.offset FROM temp.vocab_\(table) v
                    LEFT JOIN search_doc d ON d.doc = v.doc LEFT JOIN entity e ON e.rowid = d.rowid
                    """
                if table == "search" {
                    // The column sizes BM25 reads.
                    result["search sizes"] = try rows(
                        store,
                        """
                        SELECT \(entityKey), hex(s.sz) FROM search_docsize s
                        LEFT JOIN search_doc d ON d.doc = s.id LEFT JOIN entity e ON e.rowid = d.rowid
                        """)
                }
            } else {
                switch table {
                case "search_doc":
                    // The document id is the rank's bits above the rowid.
                    result["entity.id_key"] = try rows(store, "SELECT \(entityKey), e.id_key FROM entity e")
                    sql = """
                        SELECT \(entityKey), d.doc - d.rowid, d.doc & \((Int64(1) << DocumentRank.rowidBits) - 1) = d.rowid,
                            d.title, d.ident, d.title_plain, d.text_hash
                        FROM search_doc d LEFT JOIN entity e ON e.rowid = d.rowid
                        """
                case "name_key":
                    sql = """
                        SELECT n.hash, \(entityKey) FROM name_key n
                        LEFT JOIN search_doc d ON d.doc = n.doc LEFT JOIN entity e ON e.rowid = d.rowid
                        """
                case "vocabulary": sql = "SELECT term FROM vocabulary"
                case "property":
                    sql = """
                        SELECT \(entityKey), coalesce(n.name, '?'), p.ord, p.multi, p.kind, p.num, p.text FROM property p
                        LEFT JOIN property_name n ON n.id = p.name LEFT JOIN entity e ON e.rowid = p.entity
                        """
                case "property_kind": sql = "SELECT type, name, kind, multi FROM property_kind"
                case "relation":
                    sql = """
                        SELECT coalesce(t.name, '?'), r.id, \(entityKey) FROM relation r
                        LEFT JOIN entity_type t ON t.id = r.type LEFT JOIN entity e ON e.rowid = r.entity
                        """
                case "entity_type": sql = "SELECT name FROM entity_type"
                case "spotlight_key":
                    sql = """
                        SELECT coalesce(a.name, '?'), k.head, k.hash, \(entityKey) FROM spotlight_key k
                        LEFT JOIN spotlight_attr a ON a.id = k.attr LEFT JOIN entity e ON e.rowid = k.entity
                        """
                default:
                    Issue.record("no dump of \(table) (index \(index.name)): say what its rows mean here")
                    continue
                }
            }
            result[table] = try rows(store, sql)
        }
        return result
    }

    /// The rows of a query, each as its columns joined, sorted.
    static func rows(_ store: EntityStore, _ sql: String) throws -> [String] {
        try store.db.rows(sql) { statement in
            (0..<statement.columnCount).map { statement.optionalText(Int32($0)) ?? "NULL" }.joined(separator: "|")
        }.sorted()
    }
}

/// A seeded random sequence of writes to a store, over a few types and ids, so that inserts and replaces meet.
struct RandomWrites {
    var rng: TestSupport.SeededGenerator
    /// The fields of the last record written for each "type/id".
    var written: [String: [(String, JSONValue)]] = [:]

    /// The kinds of write made so far (`allKinds`).
    var kinds = Set<String>()
    /// How many entities purges took away.
    var purged = 0

    init(seed: UInt64) { rng = TestSupport.SeededGenerator(seed: seed) }

    static let allKinds: Set<String> = [
        "ingest", "replace", "delete", "delete type", "delete domain", "purge", "declare", "delete all",
    ]

    static let types = ["order", "customer", "product"]
    static let words = [
        "Café", "crème", "brûlée", "東京", "Straße", "strasse", "tea", "green", "running", "candies", "boxes", "mug",
        "Paris", "Lyon", "#1042-A", "MacBook", "new", "York", "Ωmega", "naïve", "x", "Смирнов", "Санкт-Петербург",
        "Αλέξανδρος", "מצרים", "抹茶ラテ", "田中太郎", "マッチャ",
    ]
    static let domains = ["shop", "shop.vip", "shop.vip.gold", "home", "shopx"]

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func text(_ most: Int) -> String {
        (0..<Int.random(in: 1...most, using: &rng)).map { _ in pick(Self.words) }.joined(separator: " ")
    }
    mutating func strings(_ most: Int) -> JSONValue {
        .array((0..<Int.random(in: 0...most, using: &rng)).map { _ in .string(text(2)) })
    }

    /// A random value of one field (nil: the field is left out).
    mutating func value(_ field: String, now: Int64) -> JSONValue? {
        switch field {
        case "title": return .string(text(3))
        case "subtitle", "description": return chance(0.3) ? nil : .string(text(5))
        case "keywords", "synonyms": return chance(0.3) ? nil : strings(3)
        case "domain": return chance(0.3) ? nil : .string(pick(Self.domains))
        case "hidden": return chance(0.7) ? nil : .bool(chance(0.5))
        case "rankingHint": return chance(0.5) ? nil : .number(JSONNumber(Int.random(in: 0...100, using: &rng)))
        case "priority": return chance(0.5) ? nil : .number(JSONNumber(Int.random(in: -3...3, using: &rng)))
        case "lastUsedAt", "expiresAt":
            if chance(field == "expiresAt" ? 0.75 : 0.5) { return nil }
            return .string(Timestamp.format(now + Int64.random(in: 1...72, using: &rng) * 3_600_000))
        case "related":
            return .array(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    .object(
                        JSONObject([
                            (key: "type", value: .string(pick(Self.types))),
                            (key: "id", value: .string(pick(["1", "2", "3", "4", "Cafe\u{301}", "Caf\u{E9}"]))),
                        ]))
                })
        case "properties":
            // Each property keeps one kind, so that any declaration below fits every stored value.
            var members: [(key: String, value: JSONValue)] = []
            if chance(0.6) { members.append((key: "city", value: .string(text(2)))) }
            if chance(0.5) {
                members.append((key: "total", value: .number(JSONNumber(Int.random(in: 1...500, using: &rng)))))
            }
            if chance(0.5) { members.append((key: "tags", value: strings(3))) }
            if chance(0.3) { members.append((key: "vip", value: .bool(chance(0.5)))) }
            if chance(0.3) {
                members.append(
                    (
                        key: "placedAt",
                        value: .string(Timestamp.format(now - Int64.random(in: 0...99, using: &rng) * 86_400_000))
                    ))
            }
            return .object(JSONObject(members))
        default: return nil
        }
    }

    static let fields = [
        "subtitle", "description", "keywords", "synonyms", "domain", "hidden", "rankingHint", "priority", "lastUsedAt",
        "expiresAt", "related", "properties",
    ]

    /// A new random record of a random type and id.
    mutating func record(now: Int64) -> JSONValue {
        let type = pick(Self.types), id = String(Int.random(in: 1...8, using: &rng))
        var fields: [(String, JSONValue)] = [("title", value("title", now: now)!)]
        for field in Self.fields { if let v = value(field, now: now) { fields.append((field, v)) } }
        return make(type, id, fields)
    }

    mutating func make(_ type: String, _ id: String, _ fields: [(String, JSONValue)]) -> JSONValue {
        written["\(type)/\(id)"] = fields
        return .object(
            JSONObject(
                [(key: "type", value: .string(type)), (key: "id", value: .string(id))]
                    + fields.map { (key: $0.0, value: $0.1) }))
    }

    /// The keys of the stored entities.
    func stored(_ store: EntityStore) throws -> [(String, String)] {
        try store.db.rows("SELECT type, id FROM entity ORDER BY rowid") { ($0.text(0), $0.text(1)) }
    }

    /// Makes one random write; returns what it did.
    mutating func step(_ store: EntityStore) throws -> String {
        let done = try write(store)
        kinds.insert(String(done.prefix { $0 != ":" }))
        return done
    }

    mutating func write(_ store: EntityStore) throws -> String {
        let live = try stored(store)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<30:
            let records = (0..<Int.random(in: 1...4, using: &rng)).map { _ in record(now: store.now) }
            _ = try store.ingest(records)
            return "ingest: \(records.map { "\($0["type"]!.string!)/\($0["id"]!.string!)" })"
        case 30..<55 where !live.isEmpty:
            // One field of a stored entity changed (or dropped); the others as they were.
            let (type, id) = pick(live)
            let field = pick(["title"] + Self.fields)
            var fields = (written["\(type)/\(id)"] ?? []).filter { $0.0 != field }
            if let v = value(field, now: store.now) { fields.append((field, v)) }
            _ = try store.ingest([make(type, id, fields)])
            return "replace: \(field) of \(type)/\(id)"
        case 55..<65 where !live.isEmpty:
            let (type, id) = pick(live)
            _ = try store.delete(DeleteRequest(type: type, ids: [id, "9"]))
            return "delete: \(type)/\(id)"
        case 65..<70:
            let type = pick(Self.types)
            _ = try store.delete(DeleteRequest(type: type))
            return "delete type: \(type)"
        case 70..<77:
            let domain = pick(["shop", "shop.vip", "home"])
            _ = try store.delete(DeleteRequest(domains: [domain]))
            return "delete domain: \(domain)"
        case 77..<87:
            // Past some expiry dates; the next write (a delete of nothing) purges.
            store.operation.now += Int64.random(in: 6...48, using: &rng) * 3_600_000
            _ = try store.delete(DeleteRequest(type: "none"))
            let expired = live.count - (try stored(store)).count
            purged += expired
            return "purge: \(expired) at \(Timestamp.format(store.now))"
        case 87..<97:
            let type = pick(Self.types)
            let declarations = [
                PropertyDeclaration(name: "total", kind: .number), PropertyDeclaration(name: "city", kind: .string),
                PropertyDeclaration(name: "tags", kind: .strings), PropertyDeclaration(name: "vip", kind: .boolean),
                PropertyDeclaration(name: "placedAt", kind: .date, sortable: false),
            ].filter { _ in chance(0.5) }
            let stemming: Stemming? = pick([nil, .english, Stemming.none])
            let latin: Transliteration? = pick([nil, .latin, Transliteration.none])
            try store.declare(type: type, declarations, stemming: stemming, transliteration: latin)
            return
                "declare: \(type) \(declarations.map(\.name)) stemming \(stemming?.rawValue ?? "as it was") "
                + "transliterate \(latin?.rawValue ?? "as it was")"
        case 97..<100:
            _ = try store.delete(DeleteRequest(all: true))
            return "delete all:"
        default:
            _ = try store.ingest([record(now: store.now)])
            return "ingest: one"
        }
    }
}
