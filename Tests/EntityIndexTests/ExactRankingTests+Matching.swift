import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// Optional words (`matching`) against a brute-force reference: which word sets are tried, in which order, and
/// how each pass ranks (as a search of its words alone, after every entity of the passes before), typo fallbacks
/// included; then `total` and the pages walked with cursors.
extension ExactRankingTests {
    /// Words no entity holds, too short for typos: a query with one of them matches nothing whole.
    static let noise = ["zq", "oh", "show"]
    /// Words no entity holds, one edit from a word of the corpus: their passes fall back to typos.
    static let misspelt = ["kettel", "coppre", "hospitl", "lanterm"]

    /// The word sets a search tries, in order: for `frequency`, leaving out first the words no document holds (a
    /// document of any entity, hidden ones and every type included), then the most frequent (counted up to
    /// `maxFrequency`); ties, the later word first; for `last`, from the end. Never down to zero words.
    static func passes(_ all: [Entity], words: [String], typing: Bool, matching: WordMatching) -> [[Int]] {
        let n = words.count
        guard matching != .all else { return [Array(0..<n)] }
        let order: [Int]
        if matching == .last {
            order = Array((0..<n).reversed())
        } else {
            let counts = words.indices.map { i in
                min(
                    all.filter { e in e.columns.contains { Self.holds($0, words[i], prefix: typing && i == n - 1) } }
                        .count, WordPasses.maxFrequency)
            }
            order = words.indices.sorted {
                (counts[$0] == 0 ? 1 : 0, counts[$0], $0) > (counts[$1] == 0 ? 1 : 0, counts[$1], $1)
            }
        }
        return (0..<n).map { k in (0..<n).filter { !order.prefix(k).contains($0) } }
    }

    static func holds(_ terms: [String], _ word: String, prefix: Bool) -> Bool {
        terms.contains { $0 == word || (prefix && $0.hasPrefix(word)) }
    }

    /// The full ranking of a search with optional words: each pass's matches as typed (`reference`), or, when
    /// they are none, its matches with the engine's typo variants of its words (`typoReference`), less the
    /// entities found before.
    static func reference(
        _ store: EntityStore, _ all: [Entity], words: [String], typing: Bool, types: [String],
        matching: WordMatching
    ) throws -> [String] {
        var found: [String] = [], seen = Set<String>()
        for kept in passes(all, words: words, typing: typing, matching: matching) {
            let subset = kept.map { words[$0] }
            let prefix = typing && kept.last == words.count - 1
            var ranked = reference(all, words: subset, typing: prefix, types: types, limit: Int.max)
            if ranked.isEmpty {
                let vocabulary = try TypoTolerance.Vocabulary(store.db)
                let variants = try subset.enumerated().map { i, word in
                    let budget = QueryTerm.typoBudget(word)
                    return budget == 0
                        ? []
                        : try TypoTolerance.variants(
                            of: word, budget: budget, prefix: prefix && i == subset.count - 1, vocabulary)
                }
                ranked = typoReference(all, words: subset, typing: prefix, variants: variants, types: types)
            }
            for key in ranked where !seen.contains(key) {
                found.append(key)
                seen.insert(key)
            }
        }
        return found
    }

    /// The typo fallback's ranking: each word as typed or one of its variants (fewest edits per word, then the
    /// best field); fewer typos, then the attribute, then (title tier) every word whole in the title, then the
    /// words side by side, then the document rank.
    static func typoReference(
        _ all: [Entity], words: [String], typing: Bool, variants: [[TypoVariant]], types: [String]
    ) -> [String] {
        guard variants.contains(where: { !$0.isEmpty }) else { return [] }
        let rank = [0, 1, 2, 3, 4, 0]
        func distance(_ i: Int, _ terms: [String], whole: Bool = false) -> Int? {
            let prefix = typing && i == words.count - 1 && !whole
            if holds(terms, words[i], prefix: prefix) { return 0 }
            return variants[i].filter { holds(terms, $0.text, prefix: $0.prefix && prefix) }.map(\.distance).min()
        }
        var ranked: [(key: [Int64], id: String)] = []
        for e in all where !e.hidden && (types.isEmpty || types.contains(e.type)) {
            var typos = 0, attribute = 0, matchedAll = true
            for i in words.indices {
                let best = (0..<6).compactMap { c in distance(i, e.columns[c]).map { $0 * 8 + rank[c] } }.min()
                guard let best else { matchedAll = false; break }
                typos += best / 8
                attribute += best % 8
            }
            guard matchedAll, typos > 0 else { continue }
            let whole = words.indices.allSatisfy { distance($0, e.columns[0], whole: true) != nil }
            let exactness = attribute == 0 && whole ? 2 : 4
            let apart = Self.apart(e, words: words, attribute: attribute, exactness: exactness) { i, token in
                distance(i, [token]) != nil
            }
            ranked.append(([Int64(typos), Int64(attribute), Int64(exactness), apart] + documentRank(e), e.key))
        }
        return ranked.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.id)
    }

    /// rankingHint (in tenths), priority (clamped to ±31), the day of lastUsedAt, fewer title words, newer.
    static func documentRank(_ e: Entity) -> [Int64] {
        let day = e.lastUsed >= 978_307_200_000 ? (e.lastUsed - 978_307_200_000) / 86_400_000 + 1 : 0
        return [
            -Int64((e.hint * 10).rounded()), -min(max(e.priority, -31), 31), -day, Int64(min(e.titlePlain.count, 15)),
            -e.rowid,
        ]
    }

    /// A random query of two to four words, some of which no entity holds (some misspelt).
    static func optionalWordsQuery(_ rng: inout TestSupport.SeededGenerator) -> (words: [String], typing: Bool) {
        let plain = words.filter { $0.allSatisfy(\.isASCII) }
        var query = (0..<Int.random(in: 2...4, using: &rng)).map { _ in
            switch Int.random(in: 0..<8, using: &rng) {
            case 0, 1: noise.randomElement(using: &rng)!
            case 2: misspelt.randomElement(using: &rng)!
            default: plain.randomElement(using: &rng)!
            }
        }
        let typing = Bool.random(using: &rng)
        if typing, Bool.random(using: &rng), let last = query.last, last.count > 1 {
            query[query.count - 1] = String(last.prefix(Int.random(in: 1..<last.count, using: &rng)))
        }
        return (query, typing)
    }

    // MARK: - Tests

    @Test(arguments: [(600, UInt64(51)), (3_000, 52)])
    func optionalWordsRankExactlyLikeTheReference(count: Int, seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed))
        let all = try Self.entities(store)
        var rng = TestSupport.SeededGenerator(seed: seed &* 6007)
        var compared = 0, dropped = 0, typos = 0
        for _ in 0..<300 {
            let (words, typing) = Self.optionalWordsQuery(&rng)
            let types = [["tool"], ["tool", "part"], [], [], []][Int.random(in: 0..<5, using: &rng)]
            let limit = [1, 3, 10, 20, 60].randomElement(using: &rng)!
            let matching: WordMatching = Bool.random(using: &rng) ? .frequency : .last
            let query = words.joined(separator: " ") + (typing ? "" : " ")
            let expected = try Self.reference(
                store, all, words: words, typing: typing, types: types, matching: matching)
            let got = try store.search(
                SearchRequest(query: query, types: types, limit: limit, explain: true, matching: matching))
            let label = "seed \(seed), \(matching) \"\(query)\", types \(types), limit \(limit)"
            #expect(got.map { $0.key.type + "/" + $0.key.id } == Array(expected.prefix(limit)), "\(label)")
            // What matches every word comes first, exactly as a search of every word ranks it.
            let every = try Self.results(store, query, types: types, limit: limit)
            #expect(Array(got.prefix(every.count)).map { $0.key.type + "/" + $0.key.id } == every, "\(label)")
            #expect(
                got.allSatisfy { $0.explanation?["words"]?.string?.hasSuffix("/\(words.count)") == true }, "\(label)")
            if got.contains(where: { $0.explanation?["words"]?.string != "\(words.count)/\(words.count)" }) {
                dropped += 1
            }
            if got.contains(where: { $0.explanation?["typos"] != JSONValue(0) }) { typos += 1 }
            compared += 1
        }
        #expect(dropped > 50, "queries whose results left words out: \(dropped)")
        #expect(typos > 20, "queries whose results have typos: \(typos)")
    }

    @Test(arguments: [(800, UInt64(61)), (3_000, 62)])
    func optionalWordsTotalsAndPagesAgreeWithTheReference(count: Int, seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed))
        let all = try Self.entities(store)
        var rng = TestSupport.SeededGenerator(seed: seed &* 7001)
        var compared = 0, lowerBounds = 0
        for _ in 0..<80 {
            let (words, typing) = Self.optionalWordsQuery(&rng)
            let type: String? = Int.random(in: 0..<5, using: &rng) == 0 ? "tool" : nil
            let matching: WordMatching = Bool.random(using: &rng) ? .frequency : .last
            let query = words.joined(separator: " ") + (typing ? "" : " ")
            let expected = try Self.reference(
                store, all, words: words, typing: typing, types: type.map { [$0] } ?? [], matching: matching)
            guard !expected.isEmpty else { continue }
            let label = "\(matching) \"\(query)\", type \(type ?? "any")"
            let first = try store.searchPage(SearchRequest(query: query, type: type, limit: 10, matching: matching))
            if expected.count <= EntityStore.maxExactTotal {
                #expect(
                    first.total == expected.count && !first.totalIsLowerBound,
                    "\(label): total \(first.total), expected \(expected.count)")
            } else {
                lowerBounds += 1
                #expect(
                    first.totalIsLowerBound && first.total > EntityStore.maxExactTotal
                        && first.total <= expected.count, "\(label): total \(first.total) of \(expected.count)")
            }
            #expect((first.nextCursor != nil) == (expected.count > 10), "\(label)")
            let size = [5, 20, 64].randomElement(using: &rng)!
            let most = min(expected.count, 150)
            var ids: [String] = [], totals = Set<Int>(), cursor: String?
            repeat {
                let page = try store.searchPage(
                    SearchRequest(query: query, type: type, limit: size, cursor: cursor, matching: matching))
                ids += page.entities.map { $0.key.type + "/" + $0.key.id }
                totals.insert(page.totalIsLowerBound ? -1 : page.total)
                cursor = page.nextCursor
            } while cursor != nil && ids.count < most
            #expect(Array(ids.prefix(most)) == Array(expected.prefix(most)), "\(label), pages of \(size)")
            if expected.count <= EntityStore.maxExactTotal {
                #expect(totals == [expected.count], "\(label): every page tells the same exact total, \(totals)")
            } else {
                #expect(totals.isSubset(of: [-1, expected.count]), "\(label): totals \(totals) of \(expected.count)")
            }
            compared += 1
        }
        #expect(compared > 40)
        #expect(lowerBounds > 0, "some query matches more than the exact bound")
    }

    @Test func aCursorOfOneMatchingIsRefusedByAnother() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(300, seed: 71))
        let page = try store.searchPage(SearchRequest(query: "blue zq", limit: 2, matching: .frequency))
        let cursor = try #require(page.nextCursor)
        for matching in [WordMatching.all, .last] {
            #expect(throws: EntityIndexError.self, "\(matching)") {
                try store.searchPage(SearchRequest(query: "blue zq", limit: 2, cursor: cursor, matching: matching))
            }
        }
        let next = try store.searchPage(SearchRequest(query: "blue zq", limit: 2, cursor: cursor, matching: .frequency))
        #expect(next.entities.count == 2)
    }
}
