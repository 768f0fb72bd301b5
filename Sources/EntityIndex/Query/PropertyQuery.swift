import JSON
import SQLite

/// One comparator of an `EntityPropertyQuery`: a property, an operator and a value.
public struct PropertyFilter: Sendable {
    public enum Op: String, Sendable, CaseIterable {
        case eq, ne, lt, le, gt, ge, between, hasPrefix, hasSuffix, contains, notContains
    }
    public var property: String
    public var op: Op
    public var value: JSONValue

    public init(property: String, op: Op, value: JSONValue) {
        self.property = property
        self.op = op
        self.value = value
    }
}

/// A sort key of a property query.
public struct PropertySort: Sendable {
    public var property: String
    public var descending: Bool
    public init(property: String, descending: Bool = false) {
        self.property = property
        self.descending = descending
    }
}

/// A property query (`entities(matching:mode:sortedBy:limit:)`).
public struct PropertyQueryRequest: Sendable {
    public enum Mode: String, Sendable { case and, or }
    /// The types queried, each once: one, or several for their union (never none).
    public var types: [String]
    public var filters: [PropertyFilter]
    public var mode: Mode
    public var sort: [PropertySort]
    public var limit: Int?
    /// Where to continue: the `nextCursor` of the previous page.
    public var cursor: String?
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    /// The facets to count among every entity the filters select (`FacetCounts`).
    public var facets: [String] = []

    public init(
        types: [String], filters: [PropertyFilter], mode: Mode = .and, sort: [PropertySort] = [], limit: Int? = nil,
        cursor: String? = nil
    ) {
        self.types = TypeUnion.normalized(types)
        self.filters = filters
        self.mode = mode
        self.sort = sort
        self.limit = limit
        self.cursor = cursor
    }

    /// A query of one type.
    public init(
        type: String, filters: [PropertyFilter], mode: Mode = .and, sort: [PropertySort] = [], limit: Int? = nil,
        cursor: String? = nil
    ) {
        self.init(types: [type], filters: filters, mode: mode, sort: sort, limit: limit, cursor: cursor)
    }

    /// The condition on `e.type`.
    var typeCondition: SQLFragment {
        TypeUnion.condition("e.type", types) ?? SQLFragment(sql: "0", arguments: [])
    }
}

/// A piece of SQL with its bound arguments.
struct SQLFragment {
    var sql: String
    var arguments: [SQLValue]
}

extension EntityStore {
    /// The most entities one request returns.
    public static let maxResults = 10_000
    /// The most filters one `query` or `search` takes (each is a lookup in the property table).
    public static let maxFilters = 32
    /// The most sort keys one `query` takes (each is a subquery per candidate row).
    public static let maxSortKeys = 8
    /// The longest string value of a filter, in bytes.
    public static let maxFilterValueBytes = 4096

    /// Runs a property query: filters combined with and/or, sorted by several keys, limited.
    ///
    /// Values compare by the property's type: numbers numerically, dates chronologically, strings after search
    /// normalization (case, width and accents ignored); an array matches `eq`/`contains` when an element does and
    /// `ne`/`notContains` when none does; an entity without the property matches no filter. An undeclared property
    /// whose values are of mixed kinds (numbers and strings) compares each filter with the values of the filter's
    /// kind only (`total gt 12` answers the numbers above 12, a string never), and sorts numbers before strings
    /// (`sortKey`).
    public func query(_ request: PropertyQueryRequest) throws(EntityIndexError) -> [EntityResult] {
        try queryPage(request).entities
    }

    /// A property query's results and, when they were cut at the per-request maximum (no `limit` given) or a
    /// `cursor` was given and more follow, the cursor of the next page.
    ///
    /// The cursor is the position of the next result in the query's order.
    public func queryPage(_ request: PropertyQueryRequest) throws(EntityIndexError) -> EntityPage {
        var offset = 0
        if let cursor = request.cursor {
            guard let n = Int(cursor), n >= 0, String(n) == cursor else {
                throw EntityIndexError(
                    .invalidParams,
                    "query: parameter \"cursor\" must be the nextCursor of a previous page, got \(Quoting.quoted(cursor))"
                )
            }
            offset = n
        }
        let limit = min(request.limit ?? Self.maxResults, Self.maxResults)
        let paged = request.limit == nil || request.cursor != nil
        var facets: FacetCounts?
        if !request.facets.isEmpty {
            do {
                facets = try db.read { try queryFacets(request) }
            } catch let error as EntityIndexError {
                throw error
            } catch {
                throw EntityIndexError.wrap(error, doing: "counting facets")
            }
        }
        let rows = try query(request, offset: offset, count: paged ? limit + 1 : limit)
        var page = EntityPage(entities: rows)
        if paged, rows.count > limit {
            page = EntityPage(entities: Array(rows.prefix(limit)), nextCursor: String(offset + limit))
        }
        page.facets = facets
        return page
    }

    /// The `count` results from position `offset` of a property query.
    private func query(_ request: PropertyQueryRequest, offset: Int, count limit: Int) throws(EntityIndexError)
        -> [EntityResult]
    {
        guard request.sort.count <= Self.maxSortKeys else {
            throw EntityIndexError(
                .invalidParams, "sort: \(request.sort.count) sort keys; the most is \(Self.maxSortKeys)")
        }
        do {
            var order: [String] = []
            var orderArguments: [SQLValue] = []
            var sortInfo: [PropertyInfo] = []
            var firstKeyArguments = 0
            for key in request.sort {
                let info = try propertyInfo(types: request.types, name: key.property)
                if let declared = info.declaration, !declared.sortable {
                    throw EntityIndexError(
                        .invalidParams,
                        "property \(Quoting.quoted(key.property)) of type \(TypeUnion.describe(info.declaringTypes)) is declared not sortable"
                    )
                }
                sortInfo.append(info)
                let terms = Self.sortKey(key, info: info)
                order.append(terms.sql)
                orderArguments += terms.arguments
                if sortInfo.count == 1 { firstKeyArguments = terms.arguments.count }
            }
            order.append("e.id")
            // A union: the same id in two types ties on everything else.
            if request.types.count > 1 { order.append("e.type") }
            let page: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]

            // Sorted and limited: walk the first sort key's index in order, checking each entity, and stop at the
            // limit. Entities without that property would sort last; when those are needed, use the general plan.
            if let first = request.sort.first, request.limit != nil {
                if let driven = try drivenQuery(request, sortInfo: sortInfo[0], limit: limit) { return driven }
                let filter = try compileFilters(
                    request.filters, types: request.types, mode: request.mode, style: .lookup)
                // A property of mixed kinds: its numbers come first (`sortKey`), walked here; the rest by the
                // general plan.
                let column = sortInfo[0].isNumeric || sortInfo[0].isMixed ? "num" : "text"
                var sql = """
                    SELECT e.type, e.id, e.record FROM property s CROSS JOIN entity e ON e.rowid = s.entity
                    WHERE s.name = \(Self.propertyName) AND s.\(column) IS NOT NULL AND s.ord = 0 AND \(request.typeCondition.sql)
                        AND e.expires_at > ?
                    """
                var arguments: [SQLValue] =
                    [.text(first.property)] + request.typeCondition.arguments + [.integer(now)]
                // AND filters on the sort property (single-valued): a comparison also bounds the walk itself, so that
                // it stops where the range ends instead of checking every other entity.
                let sortFilters =
                    request.mode == .and && !sortInfo[0].multi
                    ? request.filters.filter { $0.property == first.property } : []
                for bound in sortFilters where [.eq, .lt, .le, .gt, .ge, .between].contains(bound.op) {
                    let b = try compile(bound, info: sortInfo[0], style: .bound)
                    guard b.sql.hasPrefix("s.\(column) ") else { continue }
                    sql += " AND " + b.sql
                    arguments += b.arguments
                }
                if !filter.sql.isEmpty {
                    sql += " AND " + filter.sql
                    arguments += filter.arguments
                }
                sql +=
                    " ORDER BY s.\(column) \(first.descending ? "DESC" : "ASC"), "
                    + order.dropFirst().joined(separator: ", ")
                    + " LIMIT ? OFFSET ?"
                arguments += Array(orderArguments.dropFirst(firstKeyArguments)) + page
                let results = try db.prepare(sql).rows(arguments, ResultBudget(limit: maxResultBytes).entity)
                if results.count == limit { return results }
                // Fewer: the walk saw every entity that has the sort property. The rest would lack it, but when an
                // AND filter is on that property, an entity without it matches nothing: done. (Not when the property
                // has values of another kind too: the walk read only its numbers.)
                if !sortFilters.isEmpty, !sortInfo[0].isMixed { return results }
            }

            let filter = try compileFilters(request.filters, types: request.types, mode: request.mode, style: .collect)
            var sql =
                "SELECT e.type, e.id, e.record FROM entity e WHERE \(request.typeCondition.sql) AND e.expires_at > ?"
            var arguments: [SQLValue] = request.typeCondition.arguments + [.integer(now)]
            if !filter.sql.isEmpty {
                sql += " AND " + filter.sql
                arguments += filter.arguments
            }
            sql += " ORDER BY " + order.joined(separator: ", ") + " LIMIT ? OFFSET ?"
            arguments += orderArguments + page
            return try db.prepare(sql).rows(arguments, ResultBudget(limit: maxResultBytes).entity)
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "running a property query")
        }
    }

    /// Reads an entity from a row whose first columns are type, id and record.
    static func readEntity(_ s: Statement) -> EntityResult {
        EntityResult(key: EntityKey(type: s.text(0), id: s.text(1)), recordText: s.recordText(2))
    }

    /// What is known of a property: declared type, kinds of stored values, whether it holds arrays.
    struct PropertyInfo {
        var declaration: PropertyDeclaration?
        /// The queried types that declare the property (they agree on its declaration).
        var declaringTypes: [String] = []
        var kinds: Set<String>
        var multi: Bool
        var isNumeric: Bool {
            if let kind = declaration?.kind {
                return kind == .number || kind == .integer || kind == .date || kind == .boolean
            }
            return !kinds.isEmpty && kinds.isSubset(of: ["number", "date", "boolean", "null"]) && kinds != ["null"]
        }
        /// Whether the property is undeclared and holds both values compared as numbers (numbers, dates, booleans)
        /// and strings: each filter then compares the values of its own kind, and a sort puts the numbers first.
        var isMixed: Bool {
            declaration == nil && kinds.contains("string") && !kinds.isDisjoint(with: ["number", "date", "boolean"])
        }
    }

    /// The `ORDER BY` terms of one sort key, on the first value of the property (`ORDER BY p.ord LIMIT 1`), and their
    /// arguments.
    ///
    /// Entities without a value sort last in either direction. A property of mixed kinds sorts its numeric values
    /// (numbers, dates, booleans) first, among themselves, then its strings, among themselves, in either direction,
    /// as Meilisearch gives numbers precedence over strings (https://www.meilisearch.com/docs/learn/filtering_and_sorting/sort_search_results).
    static func sortKey(_ key: PropertySort, info: PropertyInfo) -> SQLFragment {
        func value(_ column: String) -> String {
            "(SELECT p.\(column) FROM property p WHERE p.entity = e.rowid AND p.name = \(propertyName) ORDER BY p.ord LIMIT 1)"
        }
        let direction = key.descending ? "DESC" : "ASC"
        let columns = info.isMixed ? ["num", "text"] : [info.isNumeric ? "num" : "text"]
        return SQLFragment(
            sql: columns.map { "\(value($0)) IS NULL, \(value($0)) \(direction)" }.joined(separator: ", "),
            arguments: Array(repeating: .text(key.property), count: 2 * columns.count))
    }

    /// What the entities of `types` (every type when empty) hold of property `name`; an error when none has it, or
    /// when types of a union declare it differently (its values would compare one way for one type and another way
    /// for the other).
    func propertyInfo(types: [String], name: String) throws -> PropertyInfo {
        var kinds = Set<String>(), multi = false
        var sql = "SELECT kind, multi FROM property_kind WHERE name = ?"
        var arguments: [SQLValue] = [.text(name)]
        if let condition = TypeUnion.condition("type", types) {
            sql += " AND " + condition.sql
            arguments += condition.arguments
        }
        for (kind, m) in try db.rows(sql, arguments, { ($0.text(0), $0.int(1) != 0) }) {
            kinds.insert(kind)
            multi = multi || m
        }
        var declaration: PropertyDeclaration?
        var declaringTypes: [String] = []
        for type in types {
            guard let declared = try declarations(for: type)[name] else { continue }
            if let first = declaration, first != declared {
                throw EntityIndexError(
                    .invalidParams,
                    "property \(Quoting.quoted(name)) is declared \(first.kind.rawValue)\(first.sortable ? "" : ", not sortable,") in type \(declaringTypes[0]) and \(declared.kind.rawValue)\(declared.sortable ? "" : ", not sortable,") in type \(type): query these types one at a time"
                )
            }
            declaration = declared
            declaringTypes.append(type)
        }
        if kinds.isEmpty && declaration == nil {
            var known: [String] = []
            if let condition = TypeUnion.condition("type", types) {
                known = try db.rows(
                    "SELECT DISTINCT name FROM property_kind WHERE \(condition.sql) ORDER BY name", condition.arguments
                ) { $0.text(0) }
            }
            let scope =
                types.isEmpty
                ? "any entity" : "entities of type\(types.count > 1 ? "s" : "") \(TypeUnion.describe(types))"
            var message = "unknown property \(Quoting.quoted(name)): no \(scope) has it"
            if !known.isEmpty { message += " (known: \(Quoting.names(known)))" }
            throw EntityIndexError(.invalidParams, message)
        }
        if declaration?.kind == .strings { multi = true }
        return PropertyInfo(declaration: declaration, declaringTypes: declaringTypes, kinds: kinds, multi: multi)
    }
}

extension Statement {
    /// Binds, steps through every row and maps it.
    func rows<T>(_ arguments: [SQLValue], _ map: (Statement) throws -> T) throws -> [T] {
        try bind(arguments)
        var result: [T] = []
        while try step() { result.append(try map(self)) }
        return result
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
