import Foundation
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// The schema-11 database (`Tests/Fixtures/schema11`) opens with the current code, which converts its side tables
/// (`relation`, `spotlight_key`, `property`), and answers `related` in both directions, property queries and the
/// recorded Core Spotlight queries (`Tests/Fixtures/schema9`, asked of the same records) as a database built afresh
/// from the same files; the converted tables hold the rows the fresh one holds.
@Suite struct StorageUpgradeTests {
    static func stores() throws -> (upgraded: EntityStore, fresh: EntityStore) {
        let directory = TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: SearchUpgradeTests.fixture.appendingPathComponent("entityidx.sqlite").path,
            toPath: directory + "/old.sqlite")
        let upgraded = try EntityStore(path: directory + "/old.sqlite", now: SearchUpgradeTests.clock)
        let fresh = try EntityStore(path: directory + "/fresh.sqlite", now: SearchUpgradeTests.clock)
        for path in [
            "data/customers.ndjson", "data/products.json", "data/orders.json",
            "Tests/Fixtures/schema6/debian-sample.ndjson", "Tests/Fixtures/schema9/spotlight-sample.ndjson",
        ] {
            _ = try fresh.ingest(SpotlightUpgradeTests.records(path))
        }
        return (upgraded, fresh)
    }

    static func entities(_ store: EntityStore) throws -> [EntityKey] {
        try store.db.rows("SELECT type, id FROM entity ORDER BY type, id") {
            EntityKey(type: $0.text(0), id: $0.text(1))
        }
    }

    /// The rows of `relation` as (listed type, listed id, lister), the same in any two databases of the same records.
    static func relationRows(_ store: EntityStore) throws -> [String] {
        try store.db.rows(
            """
            SELECT t.name, r.id, e.type, e.id FROM relation r JOIN entity_type t ON t.id = r.type
            JOIN entity e ON e.rowid = r.entity
            """
        ) { "\($0.text(0))/\($0.text(1)) <- \($0.text(2))/\($0.text(3))" }.sorted()
    }

    @Test func relatedAnswersAsAFreshDatabase() throws {
        let (upgraded, fresh) = try Self.stores()
        let keys = try Self.entities(fresh)
        #expect(keys.count == 440)
        #expect(try Self.entities(upgraded) == keys)
        #expect(try Self.relationRows(upgraded) == Self.relationRows(fresh))
        #expect(try Self.relationRows(fresh).count > 1000)
        #expect(try upgraded.db.scalar("PRAGMA integrity_check")?.string == "ok")
        var linked = 0
        for key in keys {
            for direction in [RelatedDirection.out, .in, .both] {
                let request = RelatedRequest(type: key.type, id: key.id, direction: direction)
                func answer(_ store: EntityStore) -> String {
                    do {
                        let related = try store.related(request)
                        return related.entities.map {
                            "\($0.key) \(String(decoding: $0.recordText?.bytes ?? [], as: UTF8.self))"
                        }
                        .joined(separator: "\n") + " missing "
                            + related.missing.map(\.description).joined(separator: " ")
                    } catch {
                        return "error \(error.code.rawValue)"
                    }
                }
                let new = answer(fresh)
                #expect(answer(upgraded) == new, "\(key) \(direction)")
                if direction == .both && !new.hasPrefix(" missing") && !new.hasPrefix("error") { linked += 1 }
            }
        }
        #expect(linked > 300)
    }

    /// The rows of `spotlight_key` as (attribute, head, hash, entity).
    static func spotlightRows(_ store: EntityStore) throws -> [String] {
        try store.db.rows(
            """
            SELECT a.name, k.head, k.hash, e.type, e.id FROM spotlight_key k JOIN spotlight_attr a ON a.id = k.attr
            JOIN entity e ON e.rowid = k.entity
            """
        ) { "\($0.text(0)) \($0.int(1)) \($0.int(2)) \($0.text(3))/\($0.text(4))" }.sorted()
    }

    @Test func coreSpotlightAnswersAsAFreshDatabase() throws {
        let (upgraded, fresh) = try Self.stores()
        #expect(try Self.spotlightRows(upgraded) == Self.spotlightRows(fresh))
        #expect(try Self.spotlightRows(fresh).count > 3000)
        #expect(
            try upgraded.db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'spotlight_key_entity'")?.int == 0)
        // The schema-9 release's queries, asked of the same records, and a few forms that read per entity.
        let expected = try SpotlightUpgradeTests.expected()
        #expect(expected.count > 700)
        for (query, entities) in expected {
            #expect(try SpotlightUpgradeTests.answers(upgraded, query) == entities, "\(query)")
            #expect(try SpotlightUpgradeTests.answers(fresh, query) == entities, "\(query) (fresh)")
        }
        for query in [
            #"title == "a*" && keywords == "*""#, #"title == "*" && keywords != "a*"c"#, #"section != "libs""#,
            #"title == "lib*" && section == "li*""#, #"title == "p*"c && subtitle != "*python*"c"#,
            #"keywords == "*1*" && title == "*""#, #"subtitle == "*a1*"c"#, #"city == "*" && title != "x""#,
        ] {
            let answer = try fresh.spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key)
            #expect(
                try upgraded.spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key) == answer, "\(query)")
        }
        for typed in ["ca", "lib", "o", "pyth", "rou"] {
            let request = UserQueryRequest(query: typed, maxItems: 5, maxSuggestions: 10)
            #expect(
                try upgraded.userQuery(request).suggestions.map(\.text)
                    == fresh.userQuery(request).suggestions.map(\.text), "\(typed)")
        }
    }

    /// A property query's entities, or its error's code.
    static func answer(_ store: EntityStore, _ request: PropertyQueryRequest) -> String {
        do { return try store.query(request).map(\.key.description).joined(separator: " ") } catch {
            return "error \(error.code.rawValue)"
        }
    }

    @Test func propertyQueriesAnswerAsAFreshDatabase() throws {
        let (upgraded, fresh) = try Self.stores()
        let rows =
            "SELECT n.name, p.ord, p.multi, p.kind, p.num, p.text, e.type, e.id FROM property p JOIN property_name n ON n.id = p.name JOIN entity e ON e.rowid = p.entity"
        func dump(_ store: EntityStore) throws -> [String] {
            try store.db.rows(rows) { s in (0..<8).map { "\(s.optionalText(Int32($0)) ?? "-")" }.joined(separator: "|")
            }
            .sorted()
        }
        #expect(try dump(upgraded) == dump(fresh))
        #expect(try dump(fresh).count > 2000)
        // Every property of every type: sorted both ways, and filtered by each operator on values it holds.
        let properties = try fresh.db.rows("SELECT DISTINCT type, name FROM property_kind ORDER BY type, name") {
            ($0.text(0), $0.text(1))
        }
        var asked = 0, answered = 0
        for (type, name) in properties {
            var values: [JSONValue] = []
            for result in try fresh.all(type: type, limit: 1000, cursor: nil).entities {
                guard let value = result.record["properties"]?[name], values.count < 3 else { continue }
                let item = value.array?.first ?? value
                if !values.contains(item) { values.append(item) }
            }
            var requests = [true, false].flatMap { descending in
                [nil, 7].map {
                    PropertyQueryRequest(
                        type: type, filters: [], sort: [.init(property: name, descending: descending)], limit: $0)
                }
            }
            for value in values {
                var ops: [PropertyFilter.Op] = [.eq, .ne, .lt, .ge, .contains, .notContains]
                if value.string != nil { ops += [.hasPrefix, .hasSuffix] }
                for op in ops {
                    var operand = value
                    if let text = value.string, op == .hasPrefix || op == .hasSuffix || op == .contains {
                        operand = .string(String(op == .hasSuffix ? text.suffix(3) : text.prefix(3)))
                    }
                    let filter = PropertyFilter(property: name, op: op, value: operand)
                    requests.append(PropertyQueryRequest(type: type, filters: [filter]))
                    requests.append(
                        PropertyQueryRequest(type: type, filters: [filter], sort: [.init(property: name)], limit: 5))
                }
            }
            for request in requests {
                let new = Self.answer(fresh, request)
                #expect(
                    Self.answer(upgraded, request) == new,
                    "\(type).\(name) \(request.filters.map { "\($0.op) \($0.value)" })")
                asked += 1
                if !new.isEmpty && !new.hasPrefix("error") { answered += 1 }
            }
        }
        #expect(asked > 500 && answered > 300)
        for query in [
            #"installedSize > 100 && title == "lib*""#, #"rating != 4"#, #"InRange(price, 1, 20)"#,
            #"opened > $time.iso(2020-01-01T00:00:00Z)"#,
        ] {
            let answer = try fresh.spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key)
            #expect(
                try upgraded.spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key) == answer, "\(query)")
        }
    }
}
