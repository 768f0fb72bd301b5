import JSON
import SQLite

/// The row of a candidate being read: its entity fields and the title's and id's normalized text, borrowed from the
/// statement (see `TopK.read` for the column order). Valid until the statement steps.
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
    /// The title column's index terms.
    var title: TermList { TermList(statement.borrowedBytes(8)) }
    /// The ident column's index terms.
    var ident: TermList { TermList(statement.borrowedBytes(9)) }
}

/// How the query's words matched one candidate: the typos and the attribute ranks of each word's best field
/// (fewest typos, then best rank), summed over the words; the best rank of any word; whether a word matched the
/// title. Read from FTS5's phrase positions (`eidx_rank`, whose code this decodes) or from the title's text.
struct WordMatch: Equatable {
    var typos: Int
    var attribute: Int
    var best: Int
    var titleMatched: Bool

    init(typos: Int, attribute: Int, best: Int, titleMatched: Bool) {
        self.typos = typos
        self.attribute = attribute
        self.best = best
        self.titleMatched = titleMatched
    }

    init(code: Int64) {
        self.init(
            typos: Int((code >> 16) & 0xFF), attribute: Int(code & 0xFFFF), best: Int((code >> 24) & 0xF),
            titleMatched: (code >> 28) & 1 == 1)
    }

    /// No word matched.
    static func none(terms: Int) -> WordMatch {
        WordMatch(typos: 2 * terms, attribute: 5 * terms, best: 5, titleMatched: false)
    }
}

/// Orders search candidates in tiers; each tier only breaks the ties of the one before.
///
/// 0. with optional words (`WordMatching`), more of the query's words: the entities of each pass over fewer words
///    rank after those of the pass before (`WordPasses`);
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
///    inside the title tier's `words` and `prefix` steps, for a query of several plain words, the words side by side
///    in the title in their order (`symbol tilde` in "APL functional symbol tilde diaeresis") before the same words
///    apart (`adjacent`, see `adjacent(_:)`);
/// 6. the document rank (`DocumentRank`): rankingHint, priority, the day of lastUsedAt, fewer title words, newer.
/// (Every word always matches: that tier is implied by the AND query.)
///
/// Tiers 1–5 are computed from how the words matched (`WordMatch`) and the title; tier 6 is the document id, so that FTS5's rowid order is the order inside
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
        /// 1 when the query's words stand apart in the title, 0 side by side or when adjacency does not rank this
        /// bucket (`Ranker.adjacencyRanks`).
        var apart = 0

        static func < (a: Bucket, b: Bucket) -> Bool {
            (a.exact, a.fragment, a.typos, a.attribute, a.exactness, a.apart) < (
                b.exact, b.fragment, b.typos, b.attribute, b.exactness, b.apart
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
        /// With optional words (`WordMatching`), the query's words and how many the pass that found it left out
        /// (`WordPasses`); 0 and 0 when every word must match.
        var queryWords = 0
        var droppedWords = 0
        /// Whether adjacency ranks this entity's bucket (`Ranker.adjacencyRanks`): its score then keeps a step for
        /// it.
        var adjacencyRanks = false
        /// Found only with a word split or two joined (`WordRewrites`): the query its tiers are of.
        var rewrite: WordRewrite?

        /// Ranking order: more of the query's words, the bucket, then the document rank (a higher document id
        /// first).
        static func precedes(_ a: Ranked, _ b: Ranked) -> Bool {
            if a.droppedWords != b.droppedWords { return a.droppedWords < b.droppedWords }
            return a.bucket != b.bucket ? a.bucket < b.bucket : a.docid > b.docid
        }

        /// The tiers folded into one number that decreases down the list: exact id 1000, a match of words (not
        /// only inside a code) 300, each typo fewer (of two) 100, each attribute step (of nine) 10, each exactness
        /// step 2 (of four), and the document rank mapped into [0, 2); less 2000 for each word left out. Where
        /// adjacency ranks (the title's `words` and `prefix` steps of a query of several words), words side by side
        /// add 1 and the document rank maps into [0, 1).
        var score: Double {
            let t = bucket
            let rank = Double(docid >> Int64(DocumentRank.rowidBits)) / Double(1 << 35)
            let last = adjacencyRanks ? Double(1 - t.apart) + rank : 2 * rank
            return Double(1 - t.exact) * 1000 + Double(1 - t.fragment) * 300 + Double(2 - min(t.typos, 2)) * 100
                + Double(9 - min(t.attribute, 9)) * 10 + Double(4 - t.exactness) * 2 + last
                - Double(2000 * droppedWords)
        }

        var explanation: JSONValue {
            // With optional words, first the words matched of the query's (`2/3`).
            let words: [(String, JSONValue)] =
                queryWords > 0 ? [("words", .string("\(queryWords - droppedWords)/\(queryWords)"))] : []
            // Found with a word split or two joined: which, as `"split": "oatmilk → oat milk"`.
            let rewritten: [(String, JSONValue)] =
                rewrite.map { [($0.kind.rawValue, .string($0.from + " → " + $0.to))] } ?? []
            return .object(
                JSONObject(
                    words + rewritten + [
                        ("exactId", .bool(bucket.exact == 0)), ("insideCode", .bool(bucket.fragment == 1)),
                        ("typos", JSONValue(bucket.typos)),
                        ("attribute", JSONValue(bucket.attribute)),
                        ("bestField", .string(SearchDocument.columnNames[bestColumn])),
                        ("exactness", .string(Ranker.exactnessNames[bucket.exactness])),
                    ] + (adjacencyRanks ? [("adjacent", .bool(bucket.apart == 0))] : []) + [
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

    /// How the words matched the title and the id alone, from their text: the candidate's tiers when every word's
    /// best field is one of them, and never better than its tiers otherwise.
    func titleMatch(_ c: CandidateRow) -> WordMatch {
        var typos = 0, attribute = 0, best = 5, titleMatched = false
        for term in query.terms {
            let inTitle = term.match(c.title)
            if inTitle != nil { titleMatched = true }
            guard let t = [inTitle, term.match(c.ident)].compactMap({ $0 }).min() else {
                typos += 2
                attribute += 5
                continue
            }
            typos += t
            best = 0
        }
        return WordMatch(typos: typos, attribute: attribute, best: best, titleMatched: titleMatched)
    }

    /// The tiers of a candidate whose words matched as `match` says. (Whether a synonym or keyword equals the query
    /// is looked up by `TopK`.)
    func features(_ c: CandidateRow, _ match: WordMatch) -> Ranked {
        let key = c.key
        let exact = c.idKey.bytes.elementsEqual(query.idKeyBytes) || key.id == query.raw ? 0 : 1
        let exactness = match.attribute == 0 ? titleExactness(c) : 4
        let bestColumn =
            match.best == 0 ? (match.titleMatched ? 0 : 5) : Ranker.columnRank.firstIndex(of: match.best) ?? 4
        var ranked = Ranked(
            rowid: c.rowid, docid: c.docid, key: key,
            bucket: Bucket(
                exact: exact, fragment: 0, typos: match.typos, attribute: match.attribute, exactness: exactness),
            bestColumn: bestColumn, rankingHint: c.rankingHint, priority: c.priority)
        if Self.adjacencyRanks(query, attribute: match.attribute, exactness: exactness) {
            ranked.adjacencyRanks = true
            ranked.bucket.apart = adjacent(c.titlePlain) ? 0 : 1
        }
        return ranked
    }

    /// Whether adjacency splits the bucket of this attribute and exactness: the title tier's `words` and `prefix`
    /// steps (an equal or starting title has the words side by side already) of a query of several plain words (a
    /// compound, a phone number or a CJK run is a phrase of its own).
    static func adjacencyRanks(_ query: SearchQuery, attribute: Int, exactness: Int) -> Bool {
        attribute == 0 && (exactness == 2 || exactness == 4) && query.ranksAdjacency
    }

    /// Whether the query's words match consecutive tokens of the title in their order: each word one token, as it
    /// matches (whole, the last one as a prefix while typing, or a variant with typos).
    func adjacent(_ titlePlain: TermList) -> Bool {
        var tokens: [Range<Int>] = []
        titlePlain.forEachTerm {
            tokens.append($0)
            return true
        }
        let terms = query.terms, n = terms.count
        guard tokens.count >= n, let base = titlePlain.bytes.baseAddress else { return false }
        func token(_ i: Int) -> TermList {
            TermList(UnsafeBufferPointer(start: base + tokens[i].lowerBound, count: tokens[i].count))
        }
        for start in 0...(tokens.count - n)
        where terms.indices.allSatisfy({ terms[$0].match(token(start + $0)) != nil }) {
            return true
        }
        return false
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
        let title = c.title
        let whole = query.terms.allSatisfy { $0.match(title, wholeWords: true) != nil }
        if whole && count >= q.count && head { return 1 }
        if whole { return 2 }
        if count >= q.count && typedHead && query.terms.allSatisfy({ $0.match(title) != nil }) { return 3 }
        return 4
    }
}
