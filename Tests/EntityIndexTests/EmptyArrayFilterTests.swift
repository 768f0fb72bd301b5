import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// What each filter answers for an entity without the property, with null, with an empty array and with values: the
/// table of the README's property queries, in each plan (the general one, a sorted walk, a search's candidates).
@Suite struct EmptyArrayFilterTests {
    /// The five holders of `tags`, by id.
    static let records: [(String, JSONValue?)] = [
        ("absent", nil), ("null", .null), ("empty", []), ("x", ["x"]), ("y", ["y"]),
    ]

    /// The ids each filter on `tags` with the value "x" keeps.
    static let table: [(PropertyFilter.Op, [String])] = [
        (.eq, ["x"]),
        (.ne, ["empty", "y"]),
        (.contains, ["x"]),
        (.notContains, ["empty", "y"]),
        (.hasPrefix, ["x"]),
    ]

    func store() throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest(
            Self.records.map { id, tags in
                var properties = JSONObject([("rank", JSONValue(id.count))])
                if let tags { properties["tags"] = tags }
                return TestSupport.record("t", id, "Item \(id)", [("properties", .object(properties))])
            })
        return store
    }

    @Test(arguments: table) func eachOperatorKeepsWhatTheTableSays(op: PropertyFilter.Op, expected: [String]) throws {
        let store = try store()
        let filter = PropertyFilter(property: "tags", op: op, value: "x")
        // The general plan: the filter's entities collected.
        let plain = try store.query(PropertyQueryRequest(type: "t", filters: [filter])).map(\.key.id)
        #expect(plain.sorted() == expected, "\(op)")
        // A sorted, limited walk: each entity looked up.
        let sorted = try store.query(
            PropertyQueryRequest(type: "t", filters: [filter], sort: [.init(property: "rank")], limit: 10)
        ).map(\.key.id)
        #expect(sorted.sorted() == expected, "\(op) sorted")
        // A search's candidates.
        let searched = try store.search(SearchRequest(query: "item", types: ["t"], limit: 10, filters: [filter]))
            .map(\.key.id)
        #expect(searched.sorted() == expected, "\(op) in a search")
    }

    @Test func anEmptyArrayIsNoValueToSortBy() throws {
        let store = try store()
        let ids = try store.query(PropertyQueryRequest(type: "t", filters: [], sort: [.init(property: "tags")]))
            .map(\.key.id)
        #expect(Array(ids.prefix(2)) == ["x", "y"])
        #expect(Set(ids.suffix(3)) == ["absent", "null", "empty"])
    }

    @Test func aReplacedEmptyArrayLeavesNoRowBehind() throws {
        let store = try store()
        _ = try store.ingest([TestSupport.record("t", "empty", "Item empty", [("properties", ["tags": ["x"]])])])
        let ne = PropertyFilter(property: "tags", op: .ne, value: "x")
        #expect(try store.query(PropertyQueryRequest(type: "t", filters: [ne])).map(\.key.id) == ["y"])
        _ = try store.ingest([TestSupport.record("t", "x", "Item x", [("properties", ["tags": []])])])
        #expect(try store.query(PropertyQueryRequest(type: "t", filters: [ne])).map(\.key.id).sorted() == ["x", "y"])
    }
}
