import SQLite

/// How many of a search's words must match (`matching`): every one, or fewer when fewer entities than the page
/// needs match them all (Meilisearch's `matchingStrategy`, Typesense's `drop_tokens_threshold`).
public enum WordMatching: String, CaseIterable, Sendable {
    /// Every word (the default of `search`).
    case all
    /// Then without the most frequent word, then without the two most frequent, and so on (the default of
    /// `userQuery`).
    case frequency
    /// Then without the last word, then without the last two, and so on.
    case last

    /// The names, as the parameter's errors list them (`all, frequency, last`).
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// The passes of a search over fewer and fewer of its words.
///
/// Pass 0 has every word; pass `i` leaves out `i` of them: for `frequency` the `i` most frequent, for `last` the
/// `i` last ones. The frequency of a word is how many documents of the full-text index match it as the query does
/// (hidden, expired and other types included), counted up to `maxFrequency` (more tie): one bounded `count(*)` of
/// its expression, counted only when a second pass is needed. A word no document holds goes first, as every pass
/// that keeps it finds nothing but typos; ties leave out the later word first. The last pass keeps one word: a query of `n` words has at most `n` passes, and with
/// `all` or a single word there is one.
struct WordPasses {
    /// The query as typed, its last word's completions expanded, without typo variants.
    let base: SearchQuery
    let matching: WordMatching
    /// The phase of each pass made (the first of words, typos and fragments to have a candidate, as in a search of
    /// the pass's words alone).
    var phases: [SearchPhase] = []
    /// With a single pass that read every match of its words (`TopK.acceptedEveryMatch`), their number: the total.
    var everyMatch: Int?
    /// With a single pass, how many documents match its words before any condition, when it learnt that
    /// (`TopK.unconditionedMatches`): the total when every document is visible.
    var unconditionedMatches: Int?
    /// The terms in the order `frequency` leaves them out, once counted.
    private var dropOrder: [Int]?
    /// The variants of each term whose typos were looked up (by index in `base.terms`).
    private var variants: [Int: (plain: [TypoVariant], parts: [[TypoVariant]])] = [:]
    /// The rewrites of each set of kept terms looked up (`WordRewrites`), by those terms.
    private var rewritesOf: [[Int]: [WordRewrite]] = [:]

    init(_ query: SearchQuery, matching: WordMatching) {
        base = query
        self.matching = matching
    }

    /// How many passes the search may make.
    var count: Int { matching == .all ? 1 : base.terms.count }

    /// The query of every word, with the typo variants looked up so far (for highlights and the one-pass count).
    var query: SearchQuery { withVariants(Array(base.terms.indices)) }

    /// The indices of the terms pass `pass` keeps, in query order.
    mutating func kept(_ pass: Int, db: Connection) throws -> [Int] {
        let n = base.terms.count
        switch matching {
        case .all: return Array(0..<n)
        case .last: return Array(0..<(n - pass))
        case .frequency:
            guard pass > 0 else { return Array(0..<n) }
            let order = try dropOrder ?? frequencyOrder(db)
            dropOrder = order
            let dropped = Set(order.prefix(pass))
            return (0..<n).filter { !dropped.contains($0) }
        }
    }

    /// A word's frequency is counted up to this many documents, so that counting it reads at most this many rows
    /// of its list (about a millisecond); words more frequent tie.
    static let maxFrequency = 10_000

    /// The terms in the order `frequency` leaves them out: those no document holds, then the most frequent; ties,
    /// the later one first.
    private func frequencyOrder(_ db: Connection) throws -> [Int] {
        let counts = try base.terms.map { term in
            try db.scalar(
                "SELECT count(*) FROM (SELECT 1 FROM search WHERE search MATCH ? LIMIT \(Self.maxFrequency))",
                [.text(term.expression(maxTypos: 0))])?.int ?? 0
        }
        return base.terms.indices.sorted {
            (counts[$0] == 0 ? 1 : 0, counts[$0], $0) > (counts[$1] == 0 ? 1 : 0, counts[$1], $1)
        }
    }

    /// The query of the terms at `kept`, each with the variants looked up for it so far.
    func withVariants(_ kept: [Int]) -> SearchQuery {
        var query = base.keeping(kept)
        for (k, i) in kept.enumerated() {
            guard let found = variants[i] else { continue }
            query.terms[k].plainVariants = found.plain
            query.terms[k].partVariants = found.parts
        }
        return query
    }

    /// The split and joined forms of the words at `kept` (`WordRewrites`), looked up once, each ready to search
    /// (its long prefix expanded, its stems added as the query's were).
    mutating func rewrites(_ kept: [Int], store: EntityStore) throws -> [WordRewrite] {
        if let found = rewritesOf[kept] { return found }
        var finder = WordRewrites(db: store.db)
        var found = try finder.rewrites(base.keeping(kept))
        let stemmed = base.terms.contains { $0.stem != nil }
        for i in found.indices {
            try PrefixExpansion.expand(&found[i].query.terms, db: store.db)
            if stemmed { found[i].query.addStems() }
        }
        rewritesOf[kept] = found
        return found
    }

    /// Looks up the typo variants of the terms at `kept` not looked up yet (in `store`'s vocabulary: a walk, see
    /// `typoVocabulary`), and returns their query with them.
    mutating func expandTypos(_ kept: [Int], store: EntityStore) throws -> SearchQuery {
        let missing = kept.filter { variants[$0] == nil }
        if !missing.isEmpty {
            var terms = missing.map { base.terms[$0] }
            try TypoTolerance.expand(&terms, db: store.db, copy: try store.typoVocabulary())
            for (k, i) in missing.enumerated() { variants[i] = (terms[k].plainVariants, terms[k].partVariants) }
        }
        return withVariants(kept)
    }
}

extension SearchQuery {
    /// The query of the terms at `kept` (indices in query order) alone: its tokens, id key, title and name keys are
    /// theirs, so that its exact id, equal title and equal name are those of the words it keeps.
    func keeping(_ kept: [Int]) -> SearchQuery {
        guard kept.count != terms.count else { return self }
        var query = self
        query.terms = kept.map { terms[$0] }
        query.termTokens = kept.map { termTokens[$0] }
        query.termText = kept.map { termText[$0] }
        query.raw = query.termText.joined(separator: " ")
        query.tokens = query.termTokens.flatMap { $0 }
        query.tokenBytes = query.tokens.map { Array($0.utf8) }
        query.idKey = query.tokens.joined()
        query.idKeyBytes = Array(query.idKey.utf8)
        query.plainKey = query.tokens.joined(separator: " ")
        query.nameKey = DocumentRank.nameKey(query.plainKey)
        return query
    }
}

extension EntityStore {
    /// The first `limit` results of a search's passes (`WordPasses`), best first: each pass ranks as a search of its
    /// words alone, among the entities no earlier pass found, after every entity of the passes before; a pass is
    /// made only while fewer than `limit` were found.
    func rank(_ passes: inout WordPasses, limit: Int, conditions: SQLFragment) throws -> [Ranker.Ranked] {
        var results: [Ranker.Ranked] = []
        var found = Set<Int64>()
        for pass in 0..<passes.count where results.count < limit {
            let kept = try passes.kept(pass, db: db)
            let (topK, phase, rewritten) = try rankPass(
                &passes, kept, limit: limit - results.count, excluding: found, conditions: conditions)
            passes.phases.append(phase)
            if passes.count == 1, phase == .words {
                if topK.acceptedEveryMatch { passes.everyMatch = topK.accepted.count }
                passes.unconditionedMatches = topK.unconditionedMatches
            }
            for var ranked in Ranker.top(phase == .rewrites ? rewritten : topK.accepted, limit: limit) {
                if passes.matching != .all {
                    ranked.queryWords = passes.base.terms.count
                    ranked.droppedWords = pass
                }
                results.append(ranked)
                found.insert(ranked.docid)
            }
        }
        return results
    }

    /// One pass: the words as typed (and the exact id); when they match no entity, with typos; when nothing matches
    /// either way, with a word split or two joined; then a code that holds the single word. An entity an earlier pass found counts as a match here, so
    /// that a pass falls back only when its words really match nothing.
    private func rankPass(
        _ passes: inout WordPasses, _ kept: [Int], limit: Int, excluding: Set<Int64>, conditions: SQLFragment
    ) throws -> (topK: TopK, phase: SearchPhase, rewritten: [Ranker.Ranked]) {
        var query = passes.withVariants(kept)
        // The words as typed first: variants an earlier pass looked up wait for this pass's own fallback.
        let typed = passes.base.keeping(kept)
        var topK = TopK(db: db, query: typed, limit: limit, conditions: conditions, excluding: excluding)
        func nothing(_ phase: SearchPhase) throws -> Bool {
            guard topK.accepted.isEmpty else { return false }
            guard !excluding.isEmpty else { return true }
            return try passCandidates(phase == .words ? typed : query, phase, conditions: conditions, limit: 1).isEmpty
        }
        try topK.run()
        guard try nothing(.words) else { return (topK, .words, []) }
        if query.terms.contains(where: { $0.typoBudget > 0 }) {
            query = try passes.expandTypos(kept, store: self)
            if query.terms.contains(where: { !$0.variants.isEmpty }) {
                topK.query = query
                try topK.runTypos()
                guard try nothing(.typos) else { return (topK, .typos, []) }
            }
        }
        // A word split or two joined, as typed otherwise (`WordRewrites`), when no typo matches either: what the
        // words as typed or with typos found before is answered as it was.
        let rewrites = try passes.rewrites(kept, store: self)
        if !rewrites.isEmpty {
            let rewritten = try rankRewrites(rewrites, limit: limit, excluding: excluding, conditions: conditions)
            if !rewritten.isEmpty { return (topK, .rewrites, rewritten) }
            if !excluding.isEmpty, try !rewriteCandidates(rewrites, conditions: conditions, limit: 1).isEmpty {
                return (topK, .rewrites, [])
            }
        }
        try topK.runFragments()
        return (topK, .fragments, [])
    }

    /// The vocabulary for a typo walk: from the second walk of this store on, its copy in memory.
    func typoVocabulary() throws -> VocabularyCopy? {
        vocabularyCopy.walks += 1
        let copy = vocabularyCopy.walks > 1 ? vocabularyCopy : nil
        try copy?.refresh(self)
        return copy
    }
}
