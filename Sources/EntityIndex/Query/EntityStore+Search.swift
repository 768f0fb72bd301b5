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
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil

    public init(
        query: String, types: [String] = [], limit: Int = 20, filters: [PropertyFilter] = [],
        explain: Bool = false, highlight: Bool = false
    ) {
        self.query = query
        self.types = TypeUnion.normalized(types)
        self.limit = limit
        self.filters = filters
        self.explain = explain
        self.highlight = highlight
    }

    /// A search of one type, or of every type (nil).
    public init(
        query: String, type: String?, limit: Int = 20, filters: [PropertyFilter] = [], explain: Bool = false,
        highlight: Bool = false
    ) {
        self.init(
            query: query, types: type.map { [$0] } ?? [], limit: limit, filters: filters, explain: explain,
            highlight: highlight)
    }
}

extension EntityStore {
    /// Searches titles, synonyms, keywords, subtitles, descriptions, string properties and ids.
    ///
    /// Every word must match; the last one is a prefix while typing. When nothing matches, words of five letters or
    /// more may match with typos. Hidden and expired entities are never returned. Results are the exact top `limit`
    /// of every match under the tiers of `Ranker`, found by `TopK` without reading every match.
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
        let filterSQL = try compileFilters(request.filters, types: request.types, mode: .and)
        try PrefixExpansion.expand(&query.terms, db: db)
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
        var topK = TopK(
            db: db, query: query, limit: request.limit, conditions: SQLFragment(sql: conditions, arguments: arguments))
        try topK.run()
        if topK.accepted.isEmpty, query.terms.contains(where: { $0.typoBudget > 0 }) {
            try TypoTolerance.expand(&query.terms, db: db)
            if query.terms.contains(where: { !$0.variants.isEmpty }) {
                topK.query = query
                try topK.runTypos()
            }
        }
        if topK.accepted.isEmpty { try topK.runFragments() }
        let ranked = Ranker.top(topK.accepted, limit: request.limit)
        // Records are read for the results only, not for every candidate.
        let recordStatement = try db.cached("SELECT record FROM entity WHERE rowid = ?")
        let highlighter = Highlighter(query: query)
        let budget = ResultBudget(limit: maxResultBytes)
        return try ranked.map { c in
            try recordStatement.bind([.integer(c.rowid)])
            let text =
                try recordStatement.step()
                ? try budget.recordText(recordStatement, 0) : JSONText(writerOutput: Array("{}".utf8))
            recordStatement.reset()
            var result = EntityResult(key: c.key, recordText: text)
            result.score = (c.score * 1000).rounded() / 1000
            if request.explain { result.explanation = c.explanation }
            if request.highlight { result.highlights = try highlighter.highlights(result.record, budget: budget) }
            return result
        }
    }
}
