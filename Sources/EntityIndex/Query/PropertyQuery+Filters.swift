import JSON
import SQLite

/// Filters of a property query or a search, compiled into conditions on `e.rowid`.
extension EntityStore {
    /// How a filter is checked: by collecting the matching entities (good when they are few), or by looking each
    /// entity up (good when entities come from somewhere else, such as a sort index or search candidates).
    /// `bound`: the comparison alone, on the sort walk's row `s` (for filters on the sort property).
    enum FilterStyle { case collect, lookup, bound }

    /// Compiles filters into a condition on `e.rowid`.
    ///
    /// A negated filter (`ne`, `notContains`) holds for an entity that has the property, with a value that is not
    /// null or an empty array, and no value that meets the comparison. The first half is written once for each property, however many
    /// negated filters name it: `has AND (none₁ AND none₂ …)` (`OR` between them in mode or), which is the same
    /// condition, so that 32 `ne` on one property read the entities holding it once, not 32 times.
    func compileFilters(
        _ filters: [PropertyFilter], types: [String], mode: PropertyQueryRequest.Mode,
        style: FilterStyle = .lookup
    ) throws -> SQLFragment {
        guard filters.count <= Self.maxFilters else {
            throw EntityIndexError(.invalidParams, "filters: \(filters.count) filters; the most is \(Self.maxFilters)")
        }
        for (i, filter) in filters.enumerated() {
            for value in filter.value.array ?? [filter.value]
            where (value.string?.utf8.count ?? 0) > Self.maxFilterValueBytes {
                throw EntityIndexError(
                    .invalidParams,
                    "filters[\(i)].value: a string of \(value.string!.utf8.count) bytes; the most is \(Self.maxFilterValueBytes)"
                )
            }
        }
        // In the filters' order: a filter's condition, or the place of a property's negated filters (at its first).
        enum Part {
            case filter(SQLFragment)
            case negated(property: String)
        }
        var parts: [Part] = []
        var nones: [String: [SQLFragment]] = [:]
        var infos: [String: PropertyInfo] = [:]
        for filter in filters {
            let info = try infos[filter.property] ?? propertyInfo(types: types, name: filter.property)
            infos[filter.property] = info
            let comparison = try self.comparison(filter, info: info)
            if comparison.negated {
                if nones[filter.property] == nil { parts.append(.negated(property: filter.property)) }
                nones[filter.property, default: []].append(Self.none(comparison, style: style))
            } else {
                parts.append(.filter(Self.some(comparison, style: style)))
            }
        }
        let joiner = mode == .and ? " AND " : " OR "
        var sql: [String] = []
        var arguments: [SQLValue] = []
        for part in parts {
            switch part {
            case .filter(let f):
                sql.append("(" + f.sql + ")")
                arguments += f.arguments
            case .negated(let property):
                let has = Self.holding(property, style: style), list = nones[property] ?? []
                sql.append("(" + has.sql + " AND (" + list.map(\.sql).joined(separator: joiner) + "))")
                arguments += has.arguments + list.flatMap(\.arguments)
            }
        }
        return SQLFragment(sql: sql.isEmpty ? "" : "(" + sql.joined(separator: joiner) + ")", arguments: arguments)
    }

    /// One filter as a condition: `some` of its comparison, or for a negated filter `holding AND none`; for
    /// `bound`, the comparison alone on the row `s`.
    func compile(_ filter: PropertyFilter, info: PropertyInfo, style: FilterStyle) throws -> SQLFragment {
        let c = try comparison(filter, info: info)
        if style == .bound {
            return SQLFragment(sql: c.condition.replacingAll("p.", "s."), arguments: Array(c.arguments.dropFirst()))
        }
        guard c.negated else { return Self.some(c, style: style) }
        let has = Self.holding(filter.property, style: style), none = Self.none(c, style: style)
        return SQLFragment(sql: has.sql + " AND " + none.sql, arguments: has.arguments + none.arguments)
    }

    // MARK: - Comparisons

    /// What a filter compares, before it is written for a style: a condition on a row `p` of the property table, its
    /// arguments (the property's name first), and whether the filter holds when no value meets it.
    struct Comparison {
        let condition: String
        var arguments: [SQLValue]
        var negated: Bool
    }

    /// The rows of one property: `p.name = ?` with the property's name as its argument.
    static let propertyRows = "SELECT p.entity FROM property p WHERE p.name = \(propertyName)"

    /// The entities with a value that meets the comparison.
    static func some(_ c: Comparison, style: FilterStyle) -> SQLFragment { values(c, style: style, not: "") }

    /// The entities with no value that meets the comparison.
    static func none(_ c: Comparison, style: FilterStyle) -> SQLFragment { values(c, style: style, not: "NOT ") }

    /// `some` or `none` (`not` is "NOT "): the rows of the property meeting the comparison, read as a set to
    /// collect or looked up per entity.
    private static func values(_ c: Comparison, style: FilterStyle, not: String) -> SQLFragment {
        switch style {
        case .collect: SQLFragment(sql: "e.rowid \(not)IN (\(propertyRows) AND \(c.condition))", arguments: c.arguments)
        case .lookup, .bound:
            SQLFragment(
                sql: "\(not)EXISTS (\(propertyRows) AND p.entity = e.rowid AND \(lookupCondition(c.condition)))",
                arguments: c.arguments)
        }
    }

    /// The entities that have a value of `property` that is not null, or an empty array (`[]`, whose elements all
    /// fail any comparison, as there are none).
    ///
    /// A value that is not null has a number or a text (a boolean has both), so that the entities holding one are
    /// read from the two value indexes, and those holding `[]` from the index of empty arrays (schema/020): the
    /// property's rows alone, rather than a pass over every property row.
    static func holding(_ property: String, style: FilterStyle) -> SQLFragment {
        switch style {
        case .collect:
            SQLFragment(
                sql:
                    "e.rowid IN (\(propertyRows) AND p.num IS NOT NULL UNION ALL \(propertyRows) AND p.text IS NOT NULL UNION ALL \(propertyRows) AND p.kind = \(PropertyKind.sql("empty")))",
                arguments: [.text(property), .text(property), .text(property)])
        case .lookup, .bound:
            SQLFragment(
                sql: "EXISTS (\(propertyRows) AND p.entity = e.rowid AND p.kind != \(PropertyKind.sql("null")))",
                arguments: [.text(property)])
        }
    }

    /// A comparison for a lookup by entity: unary `+` keeps SQLite from scanning a value index per entity, so that
    /// the lookup uses the primary key.
    static func lookupCondition(_ condition: String) -> String {
        condition.replacingAll("p.num", "+p.num").replacingAll("p.text", "+p.text")
    }

    /// The comparison of one filter, checked against what the property holds.
    func comparison(_ filter: PropertyFilter, info: PropertyInfo) throws -> Comparison {
        let name = filter.property
        func invalid(_ text: String) -> EntityIndexError {
            EntityIndexError(.invalidParams, "filter on \(Quoting.quoted(name)) (\(filter.op.rawValue)): \(text)")
        }
        /// A comparison on one value row, as (SQL, arguments).
        func operand(_ value: JSONValue) throws -> (column: String, value: SQLValue) {
            switch value {
            case .number(let n):
                guard info.isNumeric || info.kinds.contains("number") else {
                    throw invalid("the property holds text; compare it with a string")
                }
                return ("num", .real(n.double))
            case .bool(let b):
                guard info.kinds.contains("boolean") || info.declaration?.kind == .boolean else {
                    throw invalid("the property is not a boolean")
                }
                return ("num", .real(b ? 1 : 0))
            case .string(let s):
                if info.kinds.contains("date") || info.declaration?.kind == .date {
                    if let ms = Timestamp.parse(s) { return ("num", .real(Double(ms))) }
                    if info.declaration?.kind == .date || !info.kinds.contains("string") {
                        throw invalid("\(Quoting.quoted(s)) is not an ISO-8601 date-time with a zone")
                    }
                }
                if info.isNumeric, info.declaration?.kind != .date {
                    throw invalid("the property holds numbers; compare it with a number")
                }
                return ("text", .text(Self.comparisonText(s)))
            default:
                throw invalid("the value must be a string, number or boolean, got \(value.typeName)")
            }
        }
        /// A day written without a time (`2026-11-15`) on a property of dates stands for that whole day in UTC:
        /// its first and its next day's first millisecond.
        func day(_ value: JSONValue) -> (start: Double, end: Double)? {
            guard info.declaration?.kind == .date || (info.kinds.contains("date") && !info.kinds.contains("string")),
                case .string(let s) = value, let start = Timestamp.parseDay(s)
            else { return nil }
            return (Double(start), Double(start + Timestamp.day))
        }
        var args: [SQLValue] = [.text(name)]
        let condition: String
        var negate = false
        switch filter.op {
        case .eq, .ne, .lt, .le, .gt, .ge:
            if let (start, end) = day(filter.value) {
                switch filter.op {
                case .eq, .ne:
                    condition = "p.num >= ? AND p.num < ?"
                    args += [.real(start), .real(end)]
                case .lt, .le:
                    condition = "p.num < ?"
                    args.append(.real(filter.op == .lt ? start : end))
                default:
                    condition = "p.num >= ?"
                    args.append(.real(filter.op == .ge ? start : end))
                }
            } else {
                let (column, value) = try operand(filter.value)
                let symbol = ["eq": "=", "ne": "=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="][filter.op.rawValue]!
                condition = "p.\(column) \(symbol) ?"
                args.append(value)
            }
            negate = filter.op == .ne
        case .between:
            guard case .array(let bounds) = filter.value, bounds.count == 2 else {
                throw invalid("the value must be [low, high]")
            }
            if let first = day(bounds[0]), let last = day(bounds[1]) {
                // Days: from the first day's start to the last day's end.
                condition = "p.num >= ? AND p.num < ?"
                args += [.real(first.start), .real(last.end)]
            } else {
                let low = try operand(bounds[0]), high = try operand(bounds[1])
                guard low.column == high.column else { throw invalid("the bounds must be of one kind") }
                condition = "p.\(low.column) BETWEEN ? AND ?"
                args += [low.value, high.value]
            }
        case .contains, .notContains:
            negate = filter.op == .notContains
            if info.multi {
                let (column, value) = try operand(filter.value)
                condition = "p.\(column) = ?"
                args.append(value)
            } else {
                guard case .string(let s) = filter.value, !info.isNumeric else {
                    throw invalid("contains applies to strings and arrays")
                }
                condition = "instr(p.text, ?) > 0"
                args.append(.text(Self.comparisonText(s)))
            }
        case .hasPrefix, .hasSuffix:
            guard case .string(let s) = filter.value else { throw invalid("the value must be a string") }
            guard !info.isNumeric else { throw invalid("\(filter.op.rawValue) applies to string properties only") }
            let key = Self.comparisonText(s)
            condition = filter.op == .hasPrefix ? "substr(p.text, 1, length(?)) = ?" : "substr(p.text, -length(?)) = ?"
            args += [.text(key), .text(key)]
        }
        return Comparison(condition: condition, arguments: args, negated: negate)
    }
}
