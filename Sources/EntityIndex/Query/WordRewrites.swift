import SQLite

/// A query with one word split in two, or two adjacent words joined, as the vocabulary holds them: `oatmilk` as
/// `oat milk`, `kaffee maschine` as `kaffeemaschine` (Meilisearch's split words and concatenations).
struct WordRewrite: Sendable {
    enum Kind: String, Sendable {
        /// One word typed as two indexed words side by side.
        case split
        /// Two words typed as one indexed word.
        case joined
    }

    let kind: Kind
    /// The words as the query had them (`oatmilk`, `kaffee maschine`).
    let from: String
    /// What they became (`oat milk`, `kaffeemaschine`).
    let to: String
    /// The query with the change, its other words as typed.
    var query: SearchQuery
}

/// Finds a query's split and joined forms in the `vocabulary` table, a bounded number of exact lookups.
///
/// A pair of adjacent plain words (no digits) is joined when the joined form is a vocabulary word. A plain word is
/// split when it is no vocabulary word (the word being typed: when no vocabulary word starts with it) and has
/// `2 × minPart` to `maxSplitLength` characters: at a cut where both halves, of `minPart` characters or more, are
/// vocabulary words, the most even cuts first, at most `maxSplitsPerWord` of them. The word being typed stays a
/// prefix: its split's second half, its join's joined word. Joins come first, left to right, then splits; at most
/// `maxRewrites` rewrites and `maxLookups` lookups a query.
struct WordRewrites {
    /// A half of a split has at least this many characters (`a` or `s` alone is mostly noise of the index).
    static let minPart = 2
    /// A longer word is not split (its cuts would cost a lookup each).
    static let maxSplitLength = 32
    /// The splits kept for one word.
    static let maxSplitsPerWord = 3
    /// The rewrites of a query, each a search of its own.
    static let maxRewrites = 8
    /// The vocabulary lookups of a query.
    static let maxLookups = 256

    let db: Connection
    /// Vocabulary lookups made (each an index seek).
    private(set) var lookups = 0
    /// Cuts of a word looked up (whatever their outcome).
    private(set) var splitsTried = 0

    init(db: Connection) { self.db = db }

    /// The rewrites of `query`, joins then splits, at most `maxRewrites`.
    mutating func rewrites(_ query: SearchQuery) throws -> [WordRewrite] {
        let terms = query.terms
        guard terms.count == query.termText.count else { return [] }
        var found: [WordRewrite] = []
        func add(_ kind: WordRewrite.Kind, _ range: Range<Int>, _ to: String) {
            guard found.count < Self.maxRewrites, let rewritten = Self.rewritten(query, range, to) else { return }
            let from = range.map { query.terms[$0].display }.joined(separator: " ")
            found.append(WordRewrite(kind: kind, from: from, to: to, query: rewritten))
        }
        for i in terms.indices.dropLast() where found.count < Self.maxRewrites {
            guard let a = Self.plainWord(terms[i]), let b = Self.plainWord(terms[i + 1]), try isWord(a + b)
            else { continue }
            add(.joined, i..<(i + 1 + 1), a + b)
        }
        guard terms.count < SearchQuery.maxTerms else { return found }
        for i in terms.indices where found.count < Self.maxRewrites {
            for (head, tail) in try splits(terms[i]) { add(.split, i..<(i + 1), head + " " + tail) }
        }
        return found
    }

    /// The splits of a term, most even first: none for a word the vocabulary holds (or, being typed, starts).
    mutating func splits(_ term: QueryTerm) throws -> [(String, String)] {
        guard let word = Self.plainWord(term), term.completions == nil else { return [] }
        let chars = Array(word)
        let n = chars.count
        guard n >= 2 * Self.minPart, n <= Self.maxSplitLength else { return [] }
        guard try !(term.prefix ? startsWord(word) : isWord(word)) else { return [] }
        let cuts = (Self.minPart...(n - Self.minPart)).sorted { (abs(2 * $0 - n), $0) < (abs(2 * $1 - n), $1) }
        var found: [(String, String)] = []
        for cut in cuts where found.count < Self.maxSplitsPerWord && lookups < Self.maxLookups {
            splitsTried += 1
            let head = String(chars[..<cut]), tail = String(chars[cut...])
            if try isWord(head), try isWord(tail) { found.append((head, tail)) }
        }
        return found
    }

    /// A plain word without digits (what the vocabulary holds), or nil.
    static func plainWord(_ term: QueryTerm) -> String? {
        guard case .plain(let word) = term.kind, SearchDocument.isVocabularyWord(word) else { return nil }
        return word
    }

    private mutating func isWord(_ word: String) throws -> Bool {
        guard lookups < Self.maxLookups else { return false }
        lookups += 1
        return try db.scalar("SELECT 1 FROM vocabulary WHERE term = ?", [.text(word)]) != nil
    }

    private mutating func startsWord(_ word: String) throws -> Bool {
        guard lookups < Self.maxLookups else { return true }
        lookups += 1
        return try db.scalar(
            "SELECT 1 FROM vocabulary WHERE term >= ? AND term < ? LIMIT 1",
            [.text(word), .text(word.prefixUpperBound)]) != nil
    }

    /// The query with the terms at `range` replaced by `text`, the others as typed, the word being typed still a
    /// prefix; nil when it does not parse into the terms expected (`text`'s words in place of the range's).
    static func rewritten(_ query: SearchQuery, _ range: Range<Int>, _ text: String) -> SearchQuery? {
        var pieces = query.termText
        pieces.replaceSubrange(range, with: [text])
        let typing = query.terms.last?.prefix ?? false
        let rewritten = SearchQuery(pieces.joined(separator: " ") + (typing ? "" : " "))
        let words = text.split(separator: " ").count
        guard rewritten.terms.count == query.terms.count - range.count + words,
            (rewritten.terms.last?.prefix ?? false) == typing,
            (range.lowerBound..<(range.lowerBound + words)).allSatisfy({ plainWord(rewritten.terms[$0]) != nil })
        else { return nil }
        return rewritten
    }
}

extension EntityStore {
    /// The first `limit` entities of a pass's rewrites together, best first: each rewrite is searched as typed
    /// (`TopK`, its exact top `limit`), and an entity several rewrites find ranks by its best tiers among them.
    func rankRewrites(_ rewrites: [WordRewrite], limit: Int, excluding: Set<Int64>, conditions: SQLFragment) throws
        -> [Ranker.Ranked]
    {
        var best: [Int64: Ranker.Ranked] = [:]
        for rewrite in rewrites {
            var topK = TopK(db: db, query: rewrite.query, limit: limit, conditions: conditions, excluding: excluding)
            try topK.run()
            for var ranked in topK.accepted {
                ranked.rewrite = rewrite
                if let other = best[ranked.docid], !Ranker.Ranked.precedes(ranked, other) { continue }
                best[ranked.docid] = ranked
            }
        }
        return Ranker.top(Array(best.values), limit: limit)
    }

    /// The documents of at most `limit` candidates of the rewrites (their words as typed, their exact ids), for a
    /// total: the union of each rewrite's.
    func rewriteCandidates(_ rewrites: [WordRewrite], conditions: SQLFragment, limit: Int) throws -> [Int64] {
        var found: [Int64] = []
        var seen = Set<Int64>()
        for rewrite in rewrites where found.count < limit {
            for doc in try passCandidates(rewrite.query, .words, conditions: conditions, limit: limit)
            where seen.insert(doc).inserted {
                found.append(doc)
            }
        }
        return Array(found.prefix(limit))
    }
}
