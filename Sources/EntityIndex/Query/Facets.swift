import JSON
import SQLite

/// How many matches of a request hold each value of a property, of the type or of the domain: one facet.
public struct Facet: Sendable, Equatable {
    /// One value and how many matches hold it.
    public struct Value: Sendable, Equatable {
        /// A string as a record wrote it, a number, a boolean; a date as written.
        public var value: JSONValue
        public var count: Int
        public init(value: JSONValue, count: Int) {
            self.value = value
            self.count = count
        }
    }

    /// The property name, `type` or `domain`, as asked.
    public var name: String
    /// The values held by most matches first, then by value; at most `EntityStore.maxFacetValues`.
    public var values: [Value]
    /// How many other values the matches hold, left out of `values`.
    public var otherValues: Int
    /// How many of the counted matches hold no value (no such property, `null`, an empty array, no domain).
    public var missing: Int

    public init(name: String, values: [Value], otherValues: Int = 0, missing: Int = 0) {
        self.name = name
        self.values = values
        self.otherValues = otherValues
        self.missing = missing
    }
}

/// The facets of a request: one per name asked for, counted among every match up to `EntityStore.maxFacetMatches`.
public struct FacetCounts: Sendable, Equatable {
    /// In the order asked.
    public var facets: [Facet]
    /// How many matches were counted: every match, or the first `maxFacetMatches` read.
    public var counted: Int
    /// Whether more matches exist than were counted: each count is then a lower bound.
    public var isLowerBound: Bool

    public init(facets: [Facet], counted: Int, isLowerBound: Bool = false) {
        self.facets = facets
        self.counted = counted
        self.isLowerBound = isLowerBound
    }
}

extension EntityStore {
    /// The most matches a request's facets count; beyond, their counts are lower bounds.
    public static let maxFacetMatches = 10_000
    /// The most values a facet lists (the others are counted in `otherValues`).
    public static let maxFacetValues = 20
    /// The most facets one request asks for.
    public static let maxFacets = 8

    /// The names a facet may take among the entities of `types` (every type when empty): `type`, `domain`, and the
    /// properties those entities hold or their types declare.
    func facetNames(types: [String]) throws -> [String] {
        var sql = "SELECT name FROM property_kind"
        var declared = "SELECT name FROM property_decl"
        var arguments: [SQLValue] = []
        if let condition = TypeUnion.condition("type", types) {
            sql += " WHERE " + condition.sql
            declared += " WHERE " + condition.sql
            arguments = condition.arguments + condition.arguments
        }
        return try db.rows("\(sql) UNION \(declared) ORDER BY 1", arguments) { $0.text(0) }
    }

    /// Refuses more than `maxFacets` facets, an empty name, and a name that is neither `type`, `domain` nor a
    /// property of the entities asked about (naming it, with the closest known name); repeated names count once.
    func checkFacets(_ names: [String], types: [String]) throws -> [String] {
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        guard unique.count <= Self.maxFacets else {
            throw EntityIndexError(.invalidParams, "facets: \(unique.count) facets; the most is \(Self.maxFacets)")
        }
        guard unique.contains(where: { $0 != "type" && $0 != "domain" }) else { return unique }
        let known = ["domain", "type"] + (try facetNames(types: types)).filter { $0 != "type" && $0 != "domain" }
        for name in unique where !known.contains(name) {
            let scope =
                types.isEmpty ? "entity" : "entity of type\(types.count > 1 ? "s" : "") \(TypeUnion.describe(types))"
            var message = "unknown facet \(Quoting.quoted(name)): no \(scope) has a property of that name"
            if let near = Suggestion.closest(to: name, in: known) {
                message += "; did you mean \(Quoting.quoted(near))?"
            }
            message += " (known: \(Quoting.names(known)))"
            throw EntityIndexError(.invalidParams, message)
        }
        return unique
    }

    /// The facets of a set of matches, given as entity rowids read up to `maxFacetMatches + 1` (more than the bound:
    /// the counts are lower bounds).
    ///
    /// Each facet is one grouped query over `property` (by the entity and the interned name, its primary key) or
    /// `entity`, driven by the rowids (`json_each` of one bound array); a string value is grouped by its compared
    /// text, as a filter `eq` matches it, and shown as the first entity holding it wrote it.
    func facetCounts(_ names: [String], rowids: [Int64]) throws -> FacetCounts {
        let lowerBound = rowids.count > Self.maxFacetMatches
        let counted = Array(rowids.prefix(Self.maxFacetMatches))
        let set = SQLValue.text("[" + counted.map(String.init).joined(separator: ",") + "]")
        var facets: [Facet] = []
        for name in names {
            if name == "type" || name == "domain" {
                facets.append(try entityFacet(name, set))
            } else {
                facets.append(try propertyFacet(name, set, counted: counted.count))
            }
        }
        return FacetCounts(facets: facets, counted: counted.count, isLowerBound: lowerBound)
    }

    // MARK: - Counting

    /// The counts of `type` or `domain` (entities without a domain are `missing`).
    private func entityFacet(_ name: String, _ set: SQLValue) throws -> Facet {
        let column = name == "type" ? "e.type" : "e.domain"
        var facet = Facet(name: name, values: [])
        let rows = try db.rows(
            """
            SELECT \(column), count(*) AS n FROM json_each(?) j CROSS JOIN entity e ON e.rowid = j.value
            GROUP BY \(column) ORDER BY \(column) IS NULL, n DESC, \(column)
            """, [set]
        ) { s in (s.isNull(0) ? nil : s.text(0), Int(s.int(1))) }
        for (value, count) in rows {
            guard let value else {
                facet.missing = count
                continue
            }
            if facet.values.count < Self.maxFacetValues {
                facet.values.append(Facet.Value(value: .string(value), count: count))
            } else {
                facet.otherValues += 1
            }
        }
        return facet
    }

    /// The counts of a property's values: strings by their compared text, numbers, booleans and dates by value; an
    /// array counts each of its values once per entity.
    private func propertyFacet(_ name: String, _ set: SQLValue, counted: Int) throws -> Facet {
        let property = SQLValue.text(name)
        // Kinds 0–3 are values (string, number, boolean, date); 4 (null) and 5 (an empty array) hold none.
        let rows = try db.rows(
            """
            SELECT p.kind, p.num, p.text, count(DISTINCT p.entity) AS n, min(p.entity)
            FROM json_each(?) j CROSS JOIN property p ON p.entity = j.value AND p.name = \(Self.propertyName)
            WHERE p.kind < 4 GROUP BY p.kind, p.num, p.text ORDER BY n DESC, p.num IS NULL, p.num, p.text
            """, [set, property]
        ) { s in
            (
                kind: s.int(0), num: s.isNull(1) ? nil : s.double(1), text: s.isNull(2) ? nil : s.text(2),
                count: Int(s.int(3)), first: s.int(4)
            )
        }
        var facet = Facet(name: name, values: [])
        for row in rows {
            guard facet.values.count < Self.maxFacetValues else {
                facet.otherValues += 1
                continue
            }
            let value: JSONValue
            switch row.kind {
            case 1: value = JSONValue(row.num ?? 0)
            case 2: value = .bool((row.num ?? 0) != 0)
            default: value = try writtenValue(name, of: row.first, kind: row.kind, num: row.num, text: row.text)
            }
            facet.values.append(Facet.Value(value: value, count: row.count))
        }
        let holding =
            try db.scalar(
                """
                SELECT count(DISTINCT p.entity) FROM json_each(?) j CROSS JOIN property p
                ON p.entity = j.value AND p.name = \(Self.propertyName) WHERE p.kind < 4
                """, [set, property])?.int ?? 0
        facet.missing = counted - Int(holding)
        return facet
    }

    /// A string or date value as the record of entity `rowid` wrote it: the first of its values for `name` that
    /// compares equal; the compared text (or the date's ISO form) if none does.
    private func writtenValue(_ name: String, of rowid: Int64, kind: Int64, num: Double?, text: String?) throws
        -> JSONValue
    {
        let fallback: JSONValue =
            kind == 3 ? .string(Timestamp.format(Int64(num ?? 0))) : .string(text ?? "")
        let statement = try db.cached("SELECT record FROM entity WHERE rowid = ?")
        try statement.bind([.integer(rowid)])
        defer { statement.reset() }
        guard try statement.step(), let held = statement.record(0)["properties"]?.object?[name] else {
            return fallback
        }
        for case .string(let s) in held.array ?? [held] {
            if kind == 3 {
                if let ms = Timestamp.parse(s), Double(ms) == num { return .string(s) }
            } else if Self.comparisonText(s) == text {
                return .string(s)
            }
        }
        return fallback
    }
}
