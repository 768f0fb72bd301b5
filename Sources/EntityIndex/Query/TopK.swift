import JSON
import SQLite

/// Finds the exact top k of a search, over every match, without reading every match.
///
/// Candidates fall into buckets (`Ranker.Bucket`: exact id, code fragment, typos, attribute, exactness), read here
/// in ranking order. Inside a bucket entities rank by document id, descending (`DocumentRank`), which is the order
/// FTS5 streams matches in. Each bucket is read from a query that returns a superset of it in that order, so the
/// first members it yields are the bucket's best; the search stops as soon as k entities are accepted, since every
/// entity not read yet ranks after all of them (it is in a later bucket, or later in the current one).
///
/// What a search reads is thus bounded by k and the buckets before the k-th result: the rows of each bucket's
/// superset that are not its members (matches of a later bucket that the superset query also returns) and, for
/// an exact id, a title or a synonym equal to the query, every entity so named. Rows are read once per search.
struct TopK {
    let db: Connection
    var query: SearchQuery
    let limit: Int
    /// Conditions on `entity e` (visible, not expired, type, filters).
    let conditions: SQLFragment
    private(set) var accepted: [Ranker.Ranked] = []
    private var acceptedDocids = Set<Int64>()
    /// Rows read so far: their tiers, or nil when they fail the conditions.
    private var known: [Int64: Ranker.Ranked?] = [:]

    init(db: Connection, query: SearchQuery, limit: Int, conditions: SQLFragment) {
        self.db = db
        self.query = query
        self.limit = limit
        self.conditions = conditions
    }

    private var isDone: Bool { accepted.count >= limit }

    /// Reads the exact ids, then the buckets of matches without typos.
    mutating func run() throws {
        let exactIDs = try db.rows(
            """
            SELECT d.doc FROM entity e JOIN search_doc d ON d.rowid = e.rowid WHERE e.id_key = ? AND \(conditions.sql)
            """, [.text(query.idKey)] + conditions.arguments
        ) { $0.int(0) }
        let ranker = Ranker(query: query)
        for docid in exactIDs where !acceptedDocids.contains(docid) {
            if let ranked = try read(docid, ranker.features) { accept(ranked) }
        }
        if try rankedFewMatches() { return }
        try readBuckets(typos: 0)
    }

    /// At most this many matches of a query are ranked all at once.
    static let fewMatches = 256

    /// When every match without typos is among the first `fewMatches` rows of one pass, they are all read and
    /// accepted, and the ranking sorts them, which is the bucket order by construction: one pass over the words'
    /// lists instead of one per bucket, each of which reads them again (a phrase's at every bucket: 4 to 8 ms a
    /// query at 1M entities for a common part like `sku`; a two-word query's title buckets read both lists to the
    /// end when few titles hold both). Returns false, having accepted nothing, when there are more.
    private mutating func rankedFewMatches() throws -> Bool {
        // A single plain word's buckets each stop at the limit, reading little: reading up to `fewMatches` rows
        // would cost more than it saves.
        guard query.terms.count > 1 || query.terms.contains(where: { if case .plain = $0.kind { false } else { true } })
        else { return false }
        let expression = query.terms.map { $0.expression(maxTypos: 0) }.joined(separator: " AND ")
        return try rankedFew("search", expression) { _ in true }
    }

    /// Reads the matches of `expression` in the full-text `table` when they are at most `fewMatches`, and accepts
    /// those `accepting` takes.
    private mutating func rankedFew(_ table: String, _ expression: String, accepting: (Ranker.Ranked) -> Bool)
        throws -> Bool
    {
        guard !isDone else { return true }
        let docids = try db.rows(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid DESC LIMIT \(Self.fewMatches + 1)",
            [.text(expression)]
        ) { $0.int(0) }
        guard docids.count <= Self.fewMatches else { return false }
        let ranker = Ranker(query: query)
        for docid in docids where !acceptedDocids.contains(docid) {
            if let ranked = try read(docid, ranker.features), accepting(ranked) { accept(ranked) }
        }
        return true
    }

    /// Reads the buckets of matches with typos, fewest first (after `query` gained its terms' variants).
    mutating func runTypos() throws {
        known.removeAll()
        let most = query.terms.reduce(0) { $0 + ($1.variants.values.max() ?? 0) }
        for typos in 1...max(1, most) where !isDone { try readBuckets(typos: typos) }
    }

    /// Reads the entities whose ids or codes contain the query's single word (`search_code`); one bucket.
    mutating func runFragments() throws {
        guard query.terms.count == 1, query.searchesCodes else { return }
        let ranker = Ranker(query: query)
        try stream(
            "SELECT rowid FROM search_code WHERE search_code MATCH ? ORDER BY rowid DESC",
            [.text("\"" + query.idKey.replacingAll("\"", "\"\"") + "\"")], rank: ranker.fragmentFeatures)
    }

    // MARK: - Buckets

    private mutating func readBuckets(typos: Int) throws {
        let terms = query.terms
        let m = terms.count
        func match(_ columns: String?, wholeWords: Bool = false) -> String {
            let expression = terms.map { $0.expression(wholeWords: wholeWords, maxTypos: typos) }.joined(
                separator: " AND ")
            return columns.map { "{\($0)} : (\(expression))" } ?? expression
        }
        let fts = "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid DESC"
        // The title tier reads the index of titles and ids alone (`search_title`, schema 10).
        let titles = "SELECT rowid FROM search_title WHERE search_title MATCH ? ORDER BY rowid DESC"
        func bucket(_ attribute: Int, _ exactness: Int) -> Ranker.Bucket {
            Ranker.Bucket(exact: 1, fragment: 0, typos: typos, attribute: attribute, exactness: exactness)
        }
        // The title tier (every word in the title or id) at once when it has few members, else bucket by bucket.
        let inTitleTier: (Ranker.Ranked) -> Bool = {
            $0.bucket.exact == 1 && $0.bucket.fragment == 0 && $0.bucket.typos == typos && $0.bucket.attribute == 0
        }
        if try m == 1 || !rankedFew("search_title", match(nil), accepting: inTitleTier) {
            let titleKey = query.plainKey
            // Equal, starting and whole-word titles have the query's own words, so they have no typos.
            if typos == 0, !titleKey.isEmpty {
                try readBucket(
                    bucket(0, 0), "SELECT doc FROM search_doc WHERE title_plain = ? ORDER BY doc DESC",
                    [.text(titleKey)])
                try readBucket(
                    bucket(0, 1), titles, [.text(startingTitle(typing: false, match("title", wholeWords: true)))])
            }
            try readBucket(bucket(0, 2), titles, [.text(match("title", wholeWords: true))])
            if typos == 0, !titleKey.isEmpty {
                try readBucket(bucket(0, 3), titles, [.text(startingTitle(typing: true, match("title")))])
            }
            try readBucket(bucket(0, 4), titles, [.text(match(nil))])
        }
        // Then by attribute: a synonym or keyword equal to the query first, then the rest.
        let nameKey = typos == 0 ? query.nameKey : nil
        guard m == 1 else { return try readByAttribute(typos: typos, nameKey: nameKey) }
        for attribute in 1...4 where !isDone {
            if let nameKey {
                try readBucket(
                    bucket(attribute, 0), "SELECT doc FROM name_key WHERE hash = ? ORDER BY doc DESC",
                    [.integer(nameKey)])
            }
            // The word's best field: only its columns (a number typed whole first, see `ranksWholeNumbers`).
            if query.ranksWholeNumbers {
                try readBucket(
                    bucket(attribute, 2), fts, [.text(match(Ranker.columnsOfRank[attribute], wholeWords: true))])
            }
            try readBucket(bucket(attribute, 4), fts, [.text(match(Ranker.columnsOfRank[attribute]))])
        }
    }

    /// With several words, the buckets after the title's, whose column filters would each read the words' lists to
    /// the end: one pass over every match gets each one's typos and attribute from FTS5's phrase positions
    /// (`eidx_rank`, no row read), then each attribute's members are read best first, a synonym or keyword equal
    /// to the query before the rest.
    private mutating func readByAttribute(typos: Int, nameKey: Int64?) throws {
        guard !isDone else { return }
        // The phrase map of `eidx_rank`: the number of terms, then each phrase's term and typo distance, as
        // characters from "0" (every number is under 64).
        var map = [UInt8(query.terms.count)]
        for (i, term) in query.terms.enumerated() {
            for d in term.phraseDistances(maxTypos: typos) { map += [UInt8(i), UInt8(d)] }
        }
        let expression = query.terms.map { $0.expression(maxTypos: typos) }.joined(separator: " AND ")
        var byAttribute: [Int: [Int64]] = [:]
        let pass = try db.cached(
            "SELECT rowid, eidx_rank(search, ?) FROM search WHERE search MATCH ? ORDER BY rowid DESC")
        defer { pass.reset() }
        try pass.bind([.text(String(decoding: map.map { $0 + 0x30 }, as: UTF8.self)), .text(expression)])
        while try pass.step() {
            let code = pass.int(1), attribute = Int(code & 0xFFFF)
            if code >> 16 == typos, attribute > 0 { byAttribute[attribute, default: []].append(pass.int(0)) }
        }
        pass.reset()
        let equalNames =
            try nameKey.map { key in
                Set(try db.rows("SELECT doc FROM name_key WHERE hash = ?", [.integer(key)]) { $0.int(0) })
            } ?? []
        let ranker = Ranker(query: query)
        for attribute in byAttribute.keys.sorted() {
            let members = byAttribute[attribute]!
            let passes = [(0, members.filter(equalNames.contains))] + (query.ranksWholeNumbers ? [(2, members)] : [])
            for (exactness, docids) in passes + [(4, members)] {
                let bucket = Ranker.Bucket(
                    exact: 1, fragment: 0, typos: typos, attribute: attribute, exactness: exactness)
                for docid in docids where !acceptedDocids.contains(docid) {
                    if let ranked = try read(docid, ranker.features), ranked.bucket == bucket {
                        accept(ranked)
                        if isDone { return }
                    }
                }
            }
        }
    }

    /// A starting-title bucket's query: the title's first term is the query's first word, and the title holds
    /// every word (`rest`). With one word the first clause implies the second, which is left out: FTS5 would read
    /// the word's list once more for it (a one-letter word in 1M entities: 21 ms with it, 9 without).
    private func startingTitle(typing: Bool, _ rest: String) -> String {
        let start = titleStart(typing: typing)
        if start.isEmpty { return rest }
        return query.terms.count == 1 ? start : start + " AND " + rest
    }

    /// The first clause of a starting-title bucket's query: the title's first term is the query's first word (or,
    /// while `typing` a single word, starts with it), when the index can say so; else nothing (the bucket's members
    /// are then found among all the title's matches).
    ///
    /// A title's first index term is its first plain token for words of ASCII letters and digits; other scripts can
    /// differ (a CJK title's first term is a bigram).
    private func titleStart(typing: Bool) -> String {
        guard let first = query.terms.first, case .plain(let word) = first.kind, word == query.tokens.first,
            word.utf8.allSatisfy({ TextAnalyzer.isAlnum($0) })
        else { return "" }
        let star = typing && query.terms.count == 1 && first.prefix
        // A typed prefix expanded into completions would make FTS5 merge every completion's doclist for `^"word"*`.
        if star && first.completions != nil { return "" }
        return "{title} : ^\"" + word + "\"" + (star ? "*" : "")
    }

    /// Accepts the members of `bucket` that `sql` returns (document ids, best first), until the search has enough.
    private mutating func readBucket(_ bucket: Ranker.Bucket, _ sql: String, _ arguments: [SQLValue]) throws {
        let ranker = Ranker(query: query)
        try stream(sql, arguments, rank: ranker.features) { $0.bucket == bucket }
    }

    /// Steps through the document ids that `sql` returns and accepts those that `accepting` says belong to the
    /// bucket being read.
    private mutating func stream(
        _ sql: String, _ arguments: [SQLValue], rank: (CandidateRow) -> Ranker.Ranked,
        accepting: (Ranker.Ranked) -> Bool = { _ in true }
    ) throws {
        guard !isDone else { return }
        let ids = try db.cached(sql)
        defer { ids.reset() }
        try ids.bind(arguments)
        while try ids.step() {
            let docid = ids.int(0)
            if acceptedDocids.contains(docid) { continue }
            if let ranked = try read(docid, rank), accepting(ranked) {
                accept(ranked)
                if isDone { return }
            }
        }
    }

    private mutating func accept(_ ranked: Ranker.Ranked) {
        accepted.append(ranked)
        acceptedDocids.insert(ranked.docid)
    }

    /// The tiers of one document, read once per search; nil when it fails the conditions.
    private mutating func read(_ docid: Int64, _ rank: (CandidateRow) -> Ranker.Ranked) throws -> Ranker.Ranked? {
        if let cached = known[docid] { return cached }
        let row = try db.cached(
            """
            SELECT e.rowid, e.type, e.id, e.id_key, e.ranking_hint, e.priority, d.doc, d.title_plain, d.title, d.names,
            d.subtitle, d.description, d.props, d.ident FROM search_doc d JOIN entity e ON e.rowid = d.rowid
            WHERE d.doc = ? AND \(conditions.sql)
            """)
        defer { row.reset() }
        try row.bind([.integer(docid)] + conditions.arguments)
        var ranked = try row.step() ? rank(CandidateRow(statement: row)) : nil
        row.reset()
        if var r = ranked, r.bucket.attribute != 0, r.bucket.exactness >= 2, r.bucket.fragment == 0,
            try namesEqualQuery(r)
        {
            r.bucket.exactness = 0
            ranked = r
        }
        known[docid] = .some(ranked)
        return ranked
    }

    /// Whether one of the entity's synonyms or keywords equals the query: its key is in `name_key`, confirmed
    /// against the record (a hash may collide).
    private func namesEqualQuery(_ ranked: Ranker.Ranked) throws -> Bool {
        guard let key = query.nameKey,
            try db.scalar("SELECT 1 FROM name_key WHERE hash = ? AND doc = ?", [.integer(key), .integer(ranked.docid)])
                != nil,
            let record = try db.rows(
                "SELECT record FROM entity WHERE rowid = ?", [.integer(ranked.rowid)], { $0.record(0) }
            ).first
        else { return false }
        let names = (record["synonyms"]?.array ?? []) + (record["keywords"]?.array ?? [])
        return names.contains {
            $0.string.map(EntityStore.comparisonText) == query.plainKey
        }
    }
}
