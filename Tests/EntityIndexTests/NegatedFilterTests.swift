import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Negated filters (`ne`, `notContains`), up to the most a request takes, give what a brute-force evaluation of the
/// records gives, in every plan: the general one, a sorted walk, and a search's candidates.
@Suite struct NegatedFilterTests {
    /// One record as the test knows it: its property values (nil for null, absent when missing).
    struct Model {
        var id: String
        var type: String
        var expired: Bool
        var properties: [String: [JSONValue?]]
    }

    static let sections = ["libs", "doc", "net", "games", "x11", "misc"]
    static let tags = ["a", "b", "c", "d"]

    /// 600 records: `section` (a string, sometimes null or missing), `size` (a number, sometimes missing), `tags` (an
    /// array of 0 to 3 strings), `flag` (a boolean); a few of another type, a few expired.
    static func models() -> [Model] {
        var generator = TestSupport.SeededGenerator(seed: 34)
        return (0..<600).map { i in
            var properties: [String: [JSONValue?]] = [:]
            switch i % 9 {
            case 0: break
            case 1: properties["section"] = [nil]
            default: properties["section"] = [.string(sections[Int(generator.next() % 6)])]
            }
            if i % 7 != 0 { properties["size"] = [JSONValue(Int(generator.next() % 40))] }
            properties["tags"] = (0..<Int(generator.next() % 4)).map { _ in .string(tags[Int(generator.next() % 4)]) }
            if i % 5 != 0 { properties["flag"] = [.bool(generator.next() % 2 == 0)] }
            return Model(id: "p\(i)", type: i % 23 == 0 ? "other" : "pkg", expired: i % 31 == 0, properties: properties)
        }
    }

    static func record(_ m: Model) -> JSONValue {
        let properties = m.properties.sorted { $0.key < $1.key }.map {
            (key, values) -> (key: String, value: JSONValue) in
            (key, key == "tags" ? .array(values.map { $0 ?? .null }) : values[0] ?? .null)
        }
        var extra: [(String, JSONValue)] = [("properties", .object(JSONObject(properties)))]
        if m.expired { extra.append(("expiresAt", "2026-01-01T00:00:00Z")) }
        return TestSupport.record(m.type, m.id, "Package \(m.id)", extra)
    }

    /// Whether a filter holds for a record, as the README says: an entity without the property (or with null)
    /// matches no filter; `ne` and `notContains` hold when no value meets the comparison, and so for an empty array.
    static func holds(_ f: PropertyFilter, _ m: Model) -> Bool {
        if m.properties[f.property]?.isEmpty == true { return f.op == .ne || f.op == .notContains }
        let values = (m.properties[f.property] ?? []).compactMap { $0 }
        guard !values.isEmpty else { return false }
        func equal(_ v: JSONValue) -> Bool {
            switch (v, f.value) {
            case (.number(let a), .number(let b)): a.double == b.double
            case (.bool(let a), .bool(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            default: false
            }
        }
        switch f.op {
        case .eq, .contains: return values.contains(where: equal)
        case .ne, .notContains: return !values.contains(where: equal)
        default: fatalError("not in these tables")
        }
    }

    static func expected(_ filters: [PropertyFilter], mode: PropertyQueryRequest.Mode, _ models: [Model]) -> [String] {
        models.filter { m in
            m.type == "pkg" && !m.expired
                && (mode == .and ? filters.allSatisfy { holds($0, m) } : filters.contains { holds($0, m) })
        }.map(\.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    static func ne(_ property: String, _ value: JSONValue) -> PropertyFilter {
        PropertyFilter(property: property, op: .ne, value: value)
    }

    /// Sets of filters, each as many as a request takes or close to it.
    static let filterSets: [(String, [PropertyFilter], PropertyQueryRequest.Mode)] = [
        (
            "32 ne on one property",
            (sections.prefix(5) + (0..<27).map { "v\($0)" }).map { ne("section", .string($0)) }, .and
        ),
        ("32 ne on one property, absent values", (0..<32).map { ne("section", .string("v\($0)")) }, .and),
        ("32 ne on numbers", (0..<32).map { ne("size", JSONValue($0)) }, .and),
        (
            "32 ne on four properties",
            sections.prefix(4).map { ne("section", .string($0)) } + (0..<20).map { ne("size", JSONValue($0)) }
                + [
                    ne("tags", "a"), ne("tags", "zz"), PropertyFilter(property: "tags", op: .notContains, value: "e"),
                    ne("flag", true), PropertyFilter(property: "section", op: .eq, value: "x11"), ne("size", 39),
                    ne("size", 38), ne("section", "misc"),
                ],
            .and
        ),
        (
            "32 ne in mode or",
            (0..<16).map { ne("size", JSONValue($0)) } + (0..<16).map { ne("tags", .string(tags[$0 % 4])) }, .or
        ),
        (
            "ne and eq in mode or",
            [
                ne("section", "libs"), PropertyFilter(property: "size", op: .eq, value: 3), ne("section", "doc"),
                ne("flag", false),
            ],
            .or
        ),
    ]

    @Test(arguments: 0..<filterSets.count) func queriesEqualABruteForceEvaluation(_ index: Int) throws {
        let (name, filters, mode) = Self.filterSets[index]
        let models = Self.models()
        let store = try TestSupport.store()
        _ = try store.ingest(models.map(Self.record))
        let expected = Self.expected(filters, mode: mode, models)
        #expect(!expected.isEmpty, "\(name)")
        let found = try store.query(PropertyQueryRequest(type: "pkg", filters: filters, mode: mode)).map(\.key.id)
        #expect(found == expected, "\(name)")
        // A sorted, limited query walks the sort index and looks each entity up: the first rows of the general plan.
        let sort = [PropertySort(property: "size", descending: true)]
        let all = try store.query(PropertyQueryRequest(type: "pkg", filters: filters, mode: mode, sort: sort))
        #expect(Set(all.map(\.key.id)) == Set(expected), "\(name)")
        for limit in [1, 7, 50] {
            let limited = try store.query(
                PropertyQueryRequest(type: "pkg", filters: filters, mode: mode, sort: sort, limit: limit))
            #expect(limited.map(\.key.id) == Array(all.prefix(limit)).map(\.key.id), "\(name) \(limit)")
        }
        // A search applies its filters to each candidate (mode and only).
        if mode == .and {
            let searched = try store.search(SearchRequest(query: "package", type: "pkg", limit: 1000, filters: filters))
            #expect(searched.map(\.key.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } == expected, "\(name)")
        }
    }

    /// However many negated filters name a property, the entities holding it are read once: one set for the
    /// property, and one small set a filter, so that the work grows with filters × candidates.
    @Test func theEntitiesHoldingAPropertyAreReadOncePerProperty() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.models().map(Self.record))
        func filter(_ i: Int) -> PropertyFilter {
            i % 4 == 0 ? Self.ne("size", JSONValue(i)) : Self.ne("section", .string("v\(i)"))
        }
        let filters = (0..<32).map(filter)
        for style in [EntityStore.FilterStyle.collect, .lookup] {
            for mode in [PropertyQueryRequest.Mode.and, .or] {
                let sql = try store.compileFilters(filters, types: ["pkg"], mode: mode, style: style).sql
                let holding = style == .collect ? "p.num IS NOT NULL UNION ALL" : "p.kind !="
                let negated = style == .collect ? "NOT IN (" : "NOT EXISTS ("
                #expect(sql.components(separatedBy: holding).count - 1 == 2, "\(style) \(mode)")
                #expect(sql.components(separatedBy: negated).count - 1 == 32, "\(style) \(mode)")
            }
        }
    }
}
