import EntityIndex
import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// The side tables that no foreign key cleans (`relation`, `spotlight_key`) are deleted by keys re-derived from the stored records:
/// after every kind of replace and delete they hold exactly the rows the live records give, none of an entity
/// that is gone, and the file passes `integrity_check`.
@Suite struct DerivedRowsTests {
    /// A record listing `related` (type/id pairs).
    static func rec(_ type: String, _ id: String, related: [(String, String)] = [], _ extra: [(String, JSONValue)] = [])
        -> JSONValue
    {
        let list = JSONValue.array(
            related.map {
                .object(JSONObject([(key: "type", value: .string($0.0)), (key: "id", value: .string($0.1))]))
            })
        return TestSupport.record(type, id, "\(type) \(id)", [("related", list)] + extra)
    }

    /// The rows `relation` holds, as (listed type, listed id bytes, lister rowid).
    static func relationRows(_ store: EntityStore) throws -> Set<[UInt8]> {
        Set(
            try store.db.rows(
                "SELECT t.name, r.id, r.entity FROM relation r LEFT JOIN entity_type t ON t.id = r.type"
            ) { Array("\($0.optionalText(0) ?? "?")/".utf8) + Array($0.text(1).utf8) + Array("/\($0.int(2))".utf8) })
    }

    /// The rows the stored records give.
    static func expectedRelationRows(_ store: EntityStore) throws -> Set<[UInt8]> {
        var rows = Set<[UInt8]>()
        for (rowid, record) in try store.db.rows("SELECT rowid, record FROM entity", [], { ($0.int(0), $0.record(1)) })
        {
            for key in EntityRecord.related(of: record) {
                rows.insert(Array("\(key.type)/".utf8) + Array(key.id.utf8) + Array("/\(rowid)".utf8))
            }
        }
        return rows
    }

    /// The rows `spotlight_key` holds, as (attribute name, head, hash, entity).
    static func spotlightRows(_ store: EntityStore) throws -> Set<[UInt8]> {
        Set(
            try store.db.rows(
                "SELECT a.name, k.head, k.hash, k.entity FROM spotlight_key k LEFT JOIN spotlight_attr a ON a.id = k.attr"
            ) { Array(($0.optionalText(0) ?? "?").utf8) + Array(" \($0.int(1)) \($0.int(2)) \($0.int(3))".utf8) })
    }

    static func expectedSpotlightRows(_ store: EntityStore) throws -> Set<[UInt8]> {
        var rows = Set<[UInt8]>()
        for (rowid, record) in try store.db.rows("SELECT rowid, record FROM entity", [], { ($0.int(0), $0.record(1)) })
        {
            for key in SpotlightKey.keys(of: record) {
                rows.insert(Array(key.attr.utf8) + Array(" \(key.head) \(key.hash) \(rowid)".utf8))
            }
        }
        return rows
    }

    /// How many rows `property` holds, and how many the stored records give (with the declarations as they are).
    static func propertyRowCounts(_ store: EntityStore) throws -> (held: Int, expected: Int) {
        let held = Int(try store.db.scalar("SELECT count(*) FROM property")?.int ?? 0)
        var expected = 0
        let declarations = try store.allDeclarations()
        for object in try store.db.rows("SELECT record FROM entity", [], { $0.record(0) }) {
            guard case .success(let record) = RecordValidator.validate(.object(object), position: 0) else { continue }
            let declared = declarations.first { $0.type == record.type }?.properties ?? []
            expected +=
                PropertyRow.rows(
                    of: record, declarations: Dictionary(uniqueKeysWithValues: declared.map { ($0.name, $0) })
                ).count
        }
        return (held, expected)
    }

    /// Every derived table holds what the live records give, and the file is sound.
    static func check(_ store: EntityStore, _ comment: Comment? = nil) throws {
        let properties = try propertyRowCounts(store)
        #expect(properties.held == properties.expected, comment)
        #expect(try relationRows(store) == expectedRelationRows(store), comment)
        #expect(try spotlightRows(store) == expectedSpotlightRows(store), comment)
        for table in ["relation", "spotlight_key"] {
            #expect(
                try store.db.scalar("SELECT count(*) FROM \(table) WHERE entity NOT IN (SELECT rowid FROM entity)")?.int
                    == 0, comment)
        }
        #expect(try store.db.scalar("PRAGMA integrity_check")?.string == "ok", comment)
        #expect(try store.db.rows("PRAGMA foreign_key_check") { $0.text(0) }.isEmpty, comment)
    }

    static func seeded() throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("customer", "c1", [("keywords", ["ann", "Ann", "vip"]), ("properties", ["city": "Lyon"])]),
            rec("customer", "c2", [("domain", "shop.vip"), ("properties", ["city": "Café", "tags": ["a", "b"]])]),
            rec(
                "order", "o1", related: [("customer", "c1"), ("product", "p1"), ("product", "p1"), ("product", "gone")]),
            rec("order", "o2", related: [("customer", "c2"), ("product", "p2")], [("domain", "shop.vip")]),
            rec("order", "o3", related: [("customer", "c1")], [("expiresAt", "2026-03-03T00:00:00Z")]),
            rec("product", "p1", related: [("product", "p2")]), rec("product", "p2"),
        ])
        try check(store, "seeded")
        #expect(try relationRows(store).count == 7)
        return store
    }

    static func keys(_ results: [EntityResult]) -> [String] { results.map(\.key.description) }

    @Test func replacingARecordRewritesItsRelations() throws {
        let store = try Self.seeded()
        // Another order, a repeat dropped, one kept, one new; an id in two Unicode forms is two ids.
        _ = try store.ingest([
            Self.rec("order", "o1", related: [("product", "p2"), ("customer", "c1"), ("place", "Cafe\u{301}")]),
            Self.rec("order", "o2", related: [("place", "Caf\u{E9}")]),
            Self.rec(
                "customer", "c1",
                [("subtitle", "changed, same links"), ("keywords", ["vip", "new"]), ("properties", ["city": "Paris"])]),
            Self.rec("customer", "c2", [("domain", "shop.vip"), ("properties", ["tags": ["b", "c", "Cafe\u{301}"]])]),
        ])
        try Self.check(store, "replaced")
        #expect(try store.spotlight(SpotlightRequest(query: #"city == "Lyon" || keywords == "ann"c"#)).isEmpty)
        #expect(
            try store.spotlight(SpotlightRequest(query: #"city == "paris"c && keywords == "new""#)).map(\.key.id) == [
                "c1"
            ])
        #expect(try store.spotlight(SpotlightRequest(query: #"tags == "c*""#)).map(\.key.id) == ["c2"])
        #expect(
            Self.keys(try store.related(type: "order", id: "o1", direction: .out)) == ["product/p2", "customer/c1"])
        #expect(
            try store.related(RelatedRequest(type: "order", id: "o1")).missing.map(\.id) == ["Cafe\u{301}"])
        #expect(Self.keys(try store.related(type: "product", id: "p1", direction: .in)).isEmpty)
        #expect(Self.keys(try store.related(type: "product", id: "p2", direction: .in)) == ["order/o1", "product/p1"])
        #expect(Self.keys(try store.related(type: "customer", id: "c2", direction: .in)).isEmpty)
        #expect(Self.keys(try store.related(type: "place", id: "Caf\u{E9}", direction: .in)) == ["order/o2"])
        // Unchanged records write nothing; an emptied list leaves no row.
        _ = try store.ingest([Self.rec("order", "o2"), Self.rec("product", "p1", related: [("product", "p2")])])
        try Self.check(store, "emptied")
        #expect(Self.keys(try store.related(type: "place", id: "Caf\u{E9}", direction: .in)).isEmpty)
    }

    @Test func everyDeleteTakesTheRelationsOfWhatItDeletes() throws {
        var store = try Self.seeded()
        #expect(try store.delete(DeleteRequest(type: "order", ids: ["o1"])) == 1)
        try Self.check(store, "by id")
        #expect(Self.keys(try store.related(type: "customer", id: "c1", direction: .in)) == ["order/o3"])

        store = try Self.seeded()
        #expect(try store.delete(DeleteRequest(type: "order")) == 3)
        try Self.check(store, "by type")
        #expect(try Self.relationRows(store).count == 1)

        store = try Self.seeded()
        #expect(try store.delete(DeleteRequest(domains: ["shop"])) == 2)
        try Self.check(store, "by domain")
        #expect(Self.keys(try store.related(type: "product", id: "p2", direction: .in)) == ["product/p1"])

        store = try Self.seeded()
        #expect(try store.delete(DeleteRequest(all: true)) == 7)
        try Self.check(store, "all")
        #expect(try store.db.scalar("SELECT count(*) FROM entity_type")?.int == 0)
        _ = try store.ingest([Self.rec("order", "o9", related: [("customer", "c1")])])
        try Self.check(store, "after all")
        #expect(Self.keys(try store.related(type: "customer", id: "c1", direction: .in)) == ["order/o9"])
    }

    @Test func expiredEntitiesTakeTheirRelations() throws {
        let store = try Self.seeded()
        store.operation.now = Timestamp.parse("2026-03-04T00:00:00Z")!
        _ = try store.ingest([Self.rec("customer", "c3")])
        #expect(try store.get(type: "order", ids: ["o3"]).isEmpty)
        try Self.check(store, "purged")
        #expect(Self.keys(try store.related(type: "customer", id: "c1", direction: .in)) == ["order/o1"])
    }

    @Test func aRolledBackBatchOrIngestLeavesTheRowsAsTheyWere() throws {
        let store = try Self.seeded()
        let before = try Self.relationRows(store)
        try store.beginBatch()
        _ = try store.ingest([Self.rec("order", "o1", related: [("customer", "c9")]), Self.rec("order", "o7")])
        _ = try store.delete(DeleteRequest(type: "product"))
        store.abortBatch()
        #expect(try Self.relationRows(store) == before)
        try Self.check(store, "aborted batch")
        #expect {
            try store.ingest([
                Self.rec("order", "o1", related: [("customer", "c9")]), TestSupport.json(#"{"type":"order"}"#),
            ])
        } throws: { ($0 as? EntityIndexError)?.code == .invalidRecord }
        #expect(try Self.relationRows(store) == before)
        try Self.check(store, "refused ingest")
    }

    @Test func declaringPropertiesKeepsTheRelations() throws {
        let store = try Self.seeded()
        let before = try Self.relationRows(store)
        try store.declare(type: "order", [PropertyDeclaration(name: "total", kind: .number)])
        #expect(try Self.relationRows(store) == before)
        try Self.check(store, "declared")
    }
}
