import JSON
import SQLite

/// The row of a candidate being read: its entity fields and normalized columns, borrowed from the statement (see
/// `EntityStore.candidateColumns` for the column order). Valid until the statement steps.
struct CandidateRow {
    let statement: Statement

    var rowid: Int64 { statement.int(0) }
    var key: EntityKey { EntityKey(type: statement.text(1), id: statement.text(2)) }
    var idKey: TermList { TermList(statement.borrowedBytes(3)) }
    var rankingHint: Double { statement.optionalDouble(4) ?? 0 }
    var priority: Int64 { statement.optionalInt(5) ?? 0 }
    var docid: Int64 { statement.int(6) }
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
/// 4. where the words matched (attribute): each word's best field, title or id 0, synonyms and keywords 1, subtitle
///    2, description 3, properties 4, summed over the words;
/// 5. exactness: for entities whose every word matched the title or id, the title equals the query, starts with
///    it (its words whole), has every word whole, starts with it while the last word is typed (`blue mu` in "Blue
///    mug"), or none of these; for the others, a synonym or keyword that equals the query (all its words, in order,
///    the whole value), then (when the last word typed is a number) the number whole, before the rest;
/// 6. the document rank (`DocumentRank`): rankingHint, priority, the day of lastUsedAt, fewer title words, newer.
/// (Every word always matches: that tier is implied by the AND query.)
///
/// Tiers 1–5 are computed from the row; tier 6 is the document id, so that FTS5's rowid order is the order inside
/// a tier and a search reads each tier's best entities first (`EntityStore+Search.swift`).
struct Ranker {
    static let columnRank = [0, 1, 2, 3, 4, 0]
    /// The columns of each attribute rank, as an FTS5 column filter.
    static let columnsOfRank = ["title ident", "names", "subtitle", "description", "props"]
    static let exactnessNames = ["equal", "starts", "words", "startsTyping", "prefix"]

    /// The query-dependent tiers of a candidate, which group candidates into buckets read one after another.
    struct Bucket: Comparable, Hashable {
        var exact: Int
        var fragment: Int
        var typos: Int
        var attribute: Int
        var exactness: Int

        static func < (a: Bucket, b: Bucket) -> Bool {
            (a.exact, a.fragment, a.typos, a.attribute, a.exactness) < (
                b.exact, b.fragment, b.typos, b.attribute, b.exactness
            )
        }
    }

    struct Ranked {
        var rowid: Int64
        var docid: Int64
        var key: EntityKey
        var bucket: Bucket
        var bestColumn: Int
        var rankingHint: Double
        var priority: Int64

        /// Ranking order: the bucket, then the document rank (a higher document id first).
        static func precedes(_ a: Ranked, _ b: Ranked) -> Bool {
            a.bucket != b.bucket ? a.bucket < b.bucket : a.docid > b.docid
        }

        /// The tiers folded into one number that decreases down the list: exact id 1000, a match of words (not
        /// only inside a code) 300, each typo fewer (of two) 100, each attribute step (of nine) 10, each exactness
        /// step 2 (of four), and the document rank mapped into [0, 2).
        var score: Double {
            let t = bucket
            return Double(1 - t.exact) * 1000 + Double(1 - t.fragment) * 300 + Double(2 - min(t.typos, 2)) * 100
                + Double(9 - min(t.attribute, 9)) * 10 + Double(4 - t.exactness) * 2
                + 2 * Double(docid >> Int64(DocumentRank.rowidBits)) / Double(1 << 35)
        }

        var explanation: JSONValue {
            .object(
                JSONObject([
                    ("exactId", .bool(bucket.exact == 0)), ("insideCode", .bool(bucket.fragment == 1)),
                    ("typos", JSONValue(bucket.typos)),
                    ("attribute", JSONValue(bucket.attribute)),
                    ("bestField", .string(SearchDocument.columnNames[bestColumn])),
                    ("exactness", .string(Ranker.exactnessNames[bucket.exactness])),
                    ("rankingHint", JSONValue(rankingHint)), ("priority", JSONValue(Int(priority))),
                    ("score", .number(JSONNumber((score * 1000).rounded() / 1000))),
                ]))
        }
    }

    var query: SearchQuery

    /// The first `limit` candidates in ranking order.
    static func top(_ ranked: [Ranked], limit: Int) -> [Ranked] {
        Array(ranked.sorted(by: Ranked.precedes).prefix(limit))
    }

    /// The features of a candidate found by the trigram index: a word of the query is inside one of its codes.
    func fragmentFeatures(_ c: CandidateRow) -> Ranked {
        var ranked = features(c)
        ranked.bucket.fragment = 1
        ranked.bucket.typos = 0  // the word matched no term, but it is not misspelt
        return ranked
    }

    /// The tiers of a candidate. (Whether a synonym or keyword equals the query is looked up by `TopK`.)
    func features(_ c: CandidateRow) -> Ranked {
        var typos = 0, attribute = 0, best = 5, lastRank = 5
        for term in query.terms {
            var termBest: (typos: Int, rank: Int)?
            for index in 0..<CandidateRow.columnCount {
                guard let t = term.match(c.column(index)) else { continue }
                let candidate = (t, Ranker.columnRank[index])
                if termBest == nil || candidate < termBest! { termBest = candidate }
            }
            typos += termBest?.typos ?? 2
            attribute += termBest?.rank ?? 5
            best = min(best, termBest?.rank ?? 5)
            lastRank = termBest?.rank ?? 5
        }
        let key = c.key
        let exact = c.idKey.bytes.elementsEqual(query.idKeyBytes) || key.id == query.raw ? 0 : 1
        var exactness = attribute == 0 ? titleExactness(c) : 4
        // Typed digits equal to a number, or to its end from a group boundary, before numbers that merely start
        // with them (`SearchQuery.ranksWholeNumbers`): the last word whole in a field of its best rank.
        if exactness == 4, attribute != 0, query.ranksWholeNumbers, let last = query.terms.last,
            (0..<CandidateRow.columnCount).contains(where: {
                Ranker.columnRank[$0] == lastRank && last.match(c.column($0), wholeWords: true) != nil
            })
        {
            exactness = 2
        }
        let titleMatched = query.terms.contains { $0.match(c.column(0)) != nil }
        let bestColumn = best == 0 ? (titleMatched ? 0 : 5) : Ranker.columnRank.firstIndex(of: best) ?? 4
        return Ranked(
            rowid: c.rowid, docid: c.docid, key: key,
            bucket: Bucket(exact: exact, fragment: 0, typos: typos, attribute: attribute, exactness: exactness),
            bestColumn: bestColumn, rankingHint: c.rankingHint, priority: c.priority)
    }

    /// For a candidate whose every word matched the title or id: 0 the title is the query; 1 it starts with the
    /// query, every word whole; 2 every word matched the title as a whole word; 3 every word matched the title and
    /// it starts with the query, the last word as typed so far; 4 otherwise.
    func titleExactness(_ c: CandidateRow) -> Int {
        let q = query.tokenBytes
        guard !q.isEmpty else { return 4 }
        let titlePlain = c.titlePlain
        let prefix = query.terms.last?.prefix ?? false
        // One walk over the title's terms: do its first terms equal the query's tokens (or, for the last one while
        // typing, start with it), and how many terms has it?
        var count = 0, head = true, typedHead = true
        titlePlain.forEachTerm { r in
            if count < q.count {
                let same = titlePlain.term(r, is: q[count], prefix: false)
                head = head && same
                typedHead =
                    typedHead
                    && (same || (prefix && count == q.count - 1 && titlePlain.term(r, is: q[count], prefix: true)))
            }
            count += 1
            return true
        }
        if count == q.count && head { return 0 }
        let title = c.column(0)
        let whole = query.terms.allSatisfy { $0.match(title, wholeWords: true) != nil }
        if whole && count >= q.count && head { return 1 }
        if whole { return 2 }
        if count >= q.count && typedHead && query.terms.allSatisfy({ $0.match(title) != nil }) { return 3 }
        return 4
    }
}
