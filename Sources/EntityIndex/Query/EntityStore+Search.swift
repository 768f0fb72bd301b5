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

/// An entity as stored: the record as ingested, plus what a method adds (a search adds `score`).
public struct EntityResult: Sendable {
    public var key: EntityKey
    public var record: JSONObject
    public var extra: JSONObject = JSONObject()

    /// The entity as the pipe returns it: the record's fields, then the added ones.
    public var json: JSONValue {
        var o = record
        for (k, v) in extra { o[k] = v }
        return .object(o)
    }
}

extension EntityStore {
    /// How many FTS candidates are ranked in full. Candidates come best-bm25 first, so the tiers reorder the head.
    static let candidateLimit = 400

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
            let filterSQL = try compileFilters(request.filters, type: request.type, mode: .and)
            var candidates = try searchCandidates(query, request: request, filter: filterSQL)
            var typoMode = false
            if candidates.isEmpty, query.terms.contains(where: { $0.typoBudget > 0 }) {
                try TypoTolerance.expand(&query.terms, db: db)
                if query.terms.contains(where: { !$0.variants.isEmpty }) {
                    candidates = try searchCandidates(query, request: request, filter: filterSQL)
                    typoMode = true
                }
            }
            let ranked = Ranker(query: query, typoMode: typoMode).rank(candidates)
            return ranked.prefix(request.limit).map { c in
                var result = EntityResult(key: c.key, record: c.record)
                result.extra["score"] = .number(JSONNumber((c.score * 1000).rounded() / 1000))
                if request.explain { result.extra["explain"] = c.explanation }
                if request.highlight { result.extra["highlights"] = Highlighter(query: query).highlights(c.record) }
                return result
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "searching")
        }
    }

    private func searchCandidates(_ query: SearchQuery, request: SearchRequest, filter: SQLFragment) throws -> [Candidate] {
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
            e.rowid, e.type, e.id, e.id_key, e.record, e.ranking_hint, e.priority, e.last_used_at, e.title,
            d.title, d.names, d.subtitle, d.description, d.props, d.ident
            """
        let ftsSQL = """
            SELECT \(columns), search.rank FROM search JOIN entity e ON e.rowid = search.rowid
            JOIN search_doc d ON d.rowid = e.rowid
            WHERE search MATCH ? AND \(conditions) ORDER BY search.rank LIMIT ?
            """
        var seen = Set<Int64>()
        var candidates: [Candidate] = []
        let read: (Statement) -> Candidate = { s in
            Candidate(rowid: s.int(0), key: EntityKey(type: s.text(1), id: s.text(2)), idKey: s.text(3),
                      recordText: s.text(4), rankingHint: s.optionalDouble(5) ?? 0, priority: s.optionalInt(6) ?? 0,
                      lastUsedAt: s.optionalInt(7) ?? 0, title: s.text(8),
                      columns: (9...14).map { s.text(Int32($0)) },
                      bm25: s.columnCount > 15 ? s.double(15) : 0)
        }
        for c in try db.rows(ftsSQL, [.text(query.expression)] + arguments + [.integer(Int64(Self.candidateLimit))], read)
        where seen.insert(c.rowid).inserted {
            candidates.append(c)
        }
        // The exact id tier must not depend on bm25 putting the entity among the candidates.
        if !query.idKey.isEmpty {
            let idSQL = """
                SELECT \(columns) FROM entity e JOIN search_doc d ON d.rowid = e.rowid
                WHERE e.id_key = ? AND \(conditions) LIMIT 16
                """
            for c in try db.rows(idSQL, [.text(query.idKey)] + arguments, read) where seen.insert(c.rowid).inserted {
                candidates.append(c)
            }
        }
        return candidates
    }
}
