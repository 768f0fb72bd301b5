import Foundation
import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// A database of schema 19 (the stamps in the `meta` keys `text_version`, `icu_version` and `spotlight_key_version`;
/// `Tests/Fixtures/schema19`) opens with the current code, which moves the stamps to `index_version` as the indexes
/// would write them: with the same text pipeline and ICU no index is rebuilt, and the database answers as one built
/// afresh from the same files; an older stamp rebuilds its indexes alone.
@Suite struct IndexVersionUpgradeTests {
    static let fixture = UpgradeTests.root.appendingPathComponent("Tests/Fixtures/schema19")
    static let clock = Timestamp.parse("2026-06-01T00:00:00Z")!
    /// The files the fixture was made from, in that order.
    static let files = [
        "data/customers.ndjson", "data/products.json", "data/orders.json", "data/reindex-example.ndjson",
    ]

    /// A copy of the fixture; `prepare` changes it before the current code opens it.
    static func copy(_ prepare: (Connection) throws -> Void = { _ in }) throws -> String {
        let path = TestSupport.temporaryDirectory() + "/old.sqlite"
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("entityidx.sqlite").path, toPath: path)
        let db = try Connection(path: path)
        try prepare(db)
        return path
    }

    /// Opens a database, counting what `onRebuild` is told.
    static func open(_ path: String) throws -> (EntityStore, Counter) {
        let told = Counter()
        let store = try EntityStore(path: path, now: clock, onRebuild: { _ in told.count += 1 })
        return (store, told)
    }

    final class Counter: @unchecked Sendable { var count = 0 }

    /// For each index, a row that no record gives, which a rebuild of the index drops: whether it is still there
    /// tells whether the index was rebuilt.
    static let markers: [String: (write: String, count: String)] = [
        "search_text": (
            "INSERT INTO name_key(hash, doc) VALUES (4242, 987654321)",
            "SELECT count(*) FROM name_key WHERE doc = 987654321"
        ),
        "vocabulary": (
            "INSERT INTO vocabulary(term) VALUES ('zzmarkerzz')",
            "SELECT count(*) FROM vocabulary WHERE term = 'zzmarkerzz'"
        ),
        "properties": (
            "INSERT INTO property_kind(type, name, kind, multi) VALUES ('zzmarker', 'zz', 'string', 0)",
            "SELECT count(*) FROM property_kind WHERE type = 'zzmarker'"
        ),
        "relations": (
            "INSERT INTO entity_type(name) VALUES ('zzmarker')",
            "SELECT count(*) FROM entity_type WHERE name = 'zzmarker'"
        ),
        "spotlight_keys": (
            "INSERT INTO spotlight_key(attr, head, hash, entity) VALUES (0, 0, 0, 987654321)",
            "SELECT count(*) FROM spotlight_key WHERE entity = 987654321"
        ),
    ]

    /// The indexes whose marker a rebuild removed.
    static func rebuilt(_ store: EntityStore) throws -> Set<String> {
        var result = Set<String>()
        for index in Indexes.all {
            let marker = try #require(markers[index.name], "a marker for \(index.name)")
            if try store.db.scalar(marker.count)?.int != 1 { result.insert(index.name) }
        }
        return result
    }

    static func plantMarkers(_ db: Connection) throws {
        for (_, marker) in markers { try db.execute(marker.write) }
    }

    @Test func theFixtureIsOfSchema19WithTheCurrentTextPipelineAndICU() throws {
        let db = try Connection(path: Self.fixture.appendingPathComponent("entityidx.sqlite").path, mode: .readOnly)
        #expect(try db.scalar("SELECT max(version) FROM schema_migrations")?.int == 19)
        let pairs: [(String, String)] = try db.rows("SELECT key, value FROM meta") { ($0.text(0), $0.text(1)) }
        let meta = Dictionary(uniqueKeysWithValues: pairs)
        #expect(meta["text_version"] == String(TextAnalyzer.version))
        #expect(meta["icu_version"] == TextAnalyzer.icuVersion)
        #expect(meta["spotlight_key_version"] == SpotlightKeyIndex().stamp)
    }

    @Test func anUpgradeFromSchema19AnswersAsAFreshDatabase() throws {
        let (upgraded, told) = try Self.open(try Self.copy())
        #expect(told.count == 0)
        #expect(upgraded.indexesAreCurrent)
        #expect(try upgraded.staleIndexes().isEmpty)
        for index in Indexes.all { #expect(try upgraded.storedStamp(index.name) == index.stamp, "\(index.name)") }
        #expect(
            try upgraded.db.scalar(
                "SELECT count(*) FROM meta WHERE key IN ('text_version', 'icu_version', 'spotlight_key_version')")?.int
                == 0)
        #expect(try upgraded.db.scalar("SELECT max(version) FROM schema_migrations")?.int == Int64(Schema.version))

        let fresh = try EntityStore(path: TestSupport.temporaryDirectory() + "/fresh.sqlite", now: Self.clock)
        for path in Self.files { _ = try fresh.ingest(SpotlightUpgradeTests.records(path)) }
        // Every index holds, by what its rows mean, what the fresh one holds.
        for index in Indexes.all {
            #expect(try IndexesTests.dump(index, upgraded) == IndexesTests.dump(index, fresh), "\(index.name)")
        }
        #expect(try StorageUpgradeTests.entities(upgraded) == StorageUpgradeTests.entities(fresh))
        #expect(try StorageUpgradeTests.entities(fresh).count > 350)
        try Self.expectSameAnswers(upgraded, fresh)

        // A write does not rebuild either; the last file again changes nothing.
        let records = try SpotlightUpgradeTests.records(Self.files[Self.files.count - 1])
        #expect(try upgraded.ingest(records).unchanged == records.count)
        #expect(told.count == 0)
    }

    /// The indexes whose own version changed since schema 19: the property index's is 2 since schema 21 (an empty
    /// array is a row of its own).
    static let changedSince19: Set<String> = ["properties"]

    @Test func currentStampsLeaveEveryIndexAsItWasButThoseWhoseVersionChanged() throws {
        let (upgraded, told) = try Self.open(try Self.copy(Self.plantMarkers))
        #expect(told.count == 0 && upgraded.indexesAreCurrent)
        #expect(try Self.rebuilt(upgraded) == Self.changedSince19)
        _ = try upgraded.ingest([TestSupport.record("note", "n1", "after the upgrade")])
        #expect(told.count == 0)
        #expect(try Self.rebuilt(upgraded) == Self.changedSince19)
    }

    /// An older stamp in one meta key, and the indexes it stood for.
    static let olderStamps: [(key: String, value: String, indexes: Set<String>)] = [
        ("spotlight_key_version", "1 icu \(TextAnalyzer.icuVersion)", ["spotlight_keys"]),
        ("text_version", String(TextAnalyzer.version - 1), ["search_text", "vocabulary", "properties"]),
        ("icu_version", "0.0", ["search_text", "vocabulary", "properties"]),
    ]

    @Test(arguments: olderStamps.indices)
    func anOlderStampRebuildsItsIndexesAlone(_ which: Int) throws {
        let older = Self.olderStamps[which]
        let (upgraded, told) = try Self.open(
            try Self.copy { db in
                try Self.plantMarkers(db)
                try db.run("UPDATE meta SET value = ? WHERE key = ?", [.text(older.value), .text(older.key)])
            })
        #expect(try Self.rebuilt(upgraded) == older.indexes.union(Self.changedSince19), "\(older.key)")
        #expect(told.count == (older.indexes.contains("search_text") ? 1 : 0))
        #expect(upgraded.indexesAreCurrent)
        #expect(try upgraded.staleIndexes().isEmpty)
        let fresh = try EntityStore(path: TestSupport.temporaryDirectory() + "/fresh.sqlite", now: Self.clock)
        for path in Self.files { _ = try fresh.ingest(SpotlightUpgradeTests.records(path)) }
        for name in older.indexes {
            let index = try #require(Indexes.named(name))
            #expect(try IndexesTests.dump(index, upgraded) == IndexesTests.dump(index, fresh), "\(name)")
        }
        try Self.expectSameAnswers(upgraded, fresh)
    }

    /// Searches, suggestions, property queries, related entities and Core Spotlight queries answer the same.
    static func expectSameAnswers(_ upgraded: EntityStore, _ fresh: EntityStore) throws {
        func keys(_ results: [EntityResult]) -> [String] {
            results.map { "\($0.key) \($0.score.map { String($0) } ?? "")" }
        }
        for query in [
            "1042", "cafe", "creme brul", "strasse", "köln", "ada", "mug", "tea", "gren", "order", "loyalty", "o", "k",
            "street map", "müller", "london",
        ] {
            #expect(
                keys(try upgraded.search(SearchRequest(query: query, limit: 50)))
                    == keys(try fresh.search(SearchRequest(query: query, limit: 50))), "\(query)")
            let typed = UserQueryRequest(query: query, maxItems: 5, maxSuggestions: 10)
            #expect(
                try upgraded.userQuery(typed).suggestions.map(\.text) == fresh.userQuery(typed).suggestions.map(\.text),
                "\(query)")
        }
        let queries = [
            PropertyQueryRequest(
                type: "order", filters: [PropertyFilter(property: "status", op: .eq, value: "shipped")],
                sort: [PropertySort(property: "total", descending: true)], limit: 10),
            PropertyQueryRequest(type: "product", filters: [PropertyFilter(property: "price", op: .lt, value: 50)]),
            PropertyQueryRequest(
                type: "customer", filters: [PropertyFilter(property: "city", op: .hasPrefix, value: "kö")]),
        ]
        for q in queries { #expect(keys(try upgraded.query(q)) == keys(try fresh.query(q)), "\(q.types)") }
        for (type, id) in [("order", "1042"), ("customer", "c1"), ("product", "p6")] {
            for direction in [RelatedDirection.out, .in, .both] {
                #expect(
                    keys(try upgraded.related(type: type, id: id, direction: direction))
                        == keys(try fresh.related(type: type, id: id, direction: direction)), "\(type)/\(id)")
            }
        }
        #expect(keys(try upgraded.suggest(type: nil, limit: 10)) == keys(try fresh.suggest(type: nil, limit: 10)))
        for query in [
            #"title == "Ada*"cd"#, #"keywords == "de""#, #"city == "köln"cd"#, #"title == "*mug*"c"#,
            #"domainIdentifier == "shop.customers""#, #"subtitle == "*" && total > 100"#,
        ] {
            #expect(
                try SpotlightUpgradeTests.answers(upgraded, query) == SpotlightUpgradeTests.answers(fresh, query),
                "\(query)")
        }
    }
}
