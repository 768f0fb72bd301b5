import EntityIndex
import JSON
import TestSupport
import Testing

/// The plans of a sorted, limited property query with an `eq` filter (reading the matches, or a bounded walk of the
/// sort index) give exactly the first rows of the general plan, whatever the size of the match set and wherever its
/// entities sit in the sort order.
@Suite struct PropertyPlanTests {
    @Test func sortedLimitedEqQueriesAgreeWithTheGeneralPlan() throws {
        let store = try TestSupport.store()
        var records: [JSONValue] = []
        for i in 0..<1500 {
            // Sections of 1000, 300, 150 and 50 entities: "big" spread over the sort order, "small" at its end, "tail"
            // tied on a few sizes. Some entities lack the sort property, some are expired, some are of another type.
            let section = i < 1000 ? "big" : i < 1300 ? "small" : i < 1450 ? "tail" : "few"
            let size: JSONValue =
                switch section {
                case "small": .number(JSONNumber(Double(i % 40)))
                case "tail": .number(JSONNumber(Double(1000 + i % 3)))
                default: .number(JSONNumber(Double((i * 7919) % 5000)))
                }
            var properties: [(String, JSONValue)] = [
                ("section", .string(section)), ("name", .string("n\((i * 31) % 97)")),
            ]
            if i % 13 != 0 { properties.append(("size", size)) }
            var extra: [(String, JSONValue)] = [
                ("properties", .object(JSONObject(properties.map { (key: $0.0, value: $0.1) })))
            ]
            if i % 17 == 0 { extra.append(("expiresAt", "2026-01-01T00:00:00Z")) }
            records.append(TestSupport.record(i % 11 == 0 ? "other" : "pkg", "p\(i)", "Package \(i)", extra))
        }
        _ = try store.ingest(records)
        var compared = 0
        for section in ["big", "small", "tail", "few"] {
            for sortKey in ["size", "name"] {
                for descending in [true, false] {
                    let filters = [PropertyFilter(property: "section", op: .eq, value: .string(section))]
                    let sort = [PropertySort(property: sortKey, descending: descending)]
                    let all = try store.query(PropertyQueryRequest(type: "pkg", filters: filters, sort: sort)).map(
                        \.key.id)
                    #expect(!all.isEmpty)
                    for limit in [1, 5, 20, 400] {
                        let limited = try store.query(
                            PropertyQueryRequest(type: "pkg", filters: filters, sort: sort, limit: limit))
                        #expect(
                            limited.map(\.key.id) == Array(all.prefix(limit)),
                            "\(section) \(sortKey) \(descending) \(limit)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 64)
    }
}
