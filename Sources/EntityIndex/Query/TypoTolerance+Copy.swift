#if canImport(Glibc)
    import Glibc
#endif

extension TypoTolerance {
    /// `Walk` over the vocabulary's copy in memory (`VocabularyCopy`): the same walk, seek for seek (so the same
    /// variants, and the same `maxSeeks` bound), with the prefix as bytes, each seek a binary search that returns
    /// a word's index, and the rows of the edit-distance table in one buffer, a row per depth. No string is made
    /// but for the variants found; a small subtree's words reuse the rows of the prefix they share with the word
    /// before them.
    struct CopyWalk {
        let query: [Unicode.Scalar]
        let budget: Int
        let prefix: Bool
        let words: VocabularyCopy.Words
        var seeks = 0
        var found: [String: Int] = [:]
        /// The prefix being visited.
        private var p: [UInt8] = []
        /// The rows of the table, `width` entries each: row `d` is that of the prefix's first `d` scalars.
        private var rows: [Int]
        private let width: Int
        private var count: Int { words.count }

        init(query: [Unicode.Scalar], budget: Int, prefix: Bool, words: VocabularyCopy.Words) {
            self.query = query
            self.budget = budget
            self.prefix = prefix
            self.words = words
            width = query.count + 1
            rows = [Int](repeating: 0, count: width * 16)
        }

        // MARK: - The vocabulary

        private func word(_ i: Int) -> UnsafeBufferPointer<UInt8> { words.word(i) }

        /// The index of the first word at or after `key` (strictly after when `strictly`): a seek.
        private mutating func seek(_ key: [UInt8], strictly: Bool = false) -> Int {
            seeks += 1
            return words.firstIndex(atOrAfter: key, strictly: strictly)
        }

        private func starts(_ i: Int, with key: [UInt8]) -> Bool { words.word(i, startsWith: key) }
        private func equals(_ i: Int, _ key: [UInt8]) -> Bool { words.word(i, is: key) }

        private mutating func hasWord(startingWith key: [UInt8]) -> Bool { starts(seek(key), with: key) }
        private mutating func contains(_ key: [UInt8]) -> Bool { equals(seek(key), key) }

        /// The bytes after which every string starting with `key` sorts (`String.prefixUpperBound`: its last scalar
        /// incremented, past the surrogate gap).
        private static func upperBound(_ key: [UInt8]) -> [UInt8] {
            var start = key.count - 1
            while start > 0 && key[start] & 0xC0 == 0x80 { start -= 1 }
            guard let last = decode(key, at: start)?.scalar else { return key }
            let next = Unicode.Scalar(last.value + 1) ?? Unicode.Scalar(last.value + 0x801) ?? last
            return Array(key[..<start]) + Array(String(Character(next)).utf8)
        }

        /// The scalar that starts at byte `at`, and its length in bytes.
        private static func decode<C: Collection<UInt8>>(_ bytes: C, at: C.Index) -> (
            scalar: Unicode.Scalar, length: Int
        )? where C.Index == Int {
            guard at < bytes.endIndex else { return nil }
            let lead = bytes[at]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard at + length <= bytes.endIndex else { return nil }
            var value = UInt32(length == 1 ? lead : lead & (0xFF >> (length + 1)))
            for k in 1..<length { value = value << 6 | UInt32(bytes[at + k] & 0x3F) }
            return Unicode.Scalar(value).map { ($0, length) }
        }

        private static func bytes(_ c: Unicode.Scalar) -> [UInt8] { Array(String(Character(c)).utf8) }

        // MARK: - The table

        /// Computes row `j` (1-based depth) for scalar `c` after `previous`, from rows `j - 1` and `j - 2`; returns
        /// its least entry. (`Walk.step`, written into the buffer.)
        private mutating func step(_ c: Unicode.Scalar, previous: Unicode.Scalar?, at j: Int) -> Int {
            if rows.count < (j + 1) * width { rows += [Int](repeating: 0, count: rows.count) }
            let n = query.count
            return rows.withUnsafeMutableBufferPointer { r in
                query.withUnsafeBufferPointer { q in
                    let prev = (j - 1) * width, row = j * width, prev2 = (j - 2) * width
                    let costJ = Walk.cost(j - 1)
                    r[row] = r[prev] + costJ
                    var least = r[row]
                    for i in 1...n {
                        let costI = Walk.cost(i - 1)
                        var v = r[prev + i - 1] + (q[i - 1] == c ? 0 : max(costI, costJ))
                        v = min(v, r[row + i - 1] + costI, r[prev + i] + costJ)
                        if let previous, i > 1, j > 1, q[i - 1] == previous, q[i - 2] == c {
                            v = min(v, r[prev2 + i - 2] + max(Walk.cost(i - 2), Walk.cost(j - 2)))
                        }
                        r[row + i] = v
                        least = min(least, v)
                    }
                    return least
                }
            }
        }

        private func entry(_ depth: Int, _ i: Int) -> Int { rows[depth * width + i] }

        private mutating func record(_ bytes: some Sequence<UInt8>, _ distance: Int) {
            let word = String(decoding: Array(bytes), as: UTF8.self)
            if let d = found[word], d <= distance { return }
            found[word] = distance
        }

        // MARK: - The walk

        mutating func run() {
            let n = query.count
            for i in 1...n { rows[i] = rows[i - 1] + Walk.cost(i - 1) }
            if budget < 2 {
                let c = query[0]
                p = Self.bytes(c)
                _ = step(c, previous: nil, at: 1)
                visit(last: c, depth: 1, limit: budget)
                return
            }
            let first = query[0].value
            let low = first < 0x80 ? 0x61 : first & ~0x7F, high = first < 0x80 ? 0x7B : (first | 0x7F) + 1
            guard let start = Unicode.Scalar(low) else { return }
            var cursor = seek(Self.bytes(start))
            while cursor < count, let c = Self.decode(word(cursor), at: 0)?.scalar, c.value < high,
                seeks < TypoTolerance.maxSeeks
            {
                p = Self.bytes(c)
                if step(c, previous: nil, at: 1) <= budget { visit(last: c, depth: 1, limit: budget) }
                p = Self.bytes(c)
                cursor = seek(Self.upperBound(p))
            }
        }

        /// Visits the prefix `p` (`depth` scalars, the last `last`), whose row is row `depth`, for words (or
        /// prefixes) within `limit` edits. (`Walk.visit`.)
        private mutating func visit(last: Unicode.Scalar, depth: Int, limit: Int) {
            let n = query.count
            var limit = limit
            guard seeks < TypoTolerance.maxSeeks else { return }
            if prefix, entry(depth, n) <= limit {
                guard hasWord(startingWith: p) else { return }
                record(p, entry(depth, n))
                guard entry(depth, n) > 0 else { return }
                limit = entry(depth, n) - 1
            }
            var least = Int.max
            for i in 0...n { least = min(least, entry(depth, i)) }
            if least >= limit {
                var candidates: [[UInt8]: Int] = [:]
                for i in 0...n where entry(depth, i) == limit {
                    candidates[p + Array(String(String.UnicodeScalarView(query[i...])).utf8)] = limit
                }
                for i in 1..<n where query[i] == last {
                    let edits = entry(depth - 1, i - 1) + max(Walk.cost(i - 1), Walk.cost(depth - 1))
                    guard edits <= limit else { continue }
                    let candidate =
                        p + Self.bytes(query[i - 1]) + Array(String(String.UnicodeScalarView(query[(i + 1)...])).utf8)
                    candidates[candidate] = min(candidates[candidate] ?? edits, edits)
                }
                for (candidate, edits) in candidates {
                    if prefix ? hasWord(startingWith: candidate) : contains(candidate) { record(candidate, edits) }
                }
                return
            }
            if depth >= 2 {
                // `Vocabulary.words(startingWith:atMost:)`: one seek, then the subtree in one range when it is small.
                seeks += 1
                let from = words.firstIndex(atOrAfter: p)
                var to = from
                let bound = TypoTolerance.smallSubtree
                while to < count, to - from <= bound, starts(to, with: p) { to += 1 }
                if to - from <= bound {
                    compare(from..<to, depth: depth, limit: limit)
                    return
                }
            }
            var cursor = seek(p)
            if equals(cursor, p) {
                if entry(depth, n) <= limit { record(p, entry(depth, n)) }
                cursor = seek(p, strictly: true)
            }
            let length = p.count
            while starts(cursor, with: p), seeks < TypoTolerance.maxSeeks {
                guard let c = Self.decode(word(cursor), at: length)?.scalar else { break }
                p += Self.bytes(c)
                if step(c, previous: last, at: depth + 1) <= limit { visit(last: c, depth: depth + 1, limit: limit) }
                let child = p
                p.removeLast(p.count - length)
                cursor = seek(Self.upperBound(child))
            }
        }

        /// Compares the words of a small subtree below the prefix of `depth` scalars (`Walk.compare` for each),
        /// each continuing the table from the scalars it shares with the word before it.
        private mutating func compare(_ range: Range<Int>, depth: Int, limit: Int) {
            let n = query.count
            var scalars: [Unicode.Scalar] = [], previousWord: [Unicode.Scalar] = []
            // Rows are valid up to `valid` for `previousWord`, and so are `limits` (the limit below each depth,
            // lowered while typing by each prefix recorded); it stopped at depth `stopped` (beyond its limit, or
            // recorded as a prefix as typed), which a word sharing that much of it does as well.
            var valid = depth, stopped = Int.max
            var limits = [Int](repeating: limit, count: depth + 1)
            for index in range {
                let w = word(index)
                scalars.removeAll(keepingCapacity: true)
                var at = 0
                while let (c, length) = Self.decode(w, at: at) {
                    scalars.append(c)
                    at += length
                }
                var shared = depth
                while shared < min(scalars.count, previousWord.count) && scalars[shared] == previousWord[shared] {
                    shared += 1
                }
                swap(&scalars, &previousWord)
                let s = previousWord
                if shared >= stopped { continue }
                stopped = Int.max
                var j = min(shared, valid)
                var limit = limits[j]
                var outcome = false
                while j < s.count {
                    let least = step(s[j], previous: s[j - 1], at: j + 1)
                    if least > limit {
                        stopped = j + 1
                        valid = j
                        outcome = true
                        break
                    }
                    j += 1
                    valid = j
                    if prefix, entry(j, n) <= limit {
                        // As `Walk.compare`: a longer prefix with fewer edits is recorded too.
                        record(w[..<byteOffset(s, j)], entry(j, n))
                        limit = entry(j, n) - 1
                    }
                    if limits.count <= j { limits.append(limit) } else { limits[j] = limit }
                    if limit < 0 {
                        stopped = j
                        outcome = true
                        break
                    }
                }
                if !outcome && !prefix && entry(s.count, n) <= limit { record(w, entry(s.count, n)) }
            }
        }

        private func byteOffset(_ scalars: [Unicode.Scalar], _ count: Int) -> Int {
            scalars[..<count].reduce(0) { $0 + String(Character($1)).utf8.count }
        }
    }
}
