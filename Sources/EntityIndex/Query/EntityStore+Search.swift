import JSON
import SQLite

/// A search request (`entities(matching:)`).
public struct SearchRequest: Sendable {
    public var query: String
    /// Only entities of these types (their union); empty: every type.
    public var types: [String]
    public var limit: Int
    public var filters: [PropertyFilter]
    public var explain: Bool
    public var highlight: Bool
    /// Where to continue: the `nextCursor` of the previous page of the same search.
    public var cursor: String?
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    /// Whether every word must match (`all`), or fewer when fewer than the page's results match them all.
    public var matching: WordMatching
    /// The facets to count among every match: property names, `type`, `domain` (`FacetCounts`).
    public var facets: [String] = []

    public init(
        query: String, types: [String] = [], limit: Int = 20, filters: [PropertyFilter] = [],
        explain: Bool = false, highlight: Bool = false, cursor: String? = nil, matching: WordMatching = .all
    ) {
        self.query = query
        self.types = TypeUnion.normalized(types)
        self.limit = limit
        self.filters = filters
        self.explain = explain
        self.highlight = highlight
        self.cursor = cursor
        self.matching = matching
    }

    /// A search of one type, or of every type (nil).
    public init(
        query: String, type: String?, limit: Int = 20, filters: [PropertyFilter] = [], explain: Bool = false,
        highlight: Bool = false, cursor: String? = nil, matching: WordMatching = .all
    ) {
        self.init(
            query: query, types: type.map { [$0] } ?? [], limit: limit, filters: filters, explain: explain,
            highlight: highlight, cursor: cursor, matching: matching)
    }
}

extension EntityStore {
    /// Searches titles, synonyms, keywords, subtitles, descriptions, string properties and ids.
    ///
    /// Every word must match (with `matching` other than `all`, fewer words when fewer entities than the page needs
    /// match them all); the last one is a prefix while typing. When nothing matches, words of five letters or more
    /// may match with typos. Hidden and expired entities are never returned. Results are the exact top `limit`
    /// of every match under the tiers of `Ranker`, found by `TopK` without reading every match.
    public func search(_ request: SearchRequest) throws(EntityIndexError) -> [EntityResult] {
        try searchPage(request, counting: false).entities
    }

    /// A page of a search: its results from the request's `cursor` on, how many entities match (`total`, counted
    /// up to `maxExactTotal`) and the cursor of the next page.
    ///
    /// A page from offset `o` ranks the first `o + limit + 1` results (at most `maxResults + 1`) and keeps `limit`
    /// of them; the one more says whether a next page exists. When the search ranks fewer than it asked for, they
    /// are every match and `total` is their number; else the matches are counted (`countMatches`).
    public func searchPage(_ request: SearchRequest, counting: Bool = true) throws(EntityIndexError) -> SearchPage {
        let offset = try request.cursor.map { cursor throws(EntityIndexError) in
            try SearchCursor.parse(cursor, for: request).offset
        }
        guard request.limit > 0 || counting || !request.facets.isEmpty else {
            return SearchPage(entities: [], total: 0)
        }
        var query = SearchQuery(request.query)
        do {
            return try db.read {
                let facets = try checkFacets(request.facets, types: request.types)
                guard !query.isEmpty else {
                    var page = SearchPage(entities: [], total: 0)
                    if !facets.isEmpty { page.facets = try facetCounts(facets, rowids: []) }
                    return page
                }
                return try search(&query, request, facets: facets, offset: offset ?? 0, counting: counting)
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "searching")
        }
    }

    private func search(
        _ query: inout SearchQuery, _ request: SearchRequest, facets: [String], offset: Int, counting: Bool
    ) throws -> SearchPage {
        let filterSQL = try compileFilters(request.filters, types: request.types, mode: .and)
        try PrefixExpansion.expand(&query.terms, db: db)
        if try anyTypeStemmed() { query.addStems() }
        if try anyTypeTransliterated() { query.addTransliterations() }
        var conditions = "e.hidden = 0 AND e.expires_at > ?"
        var arguments: [SQLValue] = [.integer(now)]
        if let types = TypeUnion.condition("e.type", request.types) {
            conditions += " AND " + types.sql
            arguments += types.arguments
        }
        if !filterSQL.sql.isEmpty {
            conditions += " AND " + filterSQL.sql
            arguments += filterSQL.arguments
        }
        let window = min(offset + request.limit, Self.maxResults)
        // One result more than the page needs, when the caller pages or counts: whether there is a next page.
        let ranking = counting ? window + 1 : window
        let fragment = SQLFragment(sql: conditions, arguments: arguments)
        // Every word, as typed, with typos or as a code fragment; then, with optional words, fewer words while
        // fewer than `ranking` were found (`OptionalWords.swift`).
        var passes = WordPasses(query, matching: request.matching)
        let all = try rank(&passes, limit: ranking, conditions: fragment)
        query = passes.query
        var total = all.count, lowerBound = false
        if let every = passes.everyMatch {
            total = every
            lowerBound = total > Self.maxExactTotal
        } else if counting && all.count > window {
            let visible = try everyEntityVisible(types: request.types, filtered: !request.filters.isEmpty)
            // Every entity visible: what the pass counted or listed before any condition is the total.
            let known = visible ? passes.unconditionedMatches : nil
            let counted = try known ?? countMatches(&passes, conditions: fragment, everyDocumentVisible: visible)
            lowerBound = counted > Self.maxExactTotal
            total = lowerBound ? max(counted, all.count) : counted
        }
        // Every match's rowids, once, for the facets (`EntityStore+Facets.swift`).
        let facetCounts =
            try facets.isEmpty
            ? nil
            : facetCounts(
                facets, rowids: try searchMatches(&passes, ranked: all, asked: ranking, conditions: fragment))
        let ranked = all.count > offset ? Array(all[offset..<min(window, all.count)]) : []
        let next =
            all.count > window && window < Self.maxResults
            ? SearchCursor(offset: window, fingerprint: SearchCursor.fingerprint(request)).text : nil
        // Records are read for the results only, not for every candidate.
        let recordStatement = try db.cached("SELECT record FROM entity WHERE rowid = ?")
        var highlighter = Highlighter(query: query)
        // Spans found only to tell `matchedBy` are not returned: they are charged to a budget of their own.
        let markBudget = ResultBudget(limit: Int.max)
        if query.terms.contains(where: { $0.stem != nil }) {
            highlighter.stemmed = try stemmedTypes()
        }
        if query.terms.contains(where: { $0.latin != nil || $0.isCJK }) {
            highlighter.transliterated = try transliteratedTypes()
        }
        let budget = ResultBudget(limit: maxResultBytes)
        // A stem, a transliteration, or a number's other written forms (`matchedBy`'s `stem`, `transliteration` and
        // `phone`).
        let mayMatchOtherwise =
            !highlighter.stemmed.isEmpty || !highlighter.transliterated.isEmpty || query.raw.hasASCIIDigit
        let entities = try ranked.map { c in
            try recordStatement.bind([.integer(c.rowid)])
            let text =
                try recordStatement.step()
                ? try budget.recordText(recordStatement, 0) : JSONText(writerOutput: Array("{}".utf8))
            recordStatement.reset()
            var result = EntityResult(key: c.key, recordText: text)
            result.score = (c.score * 1000).rounded() / 1000
            if request.explain { result.explanation = c.explanation }
            // The record is parsed and scanned only for highlights, or when a word may have matched otherwise than
            // as typed: every word in the title or the id with no typo, stem, transliteration or digits matched as typed.
            if let rewrite = c.rewrite {
                // Found with a word split or two joined: marked as the words it was found by.
                var marker = highlighter
                marker.query = rewrite.query
                let marks = try marker.marks(result.record, budget: request.highlight ? budget : markBudget)
                if request.highlight { result.highlights = marks.highlights }
                result.matchedBy = (marks.matchedBy + [rewrite.kind.rawValue]).sorted()
            } else if request.highlight || mayMatchOtherwise {
                let marks = try highlighter.marks(result.record, budget: request.highlight ? budget : markBudget)
                if request.highlight { result.highlights = marks.highlights }
                if !marks.matchedBy.isEmpty { result.matchedBy = marks.matchedBy }
            } else if c.bucket.typos > 0 || c.bucket.attribute > 0 {
                // Only how it matched, from what ranking knows and the short fields a synonym is told from: the
                // title and the synonyms, not the long text (parsing and scanning every result's description cost
                // the real query mix 2.5 times its p50).
                var matchedBy = Set<String>()
                if c.bucket.typos > 0 { matchedBy.insert("typo") }
                if c.bucket.attribute > 0,
                    let names = text.selectingMembers({ ["type", "title", "synonyms"].contains($0) ? .keep : .drop })
                        .flatMap({ JSONValue.encoded($0).object })
                {
                    let marks = try highlighter.marks(names, budget: markBudget)
                    if marks.matchedBy.contains("synonym") { matchedBy.insert("synonym") }
                }
                if !matchedBy.isEmpty { result.matchedBy = matchedBy.sorted() }
            }
            return result
        }
        var page = SearchPage(entities: entities, total: total, totalIsLowerBound: lowerBound, nextCursor: next)
        page.facets = facetCounts
        return page
    }
}
