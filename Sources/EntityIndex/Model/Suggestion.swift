/// The nearest of some names to a mistyped one, for "did you mean".
public enum Suggestion {
    /// The candidate at the smallest edit distance (insertions, deletions, substitutions, swaps of neighbours), if
    /// it is close enough to be a typo: at most 2 edits and fewer than half the letters; else one that starts with it.
    public static func closest(to name: String, in candidates: [String]) -> String? {
        let typed = Array(name.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(typed, Array(candidate.lowercased()))
            if d <= 2, d * 2 < max(typed.count, 2), best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        if let best { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(name) }
        return !name.isEmpty && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Optimal string alignment distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
