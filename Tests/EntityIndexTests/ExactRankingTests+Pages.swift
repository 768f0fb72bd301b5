import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// `total` and cursors against the brute-force ranking: the total is the number of every match (exact up to
/// `maxExactTotal`, else a lower bound), and pages walked with their cursors concatenate to the full ranking.
extension ExactRankingTests {
    /// The pages of a search of `size` results each, walked with their cursors; also checks that every page tells
    /// the same total and that the last one has no cursor.
    static func pages(
        _ store: EntityStore, _ query: String, type: String? = nil, size: Int, upTo most: Int
    ) throws -> (ids: [String], totals: Set<Int>) {
        var ids: [String] = [], totals = Set<Int>(), cursor: String?
        repeat {
            let page = try store.searchPage(SearchRequest(query: query, type: type, limit: size, cursor: cursor))
            ids += page.entities.map { $0.key.type + "/" + $0.key.id }
            totals.insert(page.totalIsLowerBound ? -1 : page.total)
            cursor = page.nextCursor
            #expect(page.nextCursor == nil || page.entities.count == size, "only a full page has a next one")
        } while cursor != nil && ids.count < most
        return (ids, totals)
    }

    /// The last case hides no entity, so that totals are counted from the full-text index alone
    /// (`EntityStore.everyEntityVisible`); the others count through each match's entity.
    @Test(arguments: [(800, UInt64(21), true), (3_000, 22, true), (12_000, 23, true), (2_000, 24, false)])
    func totalsAndPagesAgreeWithTheReference(count: Int, seed: UInt64, hiding: Bool) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed).filter { hiding || $0["hidden"] == nil })
        #expect(try store.everyEntityVisible(types: [], filtered: false) == !hiding)
        let all = try Self.entities(store)
        var rng = TestSupport.SeededGenerator(seed: seed &* 104_729)
        let plain = Self.words.filter { $0.allSatisfy(\.isASCII) }
        var lowerBounds = 0, compared = 0
        for _ in 0..<(count >= 10_000 ? 60 : 150) {
            var words = (0..<Int.random(in: 1...2, using: &rng)).map { _ in plain.randomElement(using: &rng)! }
            let typing = Bool.random(using: &rng)
            if typing, Bool.random(using: &rng), let last = words.last, last.count > 1 {
                words[words.count - 1] = String(last.prefix(Int.random(in: 1..<last.count, using: &rng)))
            }
            let type: String? = Int.random(in: 0..<5, using: &rng) == 0 ? "tool" : nil
            let query = words.joined(separator: " ") + (typing ? "" : " ")
            let expected = Self.reference(
                all, words: words, typing: typing, types: type.map { [$0] } ?? [], limit: Int.max)
            guard !expected.isEmpty else { continue }
            let first = try store.searchPage(SearchRequest(query: query, type: type, limit: 10))
            if expected.count <= EntityStore.maxExactTotal {
                #expect(
                    first.total == expected.count && !first.totalIsLowerBound,
                    "query \"\(query)\", type \(type ?? "any"): total \(first.total), expected \(expected.count)")
            } else {
                lowerBounds += 1
                #expect(
                    first.totalIsLowerBound && first.total > EntityStore.maxExactTotal
                        && first.total <= expected.count,
                    "query \"\(query)\": total \(first.total) of \(expected.count)")
            }
            #expect((first.nextCursor != nil) == (expected.count > 10))
            let size = [5, 20, 64].randomElement(using: &rng)!
            let most = min(expected.count, 150)
            let walked = try Self.pages(store, query, type: type, size: size, upTo: most)
            #expect(
                Array(walked.ids.prefix(most)) == Array(expected.prefix(most)),
                "query \"\(query)\", pages of \(size)")
            if expected.count <= EntityStore.maxExactTotal {
                #expect(walked.totals == [expected.count], "every page tells the same exact total")
            } else {
                // Beyond the bound a lower bound, until a page deep enough ranks every match: then the exact total.
                #expect(
                    walked.totals.isSubset(of: [-1, expected.count]),
                    "query \"\(query)\": totals \(walked.totals) of \(expected.count)")
            }
            compared += 1
        }
        #expect(compared > 40)
        if count >= 10_000 { #expect(lowerBounds > 0, "some query matches more than the exact bound") }
    }

    /// For any query (CJK, compounds, typos, ids, code fragments), `total` is the length of the unbounded ranking
    /// and pages concatenate to it.
    @Test func totalsAndPagesOfEveryKindOfQuery() throws {
        let store = try TestSupport.store()
        var records = Self.corpus(1_500, seed: 31)
        let extra = [
            "东京塔 tour", "Müller-Lüdenscheidt GmbH", "e-mail kettle", "Order #1042-A", "iPhone 15 case", "K83913.39F29",
        ]
        for (i, title) in extra.enumerated() {
            for copy in 0..<30 { records.append(TestSupport.record("item", "z\(i)-\(copy)", title)) }
        }
        _ = try store.ingest(records)
        let queries = [
            "东京", "müller-lüdenscheidt", "mueller", "e-mail", "1042-a", "#1042", "iphone15", "kettel", "coper kettle",
            "gadgte", "x12", "39f2", "z3-1", "blue m",
        ]
        for query in queries {
            let full = try Self.results(store, query, limit: EntityStore.maxResults)
            let page = try store.searchPage(SearchRequest(query: query, limit: 5))
            if full.count <= EntityStore.maxExactTotal {
                #expect(page.total == full.count && !page.totalIsLowerBound, "query \"\(query)\"")
            } else {
                #expect(page.totalIsLowerBound && page.total <= full.count, "query \"\(query)\"")
            }
            for size in [3, 50] {
                let walked = try Self.pages(store, query, size: size, upTo: 400)
                #expect(
                    Array(walked.ids.prefix(400)) == Array(full.prefix(400)), "query \"\(query)\", pages of \(size)")
            }
        }
    }

    @Test func aCursorIsRefusedByAnotherSearch() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(300, seed: 41))
        let page = try store.searchPage(SearchRequest(query: "k", limit: 2))
        let cursor = try #require(page.nextCursor)
        for other in [
            SearchRequest(query: "ke", limit: 2, cursor: cursor),
            SearchRequest(query: "k", type: "tool", cursor: cursor),
            SearchRequest(
                query: "k", filters: [PropertyFilter(property: "label", op: .eq, value: "tea")], cursor: cursor),
            SearchRequest(query: "k", cursor: "2"), SearchRequest(query: "k", cursor: "x-0123456789abcdef"),
        ] {
            #expect(throws: EntityIndexError.self, "\(other.cursor!) for \(other.query)") {
                try store.searchPage(other)
            }
        }
        let next = try store.searchPage(SearchRequest(query: "k", limit: 3, cursor: cursor))
        #expect(next.entities.count == 3, "a cursor continues with any limit")
    }
}
