import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// A misspelt word still being typed, against a brute-force reference of the typo fallback: typos counted from the
/// edit distance itself, as the README says (one edit from 5 letters, two from 9, an edit of the first letter
/// counting two; a word being typed matches the vocabulary words that start within budget of it, with the fewest
/// edits of any of their starts, the whole word included), not from the engine's variants.
extension ExactRankingTests {
    /// Families of long words, a few edits from each other (`amblyopia`, `amblyopic`), beside the usual words.
    static let longWords = [
        "amblyopia", "amblyopic", "amblyopias", "documentation", "documentary", "documented", "kettlebells",
        "lampshades", "hospitality", "hospitalise", "transparent", "transparency", "lanternfish", "copperhead",
        "copperheads", "musicality", "musicianship",
    ]

    /// Optimal-string-alignment distance where an edit touching the first letter of either word costs two.
    static func edits(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return 2 * (a.count + b.count) }
        return editsToPrefixes(a, b)[b.count]
    }

    /// The distance from `a` to each start of `b` (index j: its first j letters, j ≥ 1), from one table: a
    /// column of the table depends only on the columns before it.
    static func editsToPrefixes(_ a: [Character], _ b: [Character]) -> [Int] {
        func cost(_ i: Int) -> Int { i == 0 ? 2 : 1 }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: 1, through: a.count, by: 1) { d[i][0] = d[i - 1][0] + cost(i - 1) }
        for j in stride(from: 1, through: b.count, by: 1) { d[0][j] = d[0][j - 1] + cost(j - 1) }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                var v = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : max(cost(i - 1), cost(j - 1)))
                v = min(v, d[i - 1][j] + cost(i - 1), d[i][j - 1] + cost(j - 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    v = min(v, d[i - 2][j - 2] + max(cost(i - 2), cost(j - 2)))
                }
                d[i][j] = v
            }
        }
        return d[a.count]
    }

    /// The typos of query word `word` on index term `term`, or nil beyond its budget: as a whole word, or while
    /// typing the fewest edits of any start of the term. `whole`: whether the term counts its own edits (no
    /// shorter start of it is as close), which makes it a whole word of the title.
    static func typos(_ word: String, _ term: String, typing: Bool) -> (typos: Int, whole: Bool)? {
        if term == word { return (0, true) }
        if typing && term.hasPrefix(word) { return (0, false) }
        let budget = QueryTerm.typoBudget(word)
        guard budget > 0, !term.contains(where: \.isNumber) else { return nil }
        let w = Array(word), t = Array(term)
        guard !w.isEmpty, !t.isEmpty else { return nil }
        let row = editsToPrefixes(w, t)
        let own = row[t.count]
        guard typing else { return own <= budget ? (own, true) : nil }
        let shorter = row[1..<t.count].min() ?? Int.max
        let fewest = min(own, shorter)
        return fewest <= budget ? (fewest, own < shorter) : nil
    }

    /// The typo fallback's ranking computed from the words themselves: fewer typos, then the attribute, then (title
    /// tier) every word whole in the title, then the words side by side, then the document rank.
    static func typingReference(_ all: [Entity], words: [String], limit: Int) -> [String] {
        let rank = [0, 1, 2, 3, 4, 0]
        let n = words.count
        // Each (query word, term) pair is measured once: the corpus repeats its terms.
        var measured: [String: (typos: Int, whole: Bool)?] = [:]
        func measure(_ i: Int, _ term: String) -> (typos: Int, whole: Bool)? {
            let key = "\(i)\u{0}\(term)"
            if let known = measured[key] { return known }
            let found = typos(words[i], term, typing: i == n - 1)
            measured[key] = found
            return found
        }
        func best(_ i: Int, _ terms: [String]) -> (typos: Int, whole: Bool)? {
            let found = terms.compactMap { measure(i, $0) }
            guard let fewest = found.map(\.typos).min() else { return nil }
            return (fewest, found.contains { $0.whole })
        }
        var ranked: [(key: [Int64], id: String)] = []
        for e in all where !e.hidden {
            var typos = 0, attribute = 0, matchedAll = true
            for i in words.indices {
                let found = (0..<6).compactMap { c in best(i, e.columns[c]).map { $0.typos * 8 + rank[c] } }.min()
                guard let found else { matchedAll = false; break }
                typos += found / 8
                attribute += found % 8
            }
            guard matchedAll, typos > 0 else { continue }
            let whole = words.indices.allSatisfy { best($0, e.columns[0])?.whole == true }
            let exactness = attribute == 0 && whole ? 2 : 4
            let apart = Self.apart(e, words: words, attribute: attribute, exactness: exactness) { i, token in
                best(i, [token]) != nil
            }
            ranked.append(([Int64(typos), Int64(attribute), Int64(exactness), apart] + documentRank(e), e.key))
        }
        return ranked.sorted { $0.key.lexicographicallyPrecedes($1.key) }.prefix(limit).map(\.id)
    }

    /// A long word with one or two random edits (insertion, deletion, substitution, swap), still 9 letters or more.
    static func misspell(_ word: String, _ rng: inout TestSupport.SeededGenerator) -> String {
        var letters = Array(word)
        for _ in 0..<Int.random(in: 1...2, using: &rng) {
            let at = Int.random(in: 0..<letters.count, using: &rng)
            let letter = Array("abcdefghijklmnopqrstuvwxyz").randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: letters.insert(letter, at: at)
            case 1: letters.remove(at: at)
            case 2: letters[at] = letter
            default: if at + 1 < letters.count { letters.swapAt(at, at + 1) }
            }
        }
        return String(letters)
    }

    // MARK: - Tests

    @Test(arguments: [(400, UInt64(81)), (2_500, 82)])
    func misspeltWordsBeingTypedRankByTheirOwnTypos(count: Int, seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed, words: Self.words + Self.longWords))
        let all = try Self.entities(store)
        let terms = Set(all.flatMap { $0.columns.flatMap { $0 } })
        var rng = TestSupport.SeededGenerator(seed: seed &* 5003)
        let plain = Self.words.filter { $0.allSatisfy(\.isASCII) }
        var compared = 0, wholeFewer = 0
        for _ in 0..<300 {
            let last = Self.misspell(Self.longWords.randomElement(using: &rng)!, &rng)
            let words = (0..<Int.random(in: 0...1, using: &rng)).map { _ in plain.randomElement(using: &rng)! } + [last]
            let limit = [1, 3, 10, 20, 60].randomElement(using: &rng)!
            // Only a word that matches nothing as typed falls back to typos.
            guard last.count >= 9, !terms.contains(where: { $0.hasPrefix(last) }),
                words.dropLast().allSatisfy(terms.contains)
            else { continue }
            let query = words.joined(separator: " ")
            let expected = Self.typingReference(all, words: words, limit: limit)
            let got = try Self.results(store, query, limit: limit)
            #expect(got == expected, "seed \(seed), query \"\(query)\", limit \(limit)")
            if got != expected { return }
            // How often a whole word is fewer edits away than the shortest of its starts within budget.
            if terms.contains(where: { term in
                let t = Array(term), w = Array(last)
                guard !t.isEmpty else { return false }
                let row = Self.editsToPrefixes(w, t)
                let own = row[t.count]
                guard own <= 2 else { return false }
                let first = row[1..<t.count].first { $0 <= 2 }
                return first.map { own < $0 } ?? false
            }) {
                wholeFewer += 1
            }
            compared += 1
        }
        #expect(compared > 100)
        #expect(wholeFewer > 20, "queries with a whole word fewer edits away than its first start: \(wholeFewer)")
    }
}
