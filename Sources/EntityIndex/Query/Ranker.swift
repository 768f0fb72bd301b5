import JSON
import SQLite

/// The row of a candidate being read: its entity fields and normalized columns, borrowed from the statement (see
/// `EntityStore.searchCandidates` for the column order). Valid until the statement steps.
struct CandidateRow {
    let statement: Statement

    var rowid: Int64 { statement.int(0) }
    var key: EntityKey { EntityKey(type: statement.text(1), id: statement.text(2)) }
    var idKey: TermList { TermList(statement.borrowedBytes(3)) }
    var rankingHint: Double { statement.optionalDouble(4) ?? 0 }
    var priority: Int64 { statement.optionalInt(5) ?? 0 }
    var lastUsedAt: Int64 { statement.optionalInt(6) ?? 0 }
    /// The title's plain tokens.
    var titlePlain: TermList { TermList(statement.borrowedBytes(7)) }
    /// Normalized column terms, in `SearchDocument.columnNames` order.
    func column(_ index: Int) -> TermList { TermList(statement.borrowedBytes(Int32(8 + index))) }
    static let columnCount = 6
}

/// Orders search candidates in tiers; each tier only breaks the ties of the one before.
///
/// 1. exact id (the query is the entity's id, ignoring case and separators);
/// 2. every word matched as a word or a prefix, before matches found only inside a code (`9444` in `59444AT`, from
///    the trigram index `search_code`);
/// 3. fewer typos;
/// 4. where the words matched: title or id, then synonyms and keywords, then subtitle, then description, then
///    properties (summed over the words);
/// 5. exactness: the title equals the query, starts with it, contains its words whole, or only matches prefixes;
/// 6. relevance: BM25's term-frequency part with column weights 10/6/4/2/1/10 and length normalization (k1 1.2,
///    b 0.75), without IDF: every result contains every word, and FTS5's IDF would scan every match;
/// 7. rankingHint, then priority, then lastUsedAt, higher first;
/// 8. type and id, so that equal entities always come in the same order.
/// (Every word always matches: that tier is implied by the AND query.)
struct Ranker {
    static let columnRank = [0, 1, 2, 3, 4, 0]
    static let columnWeight: [Double] = [10, 6, 4, 2, 1, 10]
    /// Typical column lengths in terms, for BM25's length normalization.
    static let averageLength: [Double] = [6, 4, 5, 14, 4, 3]
    static let exactnessNames = ["equal", "starts", "words", "prefix"]

    struct Ranked {
        var rowid: Int64
        var key: EntityKey
        var tiers: (exact: Int, fragment: Int, typos: Int, attribute: Int, exactness: Int, relevance: Double, hint: Double, priority: Int64, recency: Int64)
        var bestColumn: Int

        /// The tiers folded into one number that decreases down the list: exact id 1000, a match of words (not
        /// only inside a code) 300, each typo fewer (of two) 100, each attribute step (of nine) 10, each exactness
        /// step 2, relevance mapped into [0, 2), and a hundredth of the ranking hint.
        var score: Double {
            let relevance = max(tiers.relevance, 0)
            return Double(1 - tiers.exact) * 1000 + Double(1 - tiers.fragment) * 300 + Double(2 - min(tiers.typos, 2)) * 100
                + Double(9 - min(tiers.attribute, 9)) * 10 + Double(3 - tiers.exactness) * 2
                + 2 * (1 - 1 / (1 + relevance)) + tiers.hint / 10_000
        }

        var explanation: JSONValue {
            .object(JSONObject([
                ("exactId", .bool(tiers.exact == 0)), ("insideCode", .bool(tiers.fragment == 1)),
                ("typos", JSONValue(tiers.typos)),
                ("attribute", JSONValue(tiers.attribute)),
                ("bestField", .string(SearchDocument.columnNames[bestColumn])),
                ("exactness", .string(Ranker.exactnessNames[tiers.exactness])),
                ("relevance", .number(JSONNumber((tiers.relevance * 1e4).rounded() / 1e4))),
                ("rankingHint", JSONValue(tiers.hint)), ("priority", JSONValue(Int(tiers.priority))),
                ("score", .number(JSONNumber((score * 1000).rounded() / 1000))),
            ]))
        }
    }

    var query: SearchQuery

    /// The first `limit` candidates in ranking order. (Indices are sorted, not the candidates themselves.)
    static func top(_ ranked: [Ranked], limit: Int) -> [Ranked] {
        let order = ranked.indices.sorted { i, j in
            let a = ranked[i], b = ranked[j]
            let x = a.tiers, y = b.tiers
            if x.exact != y.exact { return x.exact < y.exact }
            if x.fragment != y.fragment { return x.fragment < y.fragment }
            if x.typos != y.typos { return x.typos < y.typos }
            if x.attribute != y.attribute { return x.attribute < y.attribute }
            if x.exactness != y.exactness { return x.exactness < y.exactness }
            if x.relevance != y.relevance { return x.relevance > y.relevance }
            if x.hint != y.hint { return x.hint > y.hint }
            if x.priority != y.priority { return x.priority > y.priority }
            if x.recency != y.recency { return x.recency > y.recency }
            if a.key.type != b.key.type { return a.key.type < b.key.type }
            return a.key.id < b.key.id
        }
        return order.prefix(limit).map { ranked[$0] }
    }

    /// Whether every term of the query matches some column of the row (the AND of the FTS query).
    func matchesEveryTerm(_ c: CandidateRow) -> Bool {
        query.terms.allSatisfy { term in (0..<CandidateRow.columnCount).contains { term.match(c.column($0)) != nil } }
    }

    /// The features of a candidate found by the trigram index: a word of the query is inside one of its codes.
    func fragmentFeatures(_ c: CandidateRow) -> Ranked {
        var ranked = features(c)
        ranked.tiers.fragment = 1
        ranked.tiers.typos = 0  // the word matched no term, but it is not misspelt
        return ranked
    }

    func features(_ c: CandidateRow) -> Ranked {
        var typos = 0, attribute = 0, best = 5
        var relevance = 0.0
        var titleEmpty = true
        for term in query.terms {
            var termBest: (rank: Int, typos: Int)?
            for index in 0..<CandidateRow.columnCount {
                let terms = c.column(index)
                if index == 0 { titleEmpty = terms.bytes.isEmpty }
                guard let t = term.match(terms) else { continue }
                let tf = Double(term.frequency(terms)), length = Double(terms.termCount)
                relevance += Ranker.columnWeight[index] * tf * 2.2
                    / (tf + 1.2 * (0.25 + 0.75 * length / Ranker.averageLength[index]))
                let rank = Ranker.columnRank[index]
                if termBest == nil || (t, rank) < (termBest!.typos, termBest!.rank) { termBest = (rank, t) }
            }
            typos += termBest?.typos ?? 2
            attribute += termBest?.rank ?? 5
            best = min(best, termBest?.rank ?? 5)
        }
        let key = c.key
        let exact = c.idKey.bytes.elementsEqual(query.idKeyBytes) || key.id == query.raw ? 0 : 1
        let bestColumn = best == 0 && !titleEmpty ? 0 : Ranker.columnRank.firstIndex(of: best) ?? 4
        return Ranked(rowid: c.rowid, key: key,
                      tiers: (exact, 0, typos, attribute, exactness(c.titlePlain), relevance, c.rankingHint, c.priority, c.lastUsedAt),
                      bestColumn: bestColumn)
    }

    /// 0: the title is the query; 1: it starts with it; 2: it contains every word whole; 3: otherwise.
    func exactness(_ titlePlain: TermList) -> Int {
        let q = query.tokenBytes
        guard !q.isEmpty else { return 3 }
        let prefix = query.terms.last?.prefix ?? false
        // One walk over the title's terms: do its first terms equal the query's tokens (or, for the last one while
        // typing, start with it), and how many terms has it?
        var count = 0, equal = true, head = true
        titlePlain.forEachTerm { r in
            if count < q.count {
                let same = titlePlain.term(r, is: q[count], prefix: false)
                equal = equal && same
                head = head && (same || (prefix && count == q.count - 1 && titlePlain.term(r, is: q[count], prefix: true)))
            }
            count += 1
            return true
        }
        if count == q.count && equal { return 0 }
        if count >= q.count && head { return 1 }
        if q.allSatisfy({ titlePlain.contains($0, prefix: false) }) { return 2 }
        return 3
    }
}
