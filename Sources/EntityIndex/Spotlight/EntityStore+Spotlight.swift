import JSON
import SQLite

/// A Core Spotlight query (`CSSearchQuery(queryString:queryContext:)`).
public struct SpotlightRequest: Sendable {
    public var query: String
    /// Only entities of these types (their union); empty: every type.
    public var types: [String]
    public var limit: Int
    /// `CSSearchQueryContext.fetchAttributes`: when set, each entity carries its type, id and only these.
    public var fetchAttributes: [String]?
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil

    public static let defaultLimit = 100

    public init(
        query: String, types: [String], limit: Int = SpotlightRequest.defaultLimit, fetchAttributes: [String]? = nil
    ) {
        self.query = query
        self.types = TypeUnion.normalized(types)
        self.limit = limit
        self.fetchAttributes = fetchAttributes
    }

    public init(
        query: String, type: String? = nil, limit: Int = SpotlightRequest.defaultLimit, fetchAttributes: [String]? = nil
    ) {
        self.init(query: query, types: type.map { [$0] } ?? [], limit: limit, fetchAttributes: fetchAttributes)
    }
}

extension EntityStore {
    /// Runs a Core Spotlight query string over the index: matching entities, in the order of the index that finds them
    /// (Core Spotlight promises no order either).
    ///
    /// Hidden entities are included (an app's own queries see its whole index; `hideInSpotlight` only keeps them
    /// out of the system's search UI); expired ones never are. `$time` is evaluated against the store's clock.
    public func spotlight(_ request: SpotlightRequest) throws(EntityIndexError) -> [EntityResult] {
        guard request.limit > 0 else {
            _ = try parse(request.query)
            return []
        }
        do {
            try defineSpotlightMatch()
            spotlightBudget.start(limit: maxSpotlightScanBytes)
            return try db.read {
                let query = try spotlightSQL(request)
                let results = try db.prepare(query.sql).rows(
                    query.arguments, ResultBudget(limit: maxResultBytes).entity)
                guard let fetch = request.fetchAttributes else { return results }
                return results.map { Self.project($0, fetch) }
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            if spotlightBudget.exhausted { throw spotlightBudget.error() }
            throw EntityIndexError.wrap(error, doing: "running a Core Spotlight query")
        }
    }

    private func parse(_ query: String) throws(EntityIndexError) -> SpotlightExpression {
        do {
            return try SpotlightParser.parse(query)
        } catch {
            throw EntityIndexError(.invalidQuery, error.description, position: error.position)
        }
    }

    /// How SQLite reads the tables for a Core Spotlight query: the steps of `EXPLAIN QUERY PLAN` that search an
    /// index or scan a table, each once, in order.
    public func spotlightPlan(_ request: SpotlightRequest) throws -> [String] {
        let sql = try spotlightSQL(request)
        let steps = try db.rows("EXPLAIN QUERY PLAN " + sql.sql, sql.arguments) { $0.text(3) }
        var seen: [String] = []
        for s in steps where (s.hasPrefix("SEARCH") || s.hasPrefix("SCAN")) && !seen.contains(s) { seen.append(s) }
        return seen
    }

    /// The SQL a request runs, with its bound values (for `EXPLAIN QUERY PLAN`, say). Reads the distinct types and
    /// domains when the query compares them.
    public func spotlightSQL(_ request: SpotlightRequest) throws -> (sql: String, arguments: [SQLValue]) {
        let expression = try parse(request.query)
        var translator = SpotlightTranslator(store: self, now: now)
        var sql: String, arguments: [SQLValue]
        var conditions: [SQLFragment] = []
        if let (driver, rest) = try translator.split(expression) {
            // Matches in the order of the driving index; DISTINCT: an array property can match more than once.
            sql =
                "SELECT DISTINCT e.type, e.id, e.record FROM (\(driver.sql)) d CROSS JOIN entity e ON e.rowid = d.entity WHERE e.expires_at > ?"
            arguments = driver.arguments + [.integer(now)]
            if let rest { conditions.append(rest) }
        } else {
            sql = "SELECT e.type, e.id, e.record FROM entity e WHERE e.expires_at > ?"
            arguments = [.integer(now)]
            // A top-level && without a driver is led by the entity's own indexed columns: check each term per entity.
            if case .and = expression { translator.perEntity = true }
            conditions.append(try translator.translate(expression))
        }
        if let types = TypeUnion.condition("e.type", request.types) {
            sql += " AND " + types.sql
            arguments += types.arguments
        }
        for c in conditions {
            sql += " AND " + c.sql
            arguments += c.arguments
        }
        sql += " LIMIT ?"
        arguments.append(.integer(Int64(min(request.limit, Self.maxResults))))
        return (sql, arguments)
    }

    /// Defines, on this connection, `spotlight_match(value, spec)`: whether a value matches a pattern with
    /// modifiers (`SpotlightTranslator.spec`); `spotlight_record(record, key, spec)`: whether a value of the
    /// attribute `key` of a stored record (`entity.record`) does; and `spotlight_scanned(text)`, always true, which
    /// counts text a scan reads. Each charges the query's `SpotlightBudget`. Compiled patterns are kept for the
    /// connection's life (a few at a time). What a lookup of the entity's `spotlight_key` rows would tell (there is
    /// no index by entity) is asked of the record instead, charging nothing, as that lookup did not:
    /// `spotlight_has(source, key, low, high)` (the title for `title`, else the stored record) whether a value of
    /// the attribute has a head from `low` to `high`; `spotlight_names(record)` whether it has synonyms or keywords;
    /// `spotlight_record_held(record, key, spec)` is `spotlight_record` for a record that has a value of the
    /// attribute, false without charging for one that has none.
    func defineSpotlightMatch() throws {
        final class Cache { var matchers: [String: SpotlightMatcher] = [:] }
        let cache = Cache(), budget = spotlightBudget, dictionaries = db.recordDictionaries
        func matcher(_ bytes: UnsafeBufferPointer<UInt8>) -> SpotlightMatcher? {
            let spec = String(decoding: bytes, as: UTF8.self)
            if let cached = cache.matchers[spec] { return cached }
            guard let made = SpotlightMatcher(spec: spec) else { return nil }
            if cache.matchers.count >= 64 { cache.matchers.removeAll() }
            cache.matchers[spec] = made
            return made
        }
        try db.definePredicate("spotlight_match", arity: 2) { arguments throws(PredicateFailure) in
            guard let matcher = matcher(arguments[1]) else { return false }
            var cost = 0
            let matched = matcher.matches(String(decoding: arguments[0], as: UTF8.self), cost: &cost)
            try budget.charge(cost)
            return matched
        }
        // Whether a value of the attribute of a stored record matches, charging the record's text; with
        // `unlessNone`, a record without a value of the attribute is not charged (as when the entity's keys told).
        func recordMatches(_ arguments: [UnsafeBufferPointer<UInt8>], unlessNone: Bool) throws(PredicateFailure)
            -> Bool
        {
            let key = String(decoding: arguments[1], as: UTF8.self)
            guard let matcher = matcher(arguments[2]),
                let (values, textBytes) = SpotlightValues.values(stored: arguments[0], keys: [key], dictionaries)
            else { return false }
            if unlessNone && values.isEmpty { return false }
            try budget.charge(textBytes)
            var cost = 0
            for value in values {
                let matched = matcher.matches(value, cost: &cost)
                try budget.charge(cost)
                cost = 0
                if matched { return true }
            }
            return false
        }
        try db.definePredicate("spotlight_record", arity: 3) { arguments throws(PredicateFailure) in
            try recordMatches(arguments, unlessNone: false)
        }
        try db.definePredicate("spotlight_record_held", arity: 3) { arguments throws(PredicateFailure) in
            try recordMatches(arguments, unlessNone: true)
        }
        try db.definePredicate("spotlight_has", arity: 4) { arguments in
            let key = String(decoding: arguments[1], as: UTF8.self)
            guard let low = Int64(String(decoding: arguments[2], as: UTF8.self)),
                let high = Int64(String(decoding: arguments[3], as: UTF8.self)),
                let values = key == "title"
                    ? [String(decoding: arguments[0], as: UTF8.self)]
                    : SpotlightValues.values(stored: arguments[0], keys: [key], dictionaries)?.values
            else { return false }
            if low == .min && high == .max { return !values.isEmpty }
            return values.contains { (low...high).contains(SpotlightKey(attr: key, value: $0).head) }
        }
        try db.definePredicate("spotlight_names", arity: 1) { arguments in
            !(SpotlightValues.values(stored: arguments[0], keys: ["synonyms", "keywords"], dictionaries)?.values.isEmpty
                ?? true)
        }
        try db.definePredicate("spotlight_scanned", arity: 1) { arguments throws(PredicateFailure) in
            try budget.charge(arguments[0].count)
            return true
        }
    }

    /// An entity with only its type, id and the fetched attributes (under the names asked for); an attribute the
    /// entity has no value for is left out.
    static func project(_ result: EntityResult, _ attributes: [String]) -> EntityResult {
        var record = JSONObject([("type", .string(result.key.type)), ("id", .string(result.key.id))])
        let full = result.record
        let properties = full["properties"]?.object
        for name in attributes where record[name] == nil {
            let value = SpotlightAttribute.recordField(name).flatMap { full[$0] } ?? properties?[name]
            if let value, value != .null { record[name] = value }
        }
        return EntityResult(key: result.key, record: record)
    }
}

extension SpotlightMatcher {
    /// A matcher from the spec `SpotlightTranslator.spec` wrote: `modifiers:pattern`, the pattern with `\` escapes.
    init?(spec: String) {
        guard let colon = spec.firstIndex(of: ":"), let raw = Int(spec[..<colon]) else { return nil }
        var parts: [SpotlightPattern.Part] = []
        var literal = String.UnicodeScalarView()
        var escaped = false
        for c in spec[spec.index(after: colon)...].unicodeScalars {
            if escaped { literal.append(c); escaped = false; continue }
            if c == "\\" { escaped = true; continue }
            if c == "*" {
                parts.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
                parts.append(.wildcard)
            } else {
                literal.append(c)
            }
        }
        parts.append(.literal(String(literal)))
        self.init(SpotlightPattern(parts), modifiers: SpotlightModifiers(rawValue: raw))
    }
}
