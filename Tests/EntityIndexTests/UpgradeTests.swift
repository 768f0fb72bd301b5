import Foundation
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// A database written by an earlier release (schema 6, records stored as text; `Tests/Fixtures/schema6`) opens with
/// the current code and then holds the same entities and answers like a database built afresh from the same files.
@Suite struct UpgradeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/schema6")
    static let clock = Timestamp.parse("2026-06-01T00:00:00Z")!

    /// The files the fixture was made from, in that order, as parsed records.
    static func inputs() throws -> [[JSONValue]] {
        try [
            "data/customers.ndjson", "data/products.json", "data/orders.json",
            "Tests/Fixtures/schema6/debian-sample.ndjson",
        ].map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            if path.hasSuffix(".json") { return try JSONParser().parse(text).array ?? [] }
            return try text.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        }
    }

    func upgradedAndFresh() throws -> (EntityStore, EntityStore, [[JSONValue]]) {
        let directory = TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("entityidx.sqlite").path, toPath: directory + "/old.sqlite")
        let upgraded = try EntityStore(path: directory + "/old.sqlite", now: Self.clock)
        let fresh = try EntityStore(path: directory + "/fresh.sqlite", now: Self.clock)
        let inputs = try Self.inputs()
        for records in inputs { _ = try fresh.ingest(records) }
        return (upgraded, fresh, inputs)
    }

    static func keys(_ results: [EntityResult]) -> [String] { results.map { "\($0.key.type)/\($0.key.id)" } }

    @Test func sameEntitiesAndAnswersAfterUpgrade() throws {
        let (upgraded, fresh, inputs) = try upgradedAndFresh()
        var checked = 0
        for record in inputs.joined() {
            let type = record["type"]?.string ?? "", id = record["id"].map { $0.string ?? JSONWriter.string($0) } ?? ""
            let got = try upgraded.get(type: type, ids: [id]).map { JSONWriter.string(.object($0.record)) }
            let want = try fresh.get(type: type, ids: [id]).map { JSONWriter.string(.object($0.record)) }
            #expect(got == want, "\(type)/\(id)")
            checked += got.count
        }
        #expect(checked > 390)  // a few entities of data/ are expired at this clock
        for query in [
            "1042", "cafe", "东京", "strasse", "widgte", "tea", "ecm", "gmp", "game", "library", "pyth", "k", "blue ka",
        ] {
            #expect(
                Self.keys(try upgraded.search(SearchRequest(query: query)))
                    == Self.keys(try fresh.search(SearchRequest(query: query))), "\(query)")
        }
        let queries = [
            PropertyQueryRequest(
                type: "order", filters: [PropertyFilter(property: "status", op: .eq, value: "shipped")],
                sort: [PropertySort(property: "total", descending: true)], limit: 5),
            PropertyQueryRequest(
                type: "package", filters: [PropertyFilter(property: "section", op: .eq, value: "libs")],
                sort: [PropertySort(property: "installedSize", descending: true)], limit: 10),
            PropertyQueryRequest(type: "product", filters: [PropertyFilter(property: "price", op: .lt, value: 50)]),
        ]
        for q in queries { #expect(Self.keys(try upgraded.query(q)) == Self.keys(try fresh.query(q)), "\(q.types)") }
        #expect(
            Self.keys(try upgraded.related(type: "order", id: "1042", direction: .out))
                == Self.keys(try fresh.related(type: "order", id: "1042", direction: .out)))
        #expect(
            Self.keys(try upgraded.suggest(type: nil, limit: 10)) == Self.keys(try fresh.suggest(type: nil, limit: 10)))
    }

    @Test func reingestingTheSameFilesAfterUpgradeChangesNothing() throws {
        let (upgraded, fresh, inputs) = try upgradedAndFresh()
        for records in inputs {
            let counts = try upgraded.ingest(records)
            #expect(counts.unchanged == records.count && counts.inserted == 0 && counts.updated == 0)
        }
        // The records now have the current stored form, and still read the same.
        let rows = try upgraded.db.rows("SELECT typeof(record), count(*) FROM entity GROUP BY 1 ORDER BY 1") {
            "\($0.text(0)) \($0.int(1))"
        }
        let freshRows = try fresh.db.rows("SELECT typeof(record), count(*) FROM entity GROUP BY 1 ORDER BY 1") {
            "\($0.text(0)) \($0.int(1))"
        }
        #expect(rows == freshRows)
        #expect(
            Self.keys(try upgraded.search(SearchRequest(query: "ecm")))
                == Self.keys(try fresh.search(SearchRequest(query: "ecm"))))
    }
}
