import EntityIndex
import JSON
import TestSupport
import Testing

/// Several types in one request (`--type a --type b`, `"type": ["a", "b"]`) answer as if the index held only them:
/// each union is compared with the requests of its types one at a time, merged by the documented order.
@Suite struct TypeUnionTests {
    static let types = ["a", "b", "c"]

    /// 900 entities over three types that share ids, with a numeric `total` (missing on some, many ties) and a
    /// `status`.
    static func store() throws -> EntityStore {
        let store = try TestSupport.store()
        var rng = TestSupport.SeededGenerator(seed: 42)
        var records: [JSONValue] = []
        for i in 0..<900 {
            var properties: [(String, JSONValue)] = [("status", .string(["open", "done", "late"][i % 3]))]
            if Int.random(in: 0..<6, using: &rng) != 0 {
                properties.append(("total", JSONValue(Int.random(in: 0...40, using: &rng))))
            }
            records.append(
                TestSupport.record(
                    types[i % 3], "\(i / 3 % 150)", "kettle \(i % 17)",
                    [
                        ("properties", .object(JSONObject(properties))),
                        ("priority", JSONValue(Int.random(in: -3...3, using: &rng))),
                    ]))
        }
        // Ids repeat across types (a/1, b/1, c/1) and, within a type, an id written again replaces the entity.
        _ = try store.ingest(records)
        return store
    }

    static func keys(_ results: [EntityResult]) -> [String] { results.map(\.key.description) }

    static func total(_ e: EntityResult) -> Double? { e.record["properties"]?["total"]?.number?.double }

    @Test func aPropertyQueryOfAUnionIsItsTypesMergedInTheQuerysOrder() throws {
        let store = try Self.store()
        let filterSets: [[PropertyFilter]] = [
            [], [.init(property: "status", op: .eq, value: "open")], [.init(property: "total", op: .ge, value: 30)],
            [
                .init(property: "total", op: .between, value: [5, 9]),
                .init(property: "status", op: .eq, value: "late"),
            ],
        ]
        var compared = 0
        for union in [["a", "b"], ["c", "a"], ["a", "b", "c"]] {
            for filters in filterSets {
                for descending in [false, true] {
                    let sort = [PropertySort(property: "total", descending: descending)]
                    var merged: [EntityResult] = []
                    for type in union {
                        merged += try store.query(PropertyQueryRequest(type: type, filters: filters, sort: sort))
                    }
                    // Entities without the sort property last; ties by id, then type (bytes).
                    merged.sort { x, y in
                        let (p, q) = (Self.total(x), Self.total(y))
                        if p != q {
                            guard let p else { return false }
                            guard let q else { return true }
                            return descending ? p > q : p < q
                        }
                        if x.key.id != y.key.id { return x.key.id.utf8.lexicographicallyPrecedes(y.key.id.utf8) }
                        return x.key.type.utf8.lexicographicallyPrecedes(y.key.type.utf8)
                    }
                    let expected = Self.keys(merged)
                    let all = try store.query(PropertyQueryRequest(types: union, filters: filters, sort: sort))
                    #expect(Self.keys(all) == expected, "\(union) \(filters.map(\.property)) \(descending)")
                    for limit in [1, 5, 40, 400] {
                        let limited = try store.query(
                            PropertyQueryRequest(types: union, filters: filters, sort: sort, limit: limit))
                        #expect(
                            Self.keys(limited) == Array(expected.prefix(limit)),
                            "\(union) \(filters.map(\.property)) \(descending) limit \(limit)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 96)
    }

    @Test func allPagesAUnionTypeByTypeWithTypedCursors() throws {
        let store = try Self.store()
        let expected = try ["a", "c"].flatMap {
            try Self.keys(store.all(type: $0, limit: 10_000, cursor: nil).entities)
        }
        var got: [String] = []
        var cursor: String?
        repeat {
            let page = try store.all(types: ["c", "a"], limit: 7, cursor: cursor)
            #expect(page.entities.count <= 7)
            got += Self.keys(page.entities)
            cursor = page.nextCursor
            if let cursor { #expect(cursor == page.entities.last!.key.description) }
        } while cursor != nil
        #expect(got == expected)
        let error = #expect(throws: EntityIndexError.self) {
            try store.all(types: ["a", "c"], limit: 5, cursor: "b/1")
        }
        #expect(error?.message.contains("cursor") == true && error?.message.contains("a, c") == true)
    }

    @Test func searchSuggestAndSpotlightOfAUnionAreTheirTypesAlone() throws {
        let store = try Self.store()
        let union = ["b", "c"]
        let everySuggestion = try store.suggest(type: nil, limit: 10_000).filter { union.contains($0.key.type) }
        for limit in [1, 10, 100] {
            #expect(
                Self.keys(try store.suggest(types: union, limit: limit))
                    == Array(Self.keys(everySuggestion).prefix(limit)))
        }
        let everyHit = try store.search(SearchRequest(query: "kettle 3", limit: 10_000)).filter {
            union.contains($0.key.type)
        }
        #expect(
            Self.keys(try store.search(SearchRequest(query: "kettle 3", types: union, limit: 25)))
                == Array(Self.keys(everyHit).prefix(25)))
        let spotlight = try store.spotlight(SpotlightRequest(query: "total >= 20", types: union, limit: 10_000))
        let everyMatch = try store.spotlight(SpotlightRequest(query: "total >= 20", limit: 10_000))
        #expect(Set(Self.keys(spotlight)) == Set(Self.keys(everyMatch.filter { union.contains($0.key.type) })))
        #expect(!spotlight.isEmpty)
    }

    @Test func deleteOfAUnionDeletesTheIdsOfEachType() throws {
        let store = try Self.store()
        #expect(try store.delete(DeleteRequest(types: ["a", "b"], ids: ["1", "2"])) == 4)
        #expect(try store.get(type: "c", ids: ["1"]).count == 1)
        #expect(try store.get(type: "a", ids: ["1", "2"]).isEmpty && store.get(type: "b", ids: ["1", "2"]).isEmpty)
        #expect(try store.delete(DeleteRequest(types: ["b", "c"])) == 298)
        #expect(try store.all(types: ["a", "b", "c"], limit: 10_000, cursor: nil).entities.count == 148)
    }

    @Test func typesThatDeclareAPropertyDifferentlyCannotBeQueriedTogether() throws {
        let store = try Self.store()
        try store.declare(type: "a", [PropertyDeclaration(name: "total", kind: .number)])
        // A declaration that the stored values do not fit is refused; a type without entities may declare it.
        #expect(throws: EntityIndexError.self) {
            try store.declare(type: "b", [PropertyDeclaration(name: "total", kind: .string)])
        }
        try store.declare(type: "d", [PropertyDeclaration(name: "total", kind: .string)])
        let error = #expect(throws: EntityIndexError.self) {
            try store.query(
                PropertyQueryRequest(types: ["a", "d"], filters: [.init(property: "total", op: .ge, value: 3)]))
        }
        #expect(error?.message.contains("declared number in type a and string in type d") == true)
        // Declared alike (or by one of them), they can.
        _ = try store.query(
            PropertyQueryRequest(types: ["a", "c"], filters: [.init(property: "total", op: .ge, value: 3)]))
        let unknown = #expect(throws: EntityIndexError.self) {
            try store.query(
                PropertyQueryRequest(types: ["a", "c"], filters: [.init(property: "totl", op: .ge, value: 3)]))
        }
        #expect(unknown?.message.hasPrefix("unknown property \"totl\": no entities of types a, c has it") == true)
    }
}
