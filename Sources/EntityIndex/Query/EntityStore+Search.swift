import JSON
import SQLite

/// A search request (`entities(matching:)`).
public struct SearchRequest: Sendable {
    public var query: String
    public var type: String?
    public var limit: Int
    public var filters: [PropertyFilter]
    public var explain: Bool
    public var highlight: Bool

    public init(query: String, type: String? = nil, limit: Int = 20, filters: [PropertyFilter] = [],
                explain: Bool = false, highlight: Bool = false) {
        self.query = query
        self.type = type
        self.limit = limit
        self.filters = filters
        self.explain = explain
        self.highlight = highlight
    }
}

extension EntityStore {
    /// A query ranks at most this many of its matches (the most recently indexed), or its limit if larger, so that
    /// its cost stays bounded whatever the size of the index.
    public static let rankWindow = 50
    /// At most this many titles equal to or starting with the query are looked up beyond the window (equal ones first).
    static let titleLookupLimit = 20

    /// Searches titles, synonyms, keywords, subtitles, descriptions, string properties and ids.
    ///
    /// Every word must match; the last one is a prefix while typing. When nothing matches, words of five letters or
    /// more may match with typos. Hidden and expired entities are never returned. Results are ordered by the tiers
    /// of `Ranker`.
    public func search(_ request: SearchRequest) throws(EntityIndexError) -> [EntityResult] {
        guard request.limit > 0 else { return [] }
        var query = SearchQuery(request.query)
        guard !query.isEmpty else { return [] }
        do {
            return try db.read { try search(&query, request) }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "searching")
        }
    }

    private func search(_ query: inout SearchQuery, _ request: SearchRequest) throws -> [EntityResult] {
        let filterSQL = try compileFilters(request.filters, type: request.type, mode: .and)
        try PrefixExpansion.expand(&query.terms, db: db)
        var candidates = try searchCandidates(query, request: request, filter: filterSQL)
        if candidates.isEmpty, query.terms.contains(where: { $0.typoBudget > 0 }) {
            try TypoTolerance.expand(&query.terms, db: db)
            if query.terms.contains(where: { !$0.variants.isEmpty }) {
                candidates = try searchCandidates(query, request: request, filter: filterSQL)
            }
        }
        let ranked = Ranker.top(candidates, limit: request.limit)
        // Records are read for the results only, not for every candidate.
        let recordStatement = try db.cached("SELECT record FROM entity WHERE rowid = ?")
        let highlighter = Highlighter(query: query)
        let budget = ResultBudget(limit: maxResultBytes)
        return try ranked.map { c in
            try recordStatement.bind([.integer(c.rowid)])
            let record = try recordStatement.step() ? try budget.record(recordStatement.text(0)) : JSONObject()
            recordStatement.reset()
            var result = EntityResult(key: c.key, record: record)
            result.score = (c.score * 1000).rounded() / 1000
            if request.explain { result.explanation = c.explanation }
            if request.highlight { result.highlights = highlighter.highlights(record) }
            return result
        }
    }

    /// Finds the candidates of a search and computes their ranking features as their rows are read.
    private func searchCandidates(_ query: SearchQuery, request: SearchRequest, filter: SQLFragment) throws -> [Ranker.Ranked] {
        let ranker = Ranker(query: query)
        var conditions = "e.hidden = 0 AND e.expires_at > ?"
        var arguments: [SQLValue] = [.integer(now)]
        if let type = request.type {
            conditions += " AND e.type = ?"
            arguments.append(.text(type))
        }
        if !filter.sql.isEmpty {
            conditions += " AND " + filter.sql
            arguments += filter.arguments
        }
        let columns = """
            e.rowid, e.type, e.id, e.id_key, e.ranking_hint, e.priority, e.last_used_at, d.title_plain,
            d.title, d.names, d.subtitle, d.description, d.props, d.ident
            """
        // Bounded work: the newest `rankWindow` matches are read, in one pass over the index in rowid order, and
        // ranked in Swift. (FTS5's bm25 would compute its IDF by scanning every match, which grows with the index.)
        func fetch(_ expression: String, table: String = "search", fragment: Bool = false) throws -> [Ranker.Ranked] {
            let sql = """
                SELECT \(columns) FROM \(table) JOIN entity e ON e.rowid = \(table).rowid JOIN search_doc d ON d.rowid = e.rowid
                WHERE \(table) MATCH ? AND \(conditions) ORDER BY \(table).rowid DESC LIMIT \(max(Self.rankWindow, request.limit))
                """
            return try db.rows(sql, [.text(expression)] + arguments) {
                fragment ? ranker.fragmentFeatures(CandidateRow(statement: $0)) : ranker.features(CandidateRow(statement: $0))
            }
        }
        // Matches in the title, names and id outrank every other (the attribute tier), so look there first and
        // widen to every column only when they are too few (keeping them: they may be older than the wider window).
        var hits = try fetch("{title names ident} : (" + query.expression + ")")
        if hits.count < request.limit { hits += try fetch(query.expression) }
        var seen = Set<Int64>()
        var candidates: [Ranker.Ranked] = []
        for c in hits where seen.insert(c.rowid).inserted { candidates.append(c) }
        // The exact id and exactness tiers must not depend on the entity being among the newest matches: look up
        // titles that equal or start with the query (by their plain tokens), and ids equal to it. Rowids come first
        // (from the indexes, with the conditions); only rows not already read are read whole.
        func lookUp(_ sql: String, _ lookupArguments: [SQLValue], where keep: (CandidateRow) -> Bool) throws {
            let rowids = try db.rows(sql, lookupArguments + arguments) { $0.int(0) }.filter { !seen.contains($0) }
            guard !rowids.isEmpty else { return }
            let row = try db.cached("SELECT \(columns) FROM entity e JOIN search_doc d ON d.rowid = e.rowid WHERE e.rowid = ?")
            defer { row.reset() }
            for rowid in rowids {
                try row.bind([.integer(rowid)])
                guard try row.step() else { continue }
                let candidate = CandidateRow(statement: row)
                if keep(candidate), seen.insert(rowid).inserted { candidates.append(ranker.features(candidate)) }
            }
        }
        let titleKey = query.tokens.joined(separator: " ")
        if !titleKey.isEmpty {
            let high = query.terms.last?.prefix == true ? titleKey.prefixUpperBound : titleKey + " \u{10FFFF}"
            try lookUp("""
                SELECT d.rowid FROM search_doc d JOIN entity e ON e.rowid = d.rowid
                WHERE d.title_plain >= ? AND d.title_plain < ? AND \(conditions) LIMIT \(Self.titleLookupLimit)
                """, [.text(titleKey), .text(high)], where: ranker.matchesEveryTerm)
        }
        if !query.idKey.isEmpty {
            try lookUp("SELECT e.rowid FROM entity e WHERE e.id_key = ? AND \(conditions) LIMIT 16", [.text(query.idKey)]) { _ in true }
        }
        // A code typed in part (`9444` of `K83913.39F29.59444AT`): when nothing else matched (like typos, so that a
        // precise query never gains noise), the trigram index finds the ids and codes that contain it. Only for one
        // word with a digit, of 3 to `SearchQuery.maxCodeLength` characters.
        if candidates.isEmpty, query.terms.count == 1, query.searchesCodes {
            for c in try fetch("\"" + query.idKey + "\"", table: "search_code", fragment: true) where seen.insert(c.rowid).inserted {
                candidates.append(c)
            }
        }
        return candidates
    }
}
