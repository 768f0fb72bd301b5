import SQLite

/// A vocabulary word a query word may match with typos.
struct TypoVariant: Sendable, Equatable {
    var text: String
    /// The number of edits (an edit of the first letter counts two).
    var distance: Int
    /// The query word is still being typed and the variant is a prefix of vocabulary words (`postgr` for `pstgr`).
    var prefix: Bool
    var bytes: [UInt8]

    init(_ text: String, distance: Int, prefix: Bool) {
        self.text = text
        self.distance = distance
        self.prefix = prefix
        bytes = Array(text.utf8)
    }
}

/// Finds vocabulary words within a few edits of a query word, for the typo fallback.
///
/// Rules (Meilisearch's defaults): one edit from 5 letters, two from 9; an edit is an insertion, deletion,
/// substitution or swap of two adjacent letters (Damerau, as optimal string alignment); an edit that touches the
/// first letter costs two. Words with digits and CJK never get typos; inside a compound (`python3-reqeusts`) each
/// word of five letters or more without digits gets its own budget.
///
/// The vocabulary is walked as a trie without building one: `vocabulary` is a sorted B-tree, so the children of a
/// prefix are found by seeking to the first word at or after it, reading its next letter, and seeking past that
/// letter's range. Each prefix carries its row of the edit-distance table against the query word; a prefix whose row
/// exceeds the budget everywhere is never descended, and one whose budget is spent continues by exact lookups of the
/// rest of the query word. The cost depends on the query word and the budget, not on the size of the vocabulary
/// (beyond the B-tree's depth): a few hundred to a few thousand index seeks, with `maxSeeks` as a hard bound.
enum TypoTolerance {
    static let maxVariants = 24
    /// A walk stops after this many seeks (what it found so far is kept); real queries need far fewer.
    static let maxSeeks = 20_000
    /// A prefix completed by at most this many words has them read at once instead of walked letter by letter.
    static let smallSubtree = 256

    /// Fills the variants of each eligible term, and of each eligible part of a compound, from the vocabulary: the
    /// table, or `copy` when given (the same words in memory, read from the table when it moved).
    static func expand(_ terms: inout [QueryTerm], db: Connection, copy: VocabularyCopy? = nil) throws {
        let vocabulary = try Vocabulary(db, copy: copy)
        for i in terms.indices {
            switch terms[i].kind {
            case .plain(let word):
                let budget = QueryTerm.typoBudget(word)
                guard budget > 0 else { continue }
                terms[i].plainVariants = try variants(of: word, budget: budget, prefix: terms[i].prefix, vocabulary)
            case .compound(let parts, _):
                guard terms[i].typoInParts else { continue }
                var all: [[TypoVariant]] = []
                for (k, part) in parts.enumerated() {
                    let budget = QueryTerm.typoBudget(part)
                    let prefix = terms[i].prefix && k == parts.count - 1
                    all.append(budget > 0 ? try variants(of: part, budget: budget, prefix: prefix, vocabulary) : [])
                }
                terms[i].partVariants = all
            case .cjk: continue
            }
        }
    }

    /// The vocabulary words (or, for a word being typed, prefixes of them) within `budget` edits of `word`, best
    /// first, at most `maxVariants`.
    static func variants(of word: String, budget: Int, prefix: Bool, _ vocabulary: Vocabulary) throws -> [TypoVariant] {
        let found: [String: Int]
        if let copy = vocabulary.copy {
            found = copy.withWords { words in
                var walk = CopyWalk(query: Array(word.unicodeScalars), budget: budget, prefix: prefix, words: words)
                walk.run()
                return walk.found
            }
        } else {
            var walk = Walk(query: Array(word.unicodeScalars), budget: budget, prefix: prefix, vocabulary: vocabulary)
            try walk.run()
            found = walk.found
        }
        return
            found
            .filter { $0.key != word }
            .map { TypoVariant($0.key, distance: $0.value, prefix: prefix) }
            .sorted {
                ($0.distance, $0.text.unicodeScalars.count, $0.text) < (
                    $1.distance, $1.text.unicodeScalars.count, $1.text
                )
            }
            .prefix(maxVariants).map { $0 }
    }

    /// Seeks in the sorted `vocabulary` table, or in its copy in memory (the same words in the same order, so a walk
    /// finds the same variants with the same number of seeks either way).
    struct Vocabulary {
        let atLeast: Statement
        let after: Statement
        let range: Statement
        let copy: VocabularyCopy?
        var seeks = 0

        init(_ db: Connection, copy: VocabularyCopy? = nil) throws {
            atLeast = try db.cached("SELECT term FROM vocabulary WHERE term >= ? ORDER BY term LIMIT 1")
            after = try db.cached("SELECT term FROM vocabulary WHERE term > ? ORDER BY term LIMIT 1")
            range = try db.cached("SELECT term FROM vocabulary WHERE term >= ? AND term < ? ORDER BY term LIMIT ?")
            self.copy = copy
        }

        /// The first word at or after `s` (strictly after when `strictly`).
        mutating func seek(_ s: String, strictly: Bool = false) throws -> String? {
            seeks += 1
            if let copy { return copy.seek(Array(s.utf8), strictly: strictly) }
            let statement = strictly ? after : atLeast
            defer { statement.reset() }
            try statement.bind([.text(s)])
            return try statement.step() ? statement.text(0) : nil
        }

        mutating func contains(_ s: String) throws -> Bool { try seek(s) == s }

        /// The words starting with `s`, or nil when there are more than `limit`.
        mutating func words(startingWith s: String, atMost limit: Int) throws -> [String]? {
            seeks += 1
            if let copy {
                let found = copy.words(from: Array(s.utf8), below: Array(s.prefixUpperBound.utf8), limit: limit + 1)
                return found.count > limit ? nil : found
            }
            defer { range.reset() }
            try range.bind([.text(s), .text(s.prefixUpperBound), .integer(Int64(limit + 1))])
            var found: [String] = []
            while try range.step() {
                found.append(range.text(0))
                if found.count > limit { return nil }
            }
            return found
        }

        mutating func hasWord(startingWith s: String) throws -> Bool {
            guard let next = try seek(s) else { return false }
            return next.utf8.starts(with: s.utf8)
        }
    }

    /// One query word's walk over the vocabulary.
    struct Walk {
        let query: [Unicode.Scalar]
        let budget: Int
        let prefix: Bool
        var vocabulary: Vocabulary
        /// Word (or prefix, while typing) → its distance.
        var found: [String: Int] = [:]

        init(query: [Unicode.Scalar], budget: Int, prefix: Bool, vocabulary: Vocabulary) {
            self.query = query
            self.budget = budget
            self.prefix = prefix
            self.vocabulary = vocabulary
        }

        /// The cost of an edit at position `i` of either word: two for the first letter.
        @inline(__always) static func cost(_ i: Int) -> Int { i == 0 ? 2 : 1 }

        mutating func run() throws {
            let n = query.count
            var root = [Int](repeating: 0, count: n + 1)
            for i in 1...n { root[i] = root[i - 1] + Self.cost(i - 1) }
            if budget < 2 {
                // Any edit of the first letter costs two: the walk starts with it.
                let c = query[0]
                let row = step(prev2: nil, prev: root, previous: nil, c, at: 1)
                try visit(String(Character(c)), prev2: root, row, last: c, depth: 1, limit: budget)
                return
            }
            // A first letter edited (two edits, the whole budget) is replaced by one of the same alphabet: the
            // children of the root are read within the query letter's block of 128 code points (a–z for ASCII).
            let first = query[0].value
            let low = first < 0x80 ? 0x61 : first & ~0x7F, high = first < 0x80 ? 0x7B : (first | 0x7F) + 1
            guard let start = Unicode.Scalar(low) else { return }
            var cursor = try vocabulary.seek(String(Character(start)))
            while let t = cursor, let c = t.unicodeScalars.first, c.value < high,
                vocabulary.seeks < TypoTolerance.maxSeeks
            {
                let row = step(prev2: nil, prev: root, previous: nil, c, at: 1)
                let p = String(Character(c))
                if row.min()! <= budget { try visit(p, prev2: root, row, last: c, depth: 1, limit: budget) }
                cursor = try vocabulary.seek(p.prefixUpperBound)
            }
        }

        /// The row of candidate position `j` (1-based) for letter `c`, from the rows of positions `j - 1` and `j - 2`.
        func step(prev2: [Int]?, prev: [Int], previous: Unicode.Scalar?, _ c: Unicode.Scalar, at j: Int) -> [Int] {
            Self.step(query, prev2: prev2, prev: prev, previous: previous, c, at: j)
        }

        static func step(
            _ query: [Unicode.Scalar], prev2: [Int]?, prev: [Int], previous: Unicode.Scalar?, _ c: Unicode.Scalar,
            at j: Int
        ) -> [Int] {
            let n = query.count
            var row = [Int](repeating: 0, count: n + 1)
            row[0] = prev[0] + Self.cost(j - 1)
            for i in 1...n {
                let same = query[i - 1] == c
                var v = prev[i - 1] + (same ? 0 : max(Self.cost(i - 1), Self.cost(j - 1)))
                v = min(v, row[i - 1] + Self.cost(i - 1), prev[i] + Self.cost(j - 1))
                if let prev2, let previous, i > 1, j > 1, query[i - 1] == previous, query[i - 2] == c {
                    v = min(v, prev2[i - 2] + max(Self.cost(i - 2), Self.cost(j - 2)))
                }
                row[i] = v
            }
            return row
        }

        /// Continues the table of prefix `t[..<start]` over the rest of `t`, and records `t` when it is within
        /// `limit` edits; while typing, records its shortest prefix within `limit` instead, then each longer one
        /// with fewer edits (`t` itself among them), so that `t` counts the fewest edits of any of its starts.
        mutating func compare(
            _ t: String, from start: Int, prev2: [Int], _ row: [Int], last: Unicode.Scalar, limit: Int
        ) {
            let n = query.count
            let scalars = Array(t.unicodeScalars)
            var (before, current, previous) = (prev2, row, last)
            var limit = limit
            var j = start
            while j < scalars.count {
                let c = scalars[j]
                let next = step(prev2: before, prev: current, previous: previous, c, at: j + 1)
                if next.min()! > limit { return }
                (before, current, previous) = (current, next, c)
                j += 1
                if prefix, current[n] <= limit {
                    record(String(String.UnicodeScalarView(scalars[..<j])), current[n])
                    guard current[n] > 0 else { return }
                    limit = current[n] - 1
                }
            }
            if !prefix, current[n] <= limit { record(t, current[n]) }
        }

        mutating func record(_ word: String, _ distance: Int) {
            if let d = found[word], d <= distance { return }
            found[word] = distance
        }

        /// Visits the vocabulary prefix `p` (`depth` scalars), whose row is `row`, looking for words (or, while
        /// typing, prefixes) within `limit` edits: the budget, or while typing fewer edits than a shorter prefix
        /// of `p` already recorded.
        mutating func visit(
            _ p: String, prev2: [Int], _ row: [Int], last: Unicode.Scalar, depth: Int, limit: Int
        ) throws {
            let n = query.count
            var limit = limit
            guard vocabulary.seeks < TypoTolerance.maxSeeks else { return }
            if prefix, row[n] <= limit {
                // The whole query word is within budget of `p`: every word starting with it matches while typing.
                // A longer prefix may be fewer edits away (`amblyopia` for `amblyepia`, below `amblyopi`): the
                // walk goes on below `p` for those.
                guard try vocabulary.hasWord(startingWith: p) else { return }
                record(p, row[n])
                guard row[n] > 0 else { return }
                limit = row[n] - 1
            }
            let least = row.min()!
            if least >= limit {
                // The budget is spent: only the exact rest of the query word can follow.
                var candidates: [String: Int] = [:]
                for i in 0...n where row[i] == limit {
                    candidates[p + String(String.UnicodeScalarView(query[i...]))] = limit
                }
                // A swap begun at the last letter of `p` (its row is not spent yet in the parent's row): the next
                // letter is the query's letter before, then the rest exactly, at the edits of the swap.
                if depth >= 1 {
                    for i in 1..<n where query[i] == last {
                        let edits = prev2[i - 1] + max(Self.cost(i - 1), Self.cost(depth - 1))
                        guard edits <= limit else { continue }
                        let candidate =
                            p + String(Character(query[i - 1])) + String(String.UnicodeScalarView(query[(i + 1)...]))
                        candidates[candidate] = min(candidates[candidate] ?? edits, edits)
                    }
                }
                for (candidate, edits) in candidates {
                    if prefix ? try vocabulary.hasWord(startingWith: candidate) : try vocabulary.contains(candidate) {
                        record(candidate, edits)
                    }
                }
                return
            }
            // A small subtree is read in one range scan and each of its words compared in memory.
            if depth >= 2, let words = try vocabulary.words(startingWith: p, atMost: TypoTolerance.smallSubtree) {
                let start = p.unicodeScalars.count
                for t in words { compare(t, from: start, prev2: prev2, row, last: last, limit: limit) }
                return
            }
            var cursor = try vocabulary.seek(p)
            if cursor == p {
                if row[n] <= limit { record(p, row[n]) }
                cursor = try vocabulary.seek(p, strictly: true)
            }
            let prefixBytes = p.utf8.count
            while let t = cursor, t.utf8.starts(with: p.utf8), vocabulary.seeks < TypoTolerance.maxSeeks {
                // The next letter after `p` in `t`.
                let rest = t.utf8.dropFirst(prefixBytes)
                guard let c = String(decoding: rest.prefix(4), as: UTF8.self).unicodeScalars.first else { break }
                let child = p + String(Character(c))
                let next = step(prev2: prev2, prev: row, previous: last, c, at: depth + 1)
                if next.min()! <= limit {
                    try visit(child, prev2: row, next, last: c, depth: depth + 1, limit: limit)
                }
                cursor = try vocabulary.seek(child.prefixUpperBound)
            }
        }
    }

    /// Optimal-string-alignment distance where an edit touching the first character costs 2 (the walk's measure,
    /// for tests and explanations).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        let n = a.count, m = b.count
        if n == 0 || m == 0 { return min(limit + 1, n + m + 1) }
        var previous2: [Int] = []
        var previous = [Int](repeating: 0, count: n + 1)
        for i in 1...n { previous[i] = previous[i - 1] + Walk.cost(i - 1) }
        var last: Unicode.Scalar?
        for j in 1...m {
            let row = Walk.step(
                a, prev2: previous2.isEmpty ? nil : previous2, prev: previous, previous: last, b[j - 1], at: j)
            previous2 = previous
            previous = row
            last = b[j - 1]
        }
        return min(previous[n], limit + 1)
    }
}
