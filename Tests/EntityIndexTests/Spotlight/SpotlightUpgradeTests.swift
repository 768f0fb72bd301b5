import Foundation
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// A database of schema 9 (with `spotlight_text`; `Tests/Fixtures/schema9`) opens with the current code, which drops
/// that table, fills `spotlight_key` from the records, and answers every recorded Core Spotlight query as the release
/// that wrote it did; so does a database built afresh from the same files.
@Suite struct SpotlightUpgradeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/schema9")
    static let clock = Timestamp.parse("2026-06-01T00:00:00Z")!

    static func records(_ path: String) throws -> [JSONValue] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        if path.hasSuffix(".json") { return try JSONParser().parse(text).array ?? [] }
        return try text.split(separator: "\n").map { try JSONParser().parse(String($0)) }
    }

    /// The recorded queries and the entities the schema-9 release answered.
    static func expected() throws -> [(query: String, entities: [String])] {
        let text = try String(contentsOf: fixture.appendingPathComponent("spotlight-expected.ndjson"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let o = try JSONParser().parse(String(line))
            return (o["query"]?.string ?? "", o["entities"]?.array?.compactMap(\.string) ?? [])
        }
    }

    static func answers(_ store: EntityStore, _ query: String) throws -> [String] {
        try store.spotlight(SpotlightRequest(query: query, limit: 1000)).map { "\($0.key.type)/\($0.key.id)" }.sorted()
    }

    @Test func theRecordedQueriesAnswerAsBefore() throws {
        let directory = TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("entityidx.sqlite").path, toPath: directory + "/old.sqlite")
        let upgraded = try EntityStore(path: directory + "/old.sqlite", now: Self.clock)
        let tables = try upgraded.db.rows("SELECT name FROM sqlite_master WHERE name LIKE 'spotlight%'") { $0.text(0) }
        #expect(!tables.contains("spotlight_text") && tables.contains("spotlight_key"))
        #expect(try upgraded.db.scalar("SELECT count(*) FROM spotlight_key")?.int ?? 0 > 3000)
        let fresh = try EntityStore(path: directory + "/fresh.sqlite", now: Self.clock)
        for path in [
            "data/customers.ndjson", "data/products.json", "data/orders.json",
            "Tests/Fixtures/schema6/debian-sample.ndjson", "Tests/Fixtures/schema9/spotlight-sample.ndjson",
        ] {
            _ = try fresh.ingest(Self.records(path))
        }
        let expected = try Self.expected()
        #expect(expected.count > 700)
        for (query, entities) in expected {
            #expect(try Self.answers(upgraded, query) == entities, "\(query)")
            #expect(try Self.answers(fresh, query) == entities, "\(query) (fresh)")
        }
    }
}
