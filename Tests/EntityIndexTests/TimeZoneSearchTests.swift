import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Search on the time zones of Debian's tzdata (Tests/Fixtures/timezones.ndjson, made by scripts/tzdata-records.py):
/// snake_case and slashed names are compounds whose segments are found typed apart, with the connector or joined.
@Suite struct TimeZoneSearchTests {
    static func store() throws -> EntityStore {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/timezones.ndjson") ?? ""
        let records = text.split(separator: "\n").map { TestSupport.json(String($0)) }
        #expect(records.count > 400, "the fixture holds tzdata's zones")
        _ = try store.ingest(records)
        return store
    }

    @Test(
        "a zone is found by its city typed apart, with its connector or joined",
        arguments: [
            ("kuala lumpur", "Asia/Kuala_Lumpur"), ("kuala_lumpur", "Asia/Kuala_Lumpur"),
            ("kualalumpur", "Asia/Kuala_Lumpur"), ("Kuala_Lum", "Asia/Kuala_Lumpur"),
            ("kualalum", "Asia/Kuala_Lumpur"), ("asia/kuala_lumpur", "Asia/Kuala_Lumpur"),
            ("swift current", "America/Swift_Current"), ("swiftcurrent", "America/Swift_Current"),
            ("swift_current", "America/Swift_Current"), ("America/Swift_Current", "America/Swift_Current"),
            ("buenosaires", "America/Argentina/Buenos_Aires"), ("buenos aires", "America/Argentina/Buenos_Aires"),
            ("portauprince", "America/Port-au-Prince"), ("port au prince", "America/Port-au-Prince"),
            ("dumontdurville", "Antarctica/DumontDUrville"), ("ho chi minh", "Asia/Ho_Chi_Minh"),
            ("hochiminh", "Asia/Ho_Chi_Minh"), ("newsalem", "America/North_Dakota/New_Salem"),
        ])
    func findsZone(_ query: String, _ zone: String) throws {
        let store = try Self.store()
        let ids = try store.search(SearchRequest(query: query, limit: 5)).map(\.key.id)
        #expect(ids.first == zone, "\(query) → \(ids)")
    }

    @Test func aWholeSegmentIsNotAPrefixOfAnother() throws {
        let store = try Self.store()
        let ids = try store.search(SearchRequest(query: "kualalumpur ", limit: 50)).map(\.key.id)
        #expect(ids == ["Asia/Kuala_Lumpur"])
        let everything = try store.search(SearchRequest(query: "americaswift", limit: 50)).map(\.key.id)
        #expect(everything == ["America/Swift_Current"], "the whole name joined still finds it")
    }

    @Test func highlightsTheSegmentTypedJoined() throws {
        let store = try Self.store()
        let result = try store.search(SearchRequest(query: "swiftcurrent", limit: 1, highlight: true))
        let span = result.first?.highlights?.first
        #expect(span?.field == "title" && span?.text == "America/Swift_Current")
    }
}
