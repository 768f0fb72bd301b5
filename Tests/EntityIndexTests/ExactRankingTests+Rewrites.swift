import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Split and joined words in the exact-ranking oracle: corpora of words some of which are others side by side
/// (`cupcake`, `kaffeemaschine`), queried with words typed fused (`oatmilk`) or apart (`kaffee maschine`).
extension ExactRankingTests {
    static let rewriteWords = [
        "oat", "milk", "cappuccino", "kaffee", "maschine", "kaffeemaschine", "tea", "pot", "teapot", "cup", "cake",
        "cupcake", "cakepot", "lamp", "shade", "foam",
    ]
    /// Query words no record holds, each two of `rewriteWords` fused.
    static let fusedWords = ["oatmilk", "milkfoam", "teacup", "lampshade", "cupcakepot", "oatcake", "foamcup"]

    /// The vocabulary as the README defines it: every indexed term without digits (nothing is deleted here).
    static func vocabulary(_ all: [Entity]) -> Set<String> {
        Set(all.flatMap { $0.columns.flatMap { $0 } }.filter { !$0.contains(where: \.isNumber) })
    }

    /// The README's rewrites, from scratch: each adjacent pair whose joined form is a vocabulary word, left to
    /// right; then each word the vocabulary does not hold (being typed: that no vocabulary word starts with) of 4 to
    /// 32 letters, cut where both halves (2 letters or more) are vocabulary words, the most even cuts first, 3 a
    /// word; 8 in all.
    static func rewrites(_ words: [String], typing: Bool, vocabulary: Set<String>) -> [[String]] {
        var found: [[String]] = []
        let n = words.count
        for i in 0..<(n - 1) where vocabulary.contains(words[i] + words[i + 1]) {
            found.append(Array(words[..<i]) + [words[i] + words[i + 1]] + Array(words[(i + 2)...]))
        }
        for (i, word) in words.enumerated() {
            let chars = Array(word), m = chars.count
            guard m >= 4, m <= 32 else { continue }
            let typed = typing && i == n - 1 ? vocabulary.contains { $0.hasPrefix(word) } : vocabulary.contains(word)
            guard !typed else { continue }
            let cuts = (2...(m - 2)).sorted { (abs(2 * $0 - m), $0) < (abs(2 * $1 - m), $1) }.filter {
                vocabulary.contains(String(chars[..<$0])) && vocabulary.contains(String(chars[$0...]))
            }
            for cut in cuts.prefix(3) {
                found.append(
                    Array(words[..<i]) + [String(chars[..<cut]), String(chars[cut...])] + Array(words[(i + 1)...]))
            }
        }
        return Array(found.prefix(8))
    }

    /// Words as typed first; when they match nothing, the union of the rewrites' matches, each entity by its best
    /// tiers among the rewrites that find it.
    @Test(arguments: [(400, UInt64(21)), (1_500, 22), (4_000, 23)])
    func splitAndJoinedWordsRankExactlyLikeTheReference(count: Int, seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed, words: Self.rewriteWords))
        let all = try Self.entities(store)
        let vocabulary = Self.vocabulary(all)
        var rng = TestSupport.SeededGenerator(seed: seed &* 104_729)
        var rewritten = 0, typed = 0
        for _ in 0..<300 {
            let pool = Bool.random(using: &rng) ? Self.fusedWords : Self.rewriteWords
            let words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (Bool.random(using: &rng) ? pool : Self.rewriteWords).randomElement(using: &rng)!
            }
            let typing = Bool.random(using: &rng)
            let types = [["tool"], [], []][Int.random(in: 0..<3, using: &rng)]
            let limit = [1, 3, 10, 40].randomElement(using: &rng)!
            let query = words.joined(separator: " ") + (typing ? "" : " ")
            var expected = Self.reference(all, words: words, typing: typing, types: types, limit: limit)
            let asTyped = !expected.isEmpty
            if !asTyped {
                var best: [String: [Int64]] = [:]
                for rewrite in Self.rewrites(words, typing: typing, vocabulary: vocabulary) {
                    for (key, id) in Self.ranked(all, words: rewrite, typing: typing, types: types)
                    where best[id].map({ key.lexicographicallyPrecedes($0) }) ?? true {
                        best[id] = key
                    }
                }
                expected = best.sorted { $0.value.lexicographicallyPrecedes($1.value) }.prefix(limit).map(\.key)
            }
            if expected.isEmpty { continue }
            let got = try store.search(SearchRequest(query: query, types: types, limit: limit, explain: true))
            #expect(got.map { $0.key.type + "/" + $0.key.id } == expected, "seed \(seed), query \"\(query)\"")
            // Found by a rewrite: marked so, and never when the words as typed matched.
            for result in got {
                let marks = Set(result.matchedBy ?? []).intersection(["split", "joined"])
                let explained = result.explanation?["split"] != nil || result.explanation?["joined"] != nil
                #expect(marks.count == (asTyped ? 0 : 1) && explained == !asTyped, "query \"\(query)\"")
            }
            if asTyped { typed += 1 } else { rewritten += 1 }
        }
        #expect(rewritten > 20 && typed > 20, "rewritten \(rewritten), as typed \(typed)")
    }
}
