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
    var query: SearchQuery {
        didSet { everyPhrase = nil }
    }
    let limit: Int
    /// Conditions on `entity e` (visible, not expired, type, filters).
    let conditions: SQLFragment
    private(set) var accepted: [Ranker.Ranked] = []
    /// The documents accepted, and those an earlier pass of the search found (`excluding`), which are not read.
    private var acceptedDocids: Set<Int64>
    /// Documents read so far that fail the conditions.
    private var failing = Set<Int64>()
    /// Documents whose every tier is known (from all their fields), with those tiers.
    private var known: [Int64: Ranker.Ranked] = [:]
    /// The query's terms with every variant joined by OR, and their phrase map (`positions`), made once per query.
    private var everyPhrase: (expression: String, map: String)?
    /// Whether `run` read every match without typos (`rankedFewMatches`): then `accepted` holds every entity the
    /// search's words match, and its count is the search's total.
    private(set) var acceptedEveryMatch = false
    /// How many documents the words (without typos) and the exact ids match before any condition, when `run`
    /// learnt it without reading every match: exact up to `fewMatches`, and `fewMatches + 1` for more. When every
    /// document is visible (no hidden or expired entity, no filter, every type), that is the search's total.
    private(set) var unconditionedMatches: Int?

    /// How a bucket's query tells how a candidate's words matched.
    enum Match {
        /// From the title's and the id's text: exact for the title tier's buckets (see `Ranker.titleMatch`).
        case title
        /// From the query's own phrase positions (`eidx_rank` in its second column): exact when its column filter
        /// holds every field the bucket's members match in best (the buckets are read in order, so that a
        /// document that matches better elsewhere was accepted, or failed the conditions, before).
        case positions
        /// From a lookup of the document's positions in `search`, every field, every variant.
        case lookup
        /// Nothing: the entities found only inside a code (`runFragments`) match no word.
        case none
    }

    init(db: Connection, query: SearchQuery, limit: Int, conditions: SQLFragment, excluding: Set<Int64> = []) {
        acceptedDocids = excluding
        self.db = db
        self.query = query
        self.limit = limit
        self.conditions = conditions
        candidateSQL = """
            SELECT e.rowid, e.type, e.id, e.id_key, e.ranking_hint, e.priority, d.doc, d.title_plain, d.title, d.ident
            FROM search_doc d JOIN entity e ON e.rowid = d.rowid WHERE d.doc = ? AND \(conditions.sql)
            """
    }

    /// The narrow row of a candidate (see `CandidateRow`), under the conditions: built once, so that the statement
    /// cache finds it by the string's address rather than by hashing it at every candidate.
    private let candidateSQL: String

    private var isDone: Bool { accepted.count >= limit }

    /// Reads the exact ids, then the buckets of matches without typos.
    mutating func run() throws {
        let exactIDs = try db.rows(
            """
            SELECT d.doc FROM entity e JOIN search_doc d ON d.rowid = e.rowid WHERE e.id_key = ? AND \(conditions.sql)
            """, [.text(query.idKey)] + conditions.arguments
        ) { $0.int(0) }
        for docid in exactIDs where !acceptedDocids.contains(docid) {
            if let ranked = try read(docid, .lookup) { accept(ranked) }
        }
        if try rankedFewMatches() { return }
        try readBuckets(typos: 0)
    }

    /// At most this many matches of a query are ranked all at once.
    static let fewMatches = 256

    /// When every match without typos is among the first `fewMatches` rows of one pass, they are ranked from that
    /// pass: one read of the words' lists instead of one per bucket, each of which reads them again (a phrase's at
    /// every bucket: 4 to 8 ms a query at 1M entities for a common part like `sku`; a two-word query's title buckets
    /// read both lists to the end when few titles hold both; a word of a few dozen matches, ten bucket queries).
    /// Every member of a group of rows (typos, then attribute, which their positions tell) ranks before every member
    /// of a later group, so the rows are read group by group, and no further once a group fills the page. Returns
    /// false, having accepted nothing, when there are more matches.
    ///
    /// A single plain word is first counted (document ids alone, at most `fewMatches + 1`): when it has more, its
    /// bucket queries each stop at the limit, and reading every match's positions would cost more than it saves
    /// (one or two letters being typed, and a bare prefix longer than the prefix indexes, go to their buckets at
    /// once).
    private mutating func rankedFewMatches() throws -> Bool {
        guard !isDone else { return true }
        let expression = query.terms.map { $0.expression(maxTypos: 0) }.joined(separator: " AND ")
        let exactIDs = acceptedDocids
        if query.terms.count == 1, case .plain(let word) = query.terms[0].kind {
            // A bare prefix longer than the prefix indexes (one that completes too many words to expand) makes FTS5
            // merge every completion's list before its first row: its buckets read it lazily instead.
            let term = query.terms[0]
            // One or two letters being typed match more than `fewMatches` in all but the smallest indexes.
            let length = word.unicodeScalars.count
            if term.prefix && (length <= 2 || term.completions == nil && length > PrefixExpansion.indexedPrefixLength) {
                return false
            }
            let matches =
                try db.scalar(
                    "SELECT count(*) FROM (SELECT 1 FROM search WHERE search MATCH ? LIMIT \(Self.fewMatches + 1))",
                    [.text(expression)])?.int ?? 0
            guard matches <= Self.fewMatches else {
                unconditionedMatches = Int(matches)
                return false
            }
        }
        guard let rows = try fewMatches("search", expression) else {
            unconditionedMatches = Self.fewMatches + 1
            return false
        }
        let groups = Dictionary(grouping: rows) { row -> Int in
            let match = WordMatch(code: row.code)
            return match.typos << 16 | match.attribute
        }
        let order = groups.keys.sorted()
        for (n, key) in order.enumerated() {
            for (docid, code) in groups[key]! where !acceptedDocids.contains(docid) {
                if let ranked = try read(docid, .positions, code: code) { accept(ranked) }
            }
            if isDone && n < order.count - 1 {
                unconditionedMatches = exactIDs.union(rows.lazy.map(\.docid)).count
                return true
            }
        }
        acceptedEveryMatch = true
        return true
    }

    /// The matches of `expression` in the full-text `table`, best document first, with their `eidx_rank` codes in
    /// `search` (0 elsewhere); nil when there are more than `fewMatches`.
    private func fewMatches(_ table: String, _ expression: String) throws -> [(docid: Int64, code: Int64)]? {
        let positions = table == "search"
        let rows = try db.rows(
            "SELECT rowid\(positions ? ", eidx_rank(search, ?)" : "") FROM \(table) WHERE \(table) MATCH ? ORDER BY rowid DESC LIMIT \(Self.fewMatches + 1)",
            (positions ? [.text(phraseMap(maxTypos: 0))] : []) + [.text(expression)]
        ) { (docid: $0.int(0), code: positions ? $0.int(1) : 0) }
        return rows.count <= Self.fewMatches ? rows : nil
    }

    /// Reads the title tier's members among the matches of `expression` in `search_title` when they are at most
    /// `fewMatches`, with the tiers of the title, and accepts those `accepting` takes.
    private mutating func rankedFewTitles(_ expression: String, accepting: (Ranker.Ranked) -> Bool) throws -> Bool {
        guard !isDone else { return true }
        guard let rows = try fewMatches("search_title", expression) else { return false }
        for (docid, _) in rows where !acceptedDocids.contains(docid) {
            if let ranked = try read(docid, .title), accepting(ranked) { accept(ranked) }
        }
        return true
    }

    /// The phrase map of `eidx_rank` for the query's terms with at most `maxTypos` typos each: the number of terms,
    /// then each phrase's term and typo distance, as characters from "0" (every number is under 64).
    private func phraseMap(maxTypos: Int, wholeWords: Bool = false) -> String {
        Self.phraseMap(query.terms, maxTypos: maxTypos, wholeWords: wholeWords)
    }

    private static func phraseMap(_ terms: [QueryTerm], maxTypos: Int, wholeWords: Bool = false) -> String {
        var map = [UInt8(terms.count)]
        for (i, term) in terms.enumerated() {
            for d in term.phraseDistances(wholeWords: wholeWords, maxTypos: maxTypos) { map += [UInt8(i), UInt8(d)] }
        }
        return String(decoding: map.map { $0 + 0x30 }, as: UTF8.self)
    }

    /// Reads the buckets of matches with typos, fewest first (after `query` gained its terms' variants).
    mutating func runTypos() throws {
        known.removeAll()
        failing.removeAll()
        let most = query.terms.reduce(0) { $0 + ($1.variants.values.max() ?? 0) }
        for typos in 1...max(1, most) where !isDone { try readBuckets(typos: typos) }
    }

    /// Reads the entities whose ids or codes contain the query's single word (`search_code`); one bucket.
    mutating func runFragments() throws {
        guard query.terms.count == 1, query.searchesCodes else { return }
        try stream(
            "SELECT rowid FROM search_code WHERE search_code MATCH ? ORDER BY rowid DESC",
            [.text("\"" + query.idKey.replacingAll("\"", "\"\"") + "\"")], .none)
    }

    // MARK: - Buckets

    private mutating func readBuckets(typos: Int) throws {
        let terms = query.terms
        let m = terms.count
        func match(_ columns: String?, wholeWords: Bool = false, titles: Bool = false) -> String {
            // The index of titles reads a prefix of 4 or 5 characters from its own prefix indexes.
            let read = titles ? terms.map(\.forTitles) : terms
            let expression = read.map { $0.expression(wholeWords: wholeWords, maxTypos: typos) }.joined(
                separator: " AND ")
            return columns.map { "{\($0)} : (\(expression))" } ?? expression
        }
        let fts = "SELECT rowid, eidx_rank(search, ?) FROM search WHERE search MATCH ? ORDER BY rowid DESC"
        // The title tier reads the index of titles and ids alone (`search_title`, schema 10).
        let titles = "SELECT rowid FROM search_title WHERE search_title MATCH ? ORDER BY rowid DESC"
        func bucket(_ attribute: Int, _ exactness: Int) -> Ranker.Bucket {
            Ranker.Bucket(exact: 1, fragment: 0, typos: typos, attribute: attribute, exactness: exactness)
        }
        // The title tier (every word in the title or id) at once when it has few members, else bucket by bucket.
        let inTitleTier: (Ranker.Ranked) -> Bool = {
            $0.bucket.exact == 1 && $0.bucket.fragment == 0 && $0.bucket.typos == typos && $0.bucket.attribute == 0
        }
        if try m == 1 || !rankedFewTitles(match(nil, titles: true), accepting: inTitleTier) {
            let titleKey = query.plainKey
            // Equal, starting and whole-word titles have the query's own words, so they have no typos.
            if typos == 0, !titleKey.isEmpty {
                try readBucket(
                    bucket(0, 0), "SELECT doc FROM search_doc WHERE title_plain = ? ORDER BY doc DESC",
                    [.text(titleKey)], .title)
                try readBucket(
                    bucket(0, 1), titles,
                    [.text(startingTitle(typing: false, match("title", wholeWords: true, titles: true)))], .title)
            }
            try readTitleBucket(bucket(0, 2), titles, [.text(match("title", wholeWords: true, titles: true))])
            if typos == 0, !titleKey.isEmpty {
                try readBucket(
                    bucket(0, 3), titles, [.text(startingTitle(typing: true, match("title", titles: true)))], .title)
            }
            try readTitleBucket(bucket(0, 4), titles, [.text(match(nil, titles: true))])
        }
        // Then by attribute: a synonym or keyword equal to the query first, then the rest.
        let nameKey = typos == 0 ? query.nameKey : nil
        guard m == 1 else { return try readByAttribute(typos: typos, nameKey: nameKey) }
        for attribute in 1...4 where !isDone {
            if let nameKey {
                try readBucket(
                    bucket(attribute, 0), "SELECT doc FROM name_key WHERE hash = ? ORDER BY doc DESC",
                    [.integer(nameKey)], .lookup)
            }
            // The word's best field: only its columns, whose positions say which of them the word matched in (a
            // number typed whole first, see `ranksWholeNumbers`).
            if query.ranksWholeNumbers {
                try readBucket(
                    bucket(attribute, 2), fts,
                    [
                        .text(phraseMap(maxTypos: typos, wholeWords: true)),
                        .text(match(Ranker.columnsOfRank[attribute], wholeWords: true)),
                    ], .positions)
            }
            try readBucket(
                bucket(attribute, 4), fts,
                [.text(phraseMap(maxTypos: typos)), .text(match(Ranker.columnsOfRank[attribute]))], .positions)
        }
    }

    /// With several words, the buckets after the title's, whose column filters would each read the words' lists to
    /// the end: one pass over every match gets each one's typos and attribute from FTS5's phrase positions
    /// (`eidx_rank`, no row read), then each attribute's members are read best first, a synonym or keyword equal
    /// to the query before the rest.
    private mutating func readByAttribute(typos: Int, nameKey: Int64?) throws {
        guard !isDone else { return }
        let expression = query.terms.map { $0.expression(maxTypos: typos) }.joined(separator: " AND ")
        var byAttribute: [Int: [(docid: Int64, code: Int64)]] = [:]
        let pass = try db.cached(
            "SELECT rowid, eidx_rank(search, ?) FROM search WHERE search MATCH ? ORDER BY rowid DESC")
        defer { pass.reset() }
        try pass.bind([.text(phraseMap(maxTypos: typos)), .text(expression)])
        while try pass.step() {
            let code = pass.int(1), match = WordMatch(code: code)
            if match.typos == typos, match.attribute > 0 {
                byAttribute[match.attribute, default: []].append((pass.int(0), code))
            }
        }
        pass.reset()
        let equalNames =
            try nameKey.map { key in
                Set(try db.rows("SELECT doc FROM name_key WHERE hash = ?", [.integer(key)]) { $0.int(0) })
            } ?? []
        for attribute in byAttribute.keys.sorted() {
            let members = byAttribute[attribute]!
            let passes =
                [(0, members.filter { equalNames.contains($0.docid) })]
                + (query.ranksWholeNumbers ? [(2, members)] : [])
            for (exactness, candidates) in passes + [(4, members)] {
                let bucket = Ranker.Bucket(
                    exact: 1, fragment: 0, typos: typos, attribute: attribute, exactness: exactness)
                for (docid, code) in candidates where !acceptedDocids.contains(docid) {
                    if let ranked = try read(docid, .positions, code: code), ranked.bucket == bucket {
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
        // A typed prefix longer than the title index's prefix indexes would make FTS5 merge every completion's
        // doclist for `^"word"*`.
        if star && first.completions != nil && word.unicodeScalars.count > PrefixExpansion.indexedTitlePrefixLength {
            return ""
        }
        return "{title} : ^\"" + word + "\"" + (star ? "*" : "")
    }

    /// Accepts the members of a title bucket that adjacency may split (`Ranker.adjacencyRanks`): those whose words
    /// stand side by side first, then those whose words stand apart, both in the order `sql` returns them. One
    /// read of the rows: the members apart are kept aside while the first are accepted, and when those do not fill
    /// the page every member has been read, so the ones kept aside are the next bucket whole, in order. The cost is
    /// that reading: the bucket's query is read to its end unless the members side by side fill the page.
    private mutating func readTitleBucket(_ bucket: Ranker.Bucket, _ sql: String, _ arguments: [SQLValue]) throws {
        guard Ranker.adjacencyRanks(query, attribute: bucket.attribute, exactness: bucket.exactness) else {
            return try readBucket(bucket, sql, arguments, .title)
        }
        var apart = bucket
        apart.apart = 1
        var keptAside: [Ranker.Ranked] = []
        try stream(sql, arguments, .title) { ranked in
            if ranked.bucket == apart { keptAside.append(ranked) }
            return ranked.bucket == bucket
        }
        for ranked in keptAside where !isDone { accept(ranked) }
    }

    /// Accepts the members of `bucket` that `sql` returns (document ids, best first, and with `.positions` each
    /// one's `eidx_rank` code), until the search has enough.
    private mutating func readBucket(
        _ bucket: Ranker.Bucket, _ sql: String, _ arguments: [SQLValue], _ match: Match
    ) throws {
        try stream(sql, arguments, match) { $0.bucket == bucket }
    }

    /// Steps through the document ids that `sql` returns and accepts those that `accepting` says belong to the
    /// bucket being read.
    private mutating func stream(
        _ sql: String, _ arguments: [SQLValue], _ match: Match,
        accepting: (Ranker.Ranked) -> Bool = { _ in true }
    ) throws {
        guard !isDone else { return }
        let ids = try db.cached(sql)
        defer { ids.reset() }
        try ids.bind(arguments)
        while try ids.step() {
            let docid = ids.int(0)
            if acceptedDocids.contains(docid) { continue }
            if let ranked = try read(docid, match, code: match == .positions ? ids.int(1) : 0), accepting(ranked) {
                accept(ranked)
                if isDone { return }
            }
        }
    }

    private mutating func accept(_ ranked: Ranker.Ranked) {
        accepted.append(ranked)
        acceptedDocids.insert(ranked.docid)
    }

    /// The tiers of one document, from how `match` says its words matched; nil when it fails the conditions. The
    /// entity's row is read once per search when its tiers are known from every field, else once per bucket
    /// query that yields it (a narrow row: the title's and id's text and the ranked fields).
    private mutating func read(_ docid: Int64, _ match: Match, code: Int64 = 0) throws -> Ranker.Ranked? {
        if failing.contains(docid) { return nil }
        if let ranked = known[docid] { return ranked }
        let row = try db.cached(candidateSQL)
        defer { row.reset() }
        try row.bind([.integer(docid)] + conditions.arguments)
        guard try row.step() else {
            failing.insert(docid)
            return nil
        }
        let c = CandidateRow(statement: row)
        let ranker = Ranker(query: query)
        var ranked: Ranker.Ranked
        switch match {
        case .title: ranked = ranker.features(c, ranker.titleMatch(c))
        case .positions: ranked = ranker.features(c, WordMatch(code: code))
        case .lookup: ranked = ranker.features(c, try positions(docid))
        case .none:
            ranked = ranker.features(c, .none(terms: query.terms.count))
            ranked.bucket.fragment = 1
            ranked.bucket.typos = 0  // the word matched no term, but it is not misspelt
        }
        // Typed digits equal to a number, or to its end from a group boundary, before numbers that merely start
        // with them (`SearchQuery.ranksWholeNumbers`): the last word whole in a field of its best rank.
        if ranked.bucket.attribute != 0, ranked.bucket.exactness == 4, ranked.bucket.fragment == 0,
            query.ranksWholeNumbers, try lastWordIsWhole(docid)
        {
            ranked.bucket.exactness = 2
        }
        if ranked.bucket.attribute != 0, ranked.bucket.exactness >= 2, ranked.bucket.fragment == 0,
            try namesEqualQuery(ranked)
        {
            ranked.bucket.exactness = 0
        }
        if match == .lookup || match == .none { known[docid] = ranked }
        return ranked
    }

    /// How the query's words match one document in every field, with every variant: its phrase positions in
    /// `search` (one document's, by rowid).
    private mutating func positions(_ docid: Int64) throws -> WordMatch {
        let every =
            everyPhrase ?? (query.terms.map { $0.expression() }.joined(separator: " OR "), phraseMap(maxTypos: .max))
        everyPhrase = every
        return try positionCode(docid, every.expression, map: every.map).map(WordMatch.init(code:))
            ?? .none(terms: query.terms.count)
    }

    /// The `eidx_rank` code of one document for `expression` (nil when it does not match).
    private func positionCode(_ docid: Int64, _ expression: String, map: String) throws -> Int64? {
        try db.rows(
            "SELECT eidx_rank(search, ?) FROM search WHERE search MATCH ? AND rowid = ?",
            [.text(map), .text(expression), .integer(docid)]
        ) { $0.int(0) }.first
    }

    /// Whether the query's last word matches one document whole in a field of the rank where it matches best (its
    /// best rank from its positions, then a whole-word lookup in that rank's columns).
    private func lastWordIsWhole(_ docid: Int64) throws -> Bool {
        guard let last = query.terms.last else { return false }
        let best = try positionCode(docid, last.expression(), map: Self.phraseMap([last], maxTypos: .max))
            .map { WordMatch(code: $0).attribute }
        guard let best, best < Ranker.columnsOfRank.count else { return false }
        let whole = "{\(Ranker.columnsOfRank[best])} : (\(last.expression(wholeWords: true)))"
        return try db.scalar(
            "SELECT 1 FROM search WHERE search MATCH ? AND rowid = ?", [.text(whole), .integer(docid)]) != nil
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
