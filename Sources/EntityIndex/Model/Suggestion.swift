/// The nearest of some names to a mistyped one, for "did you mean".
public enum Suggestion {
    /// The most edits between a mistyped name and the name it suggests.
    static let maxEdits = 2

    /// The candidate at the smallest edit distance (insertions, deletions, substitutions, swaps of neighbours), if
    /// it is close enough to be a typo: at most 2 edits and fewer than half the letters; else one that starts with it.
    public static func closest(to name: String, in candidates: [String]) -> String? {
        var cells = 0
        return closest(to: name, in: candidates, cells: &cells)
    }

    /// `closest(to:in:)`, adding to `cells` the cells of the distance tables it fills.
    ///
    /// The work is bounded by the candidates, not by the name: a name longer than every candidate by more than
    /// `maxEdits` is neither a typo of one nor the start of one, and is refused after reading that many characters
    /// (a megabyte costs what a short name costs); a candidate whose length differs by more than `maxEdits` is
    /// skipped; and a distance fills only the cells within `maxEdits` of the diagonal.
    static func closest(to name: String, in candidates: [String], cells: inout Int) -> String? {
        let longest = candidates.lazy.map(\.count).max() ?? 0
        guard name.prefix(longest + maxEdits + 1).count <= longest + maxEdits else { return nil }
        let typed = Array(name.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            guard abs(candidate.count - typed.count) <= maxEdits,
                let d = distance(typed, Array(candidate.lowercased()), bound: maxEdits, cells: &cells)
            else { continue }
            if d * 2 < max(typed.count, 2), best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
        }
        if let best { return best.0 }
        let prefixed = candidates.filter { $0.hasPrefix(name) }
        return !name.isEmpty && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The optimal string alignment distance of `a` and `b` when it is at most `bound`, else nil.
    ///
    /// Only the band of cells within `bound` of the diagonal is filled (a path that leaves it costs more than
    /// `bound`), three rows at a time, and the walk stops at a row with no cell within `bound`.
    static func distance(_ a: [Character], _ b: [Character], bound: Int, cells: inout Int) -> Int? {
        let n = a.count, m = b.count
        guard abs(n - m) <= bound else { return nil }
        if n == 0 || m == 0 { return max(n, m) }
        let far = bound + 1
        // Rows i - 2, i - 1 and i of the table, columns 0...m; a cell outside the band reads as `far`.
        var before = [Int](repeating: far, count: m + 1)
        var above = [Int](repeating: far, count: m + 1)
        var row = [Int](repeating: far, count: m + 1)
        for j in 0...min(m, bound) { above[j] = j }
        for i in 1...n {
            let low = max(1, i - bound), high = min(m, i + bound)
            row[0] = i <= bound ? i : far
            if low > 1 { row[low - 1] = far }
            if high < m { row[high + 1] = far }
            var least = row[0]
            for j in low...high {
                cells += 1
                var d = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                row[j] = min(d, far)
                least = min(least, row[j])
            }
            if least > bound { return nil }
            (before, above, row) = (above, row, before)
        }
        return above[m] <= bound ? above[m] : nil
    }
}
