import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// Facets on real data: Debian's package sample (797 packages), 200 queries drawn from its titles and subtitles as
/// `scripts/answer-diff.py` draws them, a property query with filters and `all`. Each facet must equal, value for
/// value, a brute-force count over the records of every match: counts, the value shown, the order, `otherValues`,
/// `missing` and the number of matches counted.
@Suite struct FacetRealTests {
    /// What the sample holds: a string on every package, a string of two values, an array (on fewer than half of
    /// the packages), a number missing on two, and the entity type.
    static let facets = ["section", "architecture", "priority", "tags", "installedSize", "type"]

    struct Sample {
        var store: EntityStore
        var records: [JSONObject]
        /// Each package's rowid: a string value is shown as the earliest ingested entity holding it wrote it.
        var rowids: [String: Int64]
    }

    static func sample() throws -> Sample {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        let records = text.split(separator: "\n").map { TestSupport.json(String($0)) }
        _ = try store.ingest(records)
        let rowids = try store.db.rows("SELECT id, rowid FROM entity") { ($0.text(0), $0.int(1)) }
        return Sample(
            store: store, records: records.compactMap(\.object),
            rowids: Dictionary(uniqueKeysWithValues: rowids))
    }

    // MARK: - The queries

    /// `per` queries of each class, drawn with a fixed seed from the titles and subtitles as `answer-diff.py`
    /// draws them: one, two and three words; prefixes of 1 to 5 letters of a title; whole titles; a word with one
    /// letter dropped.
    static func queries(_ records: [JSONObject], per: Int = 20, seed: UInt64 = 7) -> [String] {
        var rng = TestSupport.SeededGenerator(seed: seed)
        let titles = records.map { $0["title"]?.string ?? "" }
        let texts = records.map {
            ($0["subtitle"]?.string ?? "") + " " + String(($0["description"]?.string ?? "").prefix(400))
        }
        func words(_ text: String) -> [String] {
            text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init).filter { $0.count > 1 }
        }
        func pick(_ n: Int) -> String {
            while true {
                let ws = words(texts.randomElement(using: &rng)!)
                guard ws.count >= n else { continue }
                let i = Int.random(in: 0...(ws.count - n), using: &rng)
                return ws[i..<(i + n)].joined(separator: " ")
            }
        }
        var out: [String] = []
        for n in 1...3 { out += (0..<per).map { _ in pick(n) } }
        for k in 1...5 {
            out += (0..<per).map { _ in String(titles.randomElement(using: &rng)!.lowercased().prefix(k)) }
        }
        out += (0..<per).map { _ in titles.randomElement(using: &rng)! }
        for _ in 0..<per {
            let w = Array(words(texts.randomElement(using: &rng)!).max { $0.count < $1.count } ?? "x")
            let i = w.count > 2 ? Int.random(in: 1..<w.count, using: &rng) : 0
            out.append(String(w[..<i] + w[(i + 1)...]))
        }
        return out.filter { !$0.allSatisfy(\.isWhitespace) }
    }

    // MARK: - The brute force

    /// A value as the property table groups it: its kind, its number, its compared text.
    struct Key: Hashable {
        var kind: Int64
        var num: Double?
        var text: String?

        /// The facet's order after the count: numbers ascending, then strings by their compared text's bytes.
        static func precedes(_ a: Key, _ b: Key) -> Bool {
            if (a.num == nil) != (b.num == nil) { return a.num != nil }
            if let x = a.num, let y = b.num, x != y { return x < y }
            if (a.text == nil) != (b.text == nil) { return a.text == nil }
            return Array((a.text ?? "").utf8).lexicographicallyPrecedes(Array((b.text ?? "").utf8))
        }
    }

    /// The facet `name` of `matches`, counted here from their records: each value once per entity, shown as the
    /// earliest ingested entity holding it wrote it, most held first, at most `maxFacetValues`.
    static func bruteForce(_ name: String, _ matches: [(rowid: Int64, record: JSONObject)]) -> Facet {
        var counts: [Key: Int] = [:], shown: [Key: (rowid: Int64, value: JSONValue)] = [:], missing = 0
        for (rowid, record) in matches {
            var held: [(Key, JSONValue)] = []
            if name == "type" || name == "domain" {
                if let s = record[name]?.string { held.append((Key(kind: 0, num: nil, text: s), .string(s))) }
            } else if let value = record["properties"]?.object?[name] {
                for element in value.array ?? [value] {
                    let (kind, num, text) = EntityStore.propertyRow(element, declared: nil)
                    guard let code = PropertyKind.codes[kind], code < 4 else { continue }
                    let written: JSONValue =
                        code == 1 ? JSONValue(num ?? 0) : code == 2 ? .bool((num ?? 0) != 0) : element
                    held.append((Key(kind: code, num: num, text: text), written))
                }
            }
            var seen = Set<Key>()
            for (key, written) in held where seen.insert(key).inserted {
                counts[key, default: 0] += 1
                if shown[key].map({ rowid < $0.rowid }) ?? true { shown[key] = (rowid, written) }
            }
            if seen.isEmpty { missing += 1 }
        }
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : Key.precedes($0.key, $1.key) }
        let listed = ordered.prefix(EntityStore.maxFacetValues)
        return Facet(
            name: name, values: listed.map { Facet.Value(value: shown[$0.key]!.value, count: $0.value) },
            otherValues: ordered.count - listed.count, missing: missing)
    }

    /// Checks `counts` against the brute force over `matches`; answers whether a facet had values left out.
    @discardableResult
    static func check(_ counts: FacetCounts?, _ matches: [(rowid: Int64, record: JSONObject)], _ label: String)
        -> Bool
    {
        guard let counts else {
            Issue.record("\(label): no facets")
            return false
        }
        #expect(counts.counted == matches.count, "\(label): facetsCounted")
        #expect(!counts.isLowerBound, "\(label)")
        #expect(counts.facets.map(\.name) == facets, "\(label)")
        for facet in counts.facets {
            let expected = bruteForce(facet.name, matches)
            #expect(facet == expected, "\(label): facet \(facet.name)")
        }
        return counts.facets.contains { $0.otherValues > 0 }
    }

    // MARK: - The tests

    @Test func searchFacetsEqualABruteForceCount() throws {
        let sample = try Self.sample()
        let queries = Self.queries(sample.records)
        #expect(queries.count == 200)
        var beyondThePage = 0, cut = 0, empty = 0
        for query in queries {
            var request = SearchRequest(query: query, limit: 20)
            request.facets = Self.facets
            let page = try sample.store.searchPage(request)
            // Every match: the same search with room for all of them (the sample has fewer than the most one
            // request returns, so that no next page is left).
            var every = request
            every.limit = EntityStore.maxResults
            every.facets = []
            let all = try sample.store.searchPage(every)
            #expect(all.entities.count < every.limit && all.nextCursor == nil, "\(query)")
            let matches = all.entities.map { (rowid: sample.rowids[$0.key.id] ?? -1, record: $0.record) }
            // `total` is exact up to `maxExactTotal`, a lower bound beyond.
            if page.totalIsLowerBound {
                #expect(page.total > EntityStore.maxExactTotal && page.total <= matches.count, "\(query): total")
            } else {
                #expect(page.total == matches.count, "\(query): total")
            }
            if Self.check(page.facets, matches, "search \(query)") { cut += 1 }
            if matches.count > request.limit { beyondThePage += 1 }
            if matches.isEmpty { empty += 1 }
        }
        // The facets count beyond the page, and list at most 20 values, for a good share of the queries.
        #expect(beyondThePage >= 75, "\(beyondThePage) searches match more than their page")
        #expect(cut >= 75, "\(cut) searches have values left out")
        #expect(empty < 40, "\(empty) searches match nothing")
    }

    @Test func queryAndAllFacetsEqualABruteForceCount() throws {
        let sample = try Self.sample()
        let cases: [([PropertyFilter], PropertyQueryRequest.Mode)] = [
            ([], .and),
            ([PropertyFilter(property: "section", op: .eq, value: "libdevel")], .and),
            (
                [
                    PropertyFilter(property: "section", op: .eq, value: "Python"),
                    PropertyFilter(property: "tags", op: .eq, value: "role::program"),
                ], .or
            ),
            ([PropertyFilter(property: "tags", op: .notContains, value: "role::program")], .and),
            (
                [
                    PropertyFilter(property: "installedSize", op: .gt, value: 1000),
                    PropertyFilter(property: "architecture", op: .eq, value: "all"),
                ], .and
            ),
        ]
        for (filters, mode) in cases {
            var request = PropertyQueryRequest(type: "package", filters: filters, mode: mode, limit: 5)
            request.facets = Self.facets
            let page = try sample.store.queryPage(request)
            let every = try sample.store.query(PropertyQueryRequest(type: "package", filters: filters, mode: mode))
            let matches = every.map { (rowid: sample.rowids[$0.key.id] ?? -1, record: $0.record) }
            #expect(matches.count > 5, "\(filters.map(\.property))")
            Self.check(page.facets, matches, "query \(filters.map(\.property)) \(mode)")
        }
        // The filter on its own, against the records: `section eq libdevel` selects what the records say.
        let libdevel = try sample.store.query(
            PropertyQueryRequest(
                type: "package", filters: [PropertyFilter(property: "section", op: .eq, value: "libdevel")])
        )
        let expected = sample.records.filter { $0["properties"]?.object?["section"]?.string == "libdevel" }
        #expect(Set(libdevel.map(\.key.id)) == Set(expected.compactMap { $0["id"]?.string }))
        // `all`: every package, counted from the fixture's records themselves.
        let all = try sample.store.allFacets(types: ["package"], facets: Self.facets)
        let records = sample.records.map { (rowid: sample.rowids[$0["id"]?.string ?? ""] ?? -1, record: $0) }
        #expect(Self.check(all, records, "all"), "all lists at most 20 sections of 53")
    }
}
