/// Finds a run of consecutive items (the words or tokens of a value) that match a list of globs one by one, in one
/// pass over the items.
///
/// Shift-And: bit `i` of the state says "globs 0…i match the items just read". Each item shifts the state by one
/// and keeps the bits of the globs it matches: a literal glob's positions come from one dictionary lookup, a glob
/// with a wildcard is tried once however often it repeats in the pattern. The time is the items' bytes plus one
/// step per 64 globs for each item that matches some glob, and the memory is the pattern's: neither grows with the
/// pattern times the value, and no item is read twice (a matcher that restarts at every word is quadratic on
/// `a a … b` against `a a a …`).
struct GlobSequence {
    let count: Int
    private let words: Int
    /// Where each literal glob stands in the pattern, as bits.
    private var literals: [[UInt8]: [UInt64]] = [:]
    /// Each distinct glob with a wildcard, with where it stands.
    private var patterns: [(glob: SpotlightMatcher.Glob, bits: [UInt64])] = []

    init(_ globs: [SpotlightMatcher.Glob]) {
        count = globs.count
        words = (globs.count + 63) / 64
        let empty = [UInt64](repeating: 0, count: words)
        var patternIndex: [SpotlightMatcher.Glob: Int] = [:]
        for (i, glob) in globs.enumerated() {
            let (word, bit) = (i >> 6, UInt64(1) << UInt64(i & 63))
            if glob.count == 1, case .literal(let bytes) = glob[0] {
                literals[bytes, default: empty][word] |= bit
            } else if let k = patternIndex[glob] {
                patterns[k].bits[word] |= bit
            } else {
                patternIndex[glob] = patterns.count
                var bits = empty
                bits[word] |= bit
                patterns.append((glob, bits))
            }
        }
    }

    /// Whether consecutive items match the globs; `cost` grows by the steps taken beyond reading the items (the
    /// caller counts their bytes).
    func occurs(in items: [[UInt8]], cost: inout Int) -> Bool {
        guard count > 0, items.count >= count else { return false }
        var state = [UInt64](repeating: 0, count: words)
        var mask = [UInt64](repeating: 0, count: words)
        var active = false
        let lastWord = (count - 1) >> 6, lastBit = UInt64(1) << UInt64((count - 1) & 63)
        for item in items {
            cost += 1
            var matched = false
            if let bits = literals[item] {
                for w in 0..<words { mask[w] = bits[w] }
                matched = true
            }
            for (glob, bits) in patterns {
                cost += item.count + glob.count
                guard SpotlightMatcher.glob(glob, item) else { continue }
                if !matched {
                    for w in 0..<words { mask[w] = 0 }
                    matched = true
                }
                for w in 0..<words { mask[w] |= bits[w] }
            }
            guard matched else {
                if active {
                    for w in 0..<words { state[w] = 0 }
                    active = false
                }
                continue
            }
            cost += words
            var carry: UInt64 = 1, nonzero = false
            for w in 0..<words {
                let s = state[w]
                state[w] = ((s << 1) | carry) & mask[w]
                carry = s >> 63
                nonzero = nonzero || state[w] != 0
            }
            active = nonzero
            if state[lastWord] & lastBit != 0 { return true }
        }
        return false
    }
}
