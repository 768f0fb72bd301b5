import SQLite

/// Finds vocabulary words within a few edits of a query word, for the typo fallback.
///
/// Rules (Meilisearch's defaults): one edit from 5 letters, two from 9; an edit is an insertion, deletion,
/// substitution or swap of two adjacent letters (Damerau); an edit of the first letter costs two. Words with digits
/// and CJK never get typos.
enum TypoTolerance {
    static let maxVariants = 24

    /// Fills `variants` of each eligible term from the index vocabulary.
    static func expand(_ terms: inout [QueryTerm], db: Connection) throws {
        for i in terms.indices {
            let budget = terms[i].typoBudget
            guard budget > 0, case .plain(let word) = terms[i].kind else { continue }
            let query = Array(word.unicodeScalars)
            var found: [(String, Int)] = []
            // Candidates come from two ranges of the vocabulary: words sharing the first two letters (an edit from
            // the third letter on) and words starting with the first and third letters (a swap of the second and
            // third, or a letter inserted second). Edits of the first two letters that these miss cost two anyway
            // for the first letter; second-letter substitutions and omissions are the price of a bounded scan,
            // which a vocabulary of millions of ids would otherwise make slow.
            var prefixes = [String(String.UnicodeScalarView(query[0..<2]))]
            if query.count > 2, query[1] != query[2] { prefixes.append(String(String.UnicodeScalarView([query[0], query[2]]))) }
            for start in prefixes {
                // `vocabulary` holds the words without digits: typos never apply to ids and codes.
                let rows = try db.rows("SELECT term FROM vocabulary WHERE term >= ? AND term < ?", [.text(start), .text(start.prefixUpperBound)]) {
                    $0.text(0)
                }
                for term in rows where term != word {
                    let candidate = Array(term.unicodeScalars)
                    guard abs(candidate.count - query.count) <= budget || terms[i].prefix else { continue }
                    var d = distance(query, candidate, limit: budget)
                    if terms[i].prefix, candidate.count > query.count {
                        // Still typing: compare with the start of the candidate too.
                        for extra in -1...1 {
                            let n = query.count + extra
                            guard n > 0, n <= candidate.count else { continue }
                            d = min(d, distance(query, Array(candidate[0..<n]), limit: budget))
                        }
                    }
                    if d <= budget { found.append((term, d)) }
                }
            }
            found.sort { ($0.1, $0.0) < ($1.1, $1.0) }
            for (term, d) in found.prefix(maxVariants) { terms[i].variants[term] = d }
        }
    }

    /// Optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of one substring), where an
    /// edit touching the first character costs 2. Returns `limit + 1` as soon as the distance must exceed `limit`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        let n = a.count, m = b.count
        if abs(n - m) > limit { return limit + 1 }
        if n == 0 || m == 0 { return max(n, m) }
        // First-letter rule: a differing first letter costs two edits.
        var penalty = 0
        var a = a, b = b
        if a[0] != b[0] {
            penalty = 2
            if penalty > limit { return limit + 1 }
            // Compare the rest after any single first-letter edit; take the cheapest.
            let sub = distance(Array(a.dropFirst()), Array(b.dropFirst()), limit: limit - penalty)
            let del = distance(Array(a.dropFirst()), b, limit: limit - penalty)
            let ins = distance(a, Array(b.dropFirst()), limit: limit - penalty)
            return min(sub, del, ins) + penalty
        }
        a.removeFirst()
        b.removeFirst()
        let n1 = a.count, m1 = b.count
        if n1 == 0 || m1 == 0 { return max(n1, m1) }
        var previous2 = [Int](repeating: 0, count: m1 + 1)
        var previous = Array(0...m1)
        var current = [Int](repeating: 0, count: m1 + 1)
        for i in 1...n1 {
            current[0] = i
            var rowMin = current[0]
            for j in 1...m1 {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, previous2[j - 2] + 1) }
                current[j] = v
                rowMin = min(rowMin, v)
            }
            if rowMin > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[m1]
    }
}
