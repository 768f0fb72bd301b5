import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Facets count every match, not just the page: on generated corpora, each facet of a search (plain, several words,
/// typos, a type union, optional words), a property query with filters and `all` equals a count made here from the
/// records of every match.
@Suite struct FacetTests {
    static let words = ["blue", "bluebell", "lamp", "lantern", "kettle", "copper", "mug", "desk", "storm", "tea"]
    static let statuses = ["shipped", "Shipped", "SHIPPED", "open", "Open", "paid", "refunded", "in transit"]
    static let tags = ["red", "green", "blue", "Green", "steel", "oak", "glass"]
    static let facets = ["status", "tags", "price", "gift", "type", "domain"]

    // MARK: - The corpus

    static func corpus(_ count: Int, seed: UInt64) -> [JSONValue] {
        var rng = TestSupport.SeededGenerator(seed: seed)
        func maybe(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &rng) == 0 }
        return (0..<count).map { i in
            let title = (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }
            var properties = JSONObject()
            if !maybe(6) { properties["status"] = .string(statuses.randomElement(using: &rng)!) }
            if maybe(8) { properties["status"] = .null }
            if maybe(2) {
                // Repeated elements count once; an empty array holds no value.
                properties["tags"] = .array(
                    (0..<Int.random(in: 0...4, using: &rng)).map { _ in .string(tags.randomElement(using: &rng)!) })
            }
            if !maybe(5) { properties["price"] = JSONValue(Double(Int.random(in: 1...40, using: &rng)) / 2) }
            if maybe(3) { properties["gift"] = .bool(maybe(2)) }
            var fields: [(String, JSONValue)] = [("properties", .object(properties))]
            if !maybe(4) {
                fields.append(("domain", .string(["shop.a", "shop.b", "shop.b.c"].randomElement(using: &rng)!)))
            }
            if maybe(4) { fields.append(("description", .string(words.randomElement(using: &rng)!))) }
            if maybe(15) { fields.append(("hidden", .bool(true))) }
            let type = i % 5 == 0 ? "tool" : i % 7 == 0 ? "part" : "item"
            return TestSupport.record(type, "x\(i)", title.joined(separator: " "), fields)
        }
    }

    // MARK: - The reference

    /// A value's key as a filter compares it: strings by their normalized text, numbers and booleans by value.
    static func key(_ value: JSONValue) -> String? {
        switch value {
        case .string(let s): return "s:" + EntityStore.comparisonText(s)
        case .number(let n): return "n:\(n.double)"
        case .bool(let b): return "b:\(b)"
        default: return nil
        }
    }

    /// Each key's count and the entities holding no value, counted from the records of `matches`.
    static func reference(_ name: String, _ matches: [JSONObject]) -> (counts: [String: Int], missing: Int) {
        var counts: [String: Int] = [:], missing = 0
        for record in matches {
            let values: [JSONValue]
            switch name {
            case "type", "domain": values = record[name].map { [$0] } ?? []
            default:
                let held = record["properties"]?.object?[name]
                values = held.map { $0.array ?? [$0] } ?? []
            }
            let keys = Set(values.compactMap(key))
            if keys.isEmpty { missing += 1 }
            for k in keys { counts[k, default: 0] += 1 }
        }
        return (counts, missing)
    }

    /// Checks the facets against counts made from the records of every match.
    static func check(_ counts: FacetCounts?, _ matches: [JSONObject], _ label: String) {
        guard let counts else {
            Issue.record("\(label): no facets")
            return
        }
        #expect(counts.counted == matches.count, "\(label): counted")
        #expect(!counts.isLowerBound, "\(label)")
        #expect(counts.facets.map(\.name) == facets, "\(label)")
        for facet in counts.facets {
            let (expected, missing) = reference(facet.name, matches)
            #expect(facet.missing == missing, "\(label) \(facet.name): missing")
            #expect(facet.values.count == min(expected.count, EntityStore.maxFacetValues), "\(label) \(facet.name)")
            #expect(facet.otherValues == expected.count - facet.values.count, "\(label) \(facet.name): others")
            for value in facet.values {
                let k = key(value.value)
                #expect(k.flatMap { expected[$0] } == value.count, "\(label) \(facet.name) \(value.value)")
            }
            #expect(zip(facet.values, facet.values.dropFirst()).allSatisfy { $0.count >= $1.count }, "\(label) order")
            // The values left out hold no more matches than the last one listed.
            let listed = Set(facet.values.compactMap { key($0.value) })
            let last = facet.values.last?.count ?? 0
            #expect(expected.filter { !listed.contains($0.key) }.allSatisfy { $0.value <= last }, "\(label) top")
        }
    }

    static let searches: [(String, [String], WordMatching)] = [
        ("blue", [], .all), ("blue lamp", [], .all), ("b", [], .all), ("lantren", [], .all), ("kettel mug", [], .all),
        ("tea", ["item", "tool"], .all), ("copper desk", ["part"], .all), ("storm zzz", [], .frequency),
        ("blue lamp mug tea", [], .last),
    ]

    @Test(arguments: [1, 2, 3] as [UInt64]) func searchFacetsCountEveryMatch(seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(1_500, seed: seed))
        var beyondThePage = 0
        for (query, types, matching) in Self.searches {
            var request = SearchRequest(query: query, types: types, limit: 3, matching: matching)
            request.facets = Self.facets
            let page = try store.searchPage(request)
            // Every match: the whole ranking, whose exactness the exact-ranking tests check against a brute force.
            var every = request
            every.limit = EntityStore.maxResults
            every.facets = []
            let matches = try store.search(every).map(\.parsed.record)
            Self.check(page.facets, matches, "seed \(seed) search \(query) \(types) \(matching)")
            if !page.totalIsLowerBound { #expect(page.total == page.facets?.counted, "\(query)") }
            if matches.count > request.limit { beyondThePage += 1 }
            if query == "lantren" { #expect(!matches.isEmpty, "a typo finds lantern") }
        }
        // Most searches match more than their page: the facets read the matches again, not the page.
        #expect(beyondThePage >= 6)
    }

    @Test(arguments: [4, 5] as [UInt64]) func queryAndAllFacetsCountEveryMatch(seed: UInt64) throws {
        let store = try TestSupport.store()
        let records = Self.corpus(1_200, seed: seed)
        _ = try store.ingest(records)
        let filters: [([PropertyFilter], PropertyQueryRequest.Mode)] = [
            ([], .and),
            ([PropertyFilter(property: "status", op: .eq, value: "shipped")], .and),
            (
                [
                    PropertyFilter(property: "price", op: .lt, value: 8),
                    PropertyFilter(property: "tags", op: .eq, value: "green"),
                ], .or
            ),
            ([PropertyFilter(property: "tags", op: .notContains, value: "red")], .and),
        ]
        for (filters, mode) in filters {
            var request = PropertyQueryRequest(types: ["item", "part"], filters: filters, mode: mode, limit: 2)
            request.facets = Self.facets
            let page = try store.queryPage(request)
            let matches = try store.query(PropertyQueryRequest(types: ["item", "part"], filters: filters, mode: mode))
            Self.check(page.facets, matches.map(\.parsed.record), "seed \(seed) query \(filters.map(\.property))")
        }
        // `all`: every record of the types, from the corpus itself.
        let facets = try store.allFacets(types: ["tool", "item"], facets: Self.facets)
        let expected = records.compactMap(\.object).filter { ["tool", "item"].contains($0["type"]?.string) }
        Self.check(facets, expected, "seed \(seed) all")
    }

    @Test func valuesAreShownAsWrittenAndCountedOncePerEntity() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record(
                "o", "1", "One", [("properties", ["status": "Shipped", "tags": ["a", "A", "b"], "n": 2])]),
            TestSupport.record("o", "2", "Two", [("properties", ["status": "shipped", "tags": [], "n": 2.0])]),
            TestSupport.record("o", "3", "Three", [("properties", ["status": .null, "ok": true, "n": 1.5])]),
            TestSupport.record(
                "o", "4", "Four", [("properties", ["status": "in transit", "placed": "2026-01-02T03:04:05Z"])]),
        ])
        var request = PropertyQueryRequest(type: "o", filters: [])
        request.facets = ["status", "tags", "n", "ok", "placed", "domain"]
        let facets = try #require(try store.queryPage(request).facets).facets
        #expect(facets[0].values == [.init(value: "Shipped", count: 2), .init(value: "in transit", count: 1)])
        #expect(facets[0].missing == 1)
        #expect(facets[1].values == [.init(value: "a", count: 1), .init(value: "b", count: 1)])
        #expect(facets[1].missing == 3)
        #expect(facets[2].values == [.init(value: 2, count: 2), .init(value: 1.5, count: 1)])
        #expect(facets[3].values == [.init(value: true, count: 1)])
        #expect(facets[4].values == [.init(value: "2026-01-02T03:04:05Z", count: 1)])
        #expect(facets[5].values.isEmpty && facets[5].missing == 4)
    }

    @Test func pastTheBoundTheCountsAreLowerBounds() throws {
        let store = try TestSupport.store()
        let count = EntityStore.maxFacetMatches + 50
        _ = try store.ingest(
            (0..<count).map { i in
                TestSupport.record(
                    "t", "\(i)", "common \(i % 3 == 0 ? "odd" : "even")", [("properties", ["k": .string("v\(i % 4)")])])
            })
        var search = SearchRequest(query: "common", limit: 1)
        search.facets = ["k", "type"]
        let searched = try #require(try store.searchPage(search).facets)
        #expect(searched.counted == EntityStore.maxFacetMatches && searched.isLowerBound)
        #expect(searched.facets[1].values == [.init(value: "t", count: EntityStore.maxFacetMatches)])
        #expect(searched.facets[0].values.map(\.count).reduce(0, +) == EntityStore.maxFacetMatches)
        let all = try store.allFacets(types: ["t"], facets: ["k"])
        #expect(all.counted == EntityStore.maxFacetMatches && all.isLowerBound)
        var query = PropertyQueryRequest(type: "t", filters: [PropertyFilter(property: "k", op: .eq, value: "v1")])
        query.facets = ["k"]
        let queried = try #require(try store.queryPage(query).facets)
        #expect(!queried.isLowerBound && queried.facets[0].values == [.init(value: "v1", count: count / 4 + 1)])
    }

    @Test func anUnknownFacetIsNamedWithTheClosestName() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("o", "1", "One", [("properties", ["status": "open"])])])
        var request = SearchRequest(query: "one", types: ["o"])
        request.facets = ["stauts"]
        #expect {
            try store.searchPage(request)
        } throws: { error in
            let message = (error as? EntityIndexError)?.message ?? ""
            return message.contains("unknown facet \"stauts\"") && message.contains("did you mean \"status\"?")
        }
        var query = PropertyQueryRequest(type: "o", filters: [])
        query.facets = ["typ"]
        #expect(throws: EntityIndexError.self) { try store.queryPage(query) }
        #expect(throws: EntityIndexError.self) {
            try store.allFacets(types: ["o"], facets: Array(repeating: "x", count: 1) + (0..<9).map { "p\($0)" })
        }
    }
}
