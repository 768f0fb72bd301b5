import JSON
import SQLite

/// Filters of a property query or a search, compiled into conditions on `e.rowid`.
extension EntityStore {
    /// How a filter is checked: by collecting the matching entities (good when they are few), or by looking each
    /// entity up (good when entities come from somewhere else, such as a sort index or search candidates).
    /// `bound`: the comparison alone, on the sort walk's row `s` (for filters on the sort property).
    enum FilterStyle { case collect, lookup, bound }

    /// Compiles filters into a condition on `e.rowid`.
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
        var parts: [String] = []
        var arguments: [SQLValue] = []
        for filter in filters {
            let f = try compile(filter, info: try propertyInfo(types: types, name: filter.property), style: style)
            parts.append("(" + f.sql + ")")
            arguments += f.arguments
        }
        return SQLFragment(
            sql: parts.isEmpty ? "" : "(" + parts.joined(separator: mode == .and ? " AND " : " OR ") + ")",
            arguments: arguments)
    }

    func compile(_ filter: PropertyFilter, info: PropertyInfo, style: FilterStyle) throws -> SQLFragment {
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
        let base = "SELECT p.entity FROM property p WHERE p.name = \(Self.propertyName)"
        var args: [SQLValue] = [.text(name)]
        var condition: String
        var negate = false
        switch filter.op {
        case .eq, .ne, .lt, .le, .gt, .ge:
            let (column, value) = try operand(filter.value)
            let symbol = ["eq": "=", "ne": "=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="][filter.op.rawValue]!
            condition = "p.\(column) \(symbol) ?"
            args.append(value)
            negate = filter.op == .ne
        case .between:
            guard case .array(let bounds) = filter.value, bounds.count == 2 else {
                throw invalid("the value must be [low, high]")
            }
            let low = try operand(bounds[0]), high = try operand(bounds[1])
            condition = "p.\(low.column) BETWEEN ? AND ?"
            args += [low.value, high.value]
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
        if style == .lookup {
            // Unary + keeps SQLite from scanning a value index per entity: the lookup must use the primary key.
            condition = condition.replacingAll("p.num", "+p.num").replacingAll("p.text", "+p.text")
        }
        switch (style, negate) {
        case (.collect, false):
            return SQLFragment(sql: "e.rowid IN (\(base) AND \(condition))", arguments: args)
        case (.collect, true):
            return SQLFragment(
                sql:
                    "e.rowid IN (\(base) AND p.kind != \(PropertyKind.sql("null"))) AND e.rowid NOT IN (\(base) AND \(condition))",
                arguments: [.text(name)] + args)
        case (.lookup, false):
            return SQLFragment(sql: "EXISTS (\(base) AND p.entity = e.rowid AND \(condition))", arguments: args)
        case (.bound, _):
            return SQLFragment(sql: condition.replacingAll("p.", "s."), arguments: Array(args.dropFirst()))
        case (.lookup, true):
            return SQLFragment(
                sql:
                    "EXISTS (\(base) AND p.entity = e.rowid AND p.kind != \(PropertyKind.sql("null"))) AND NOT EXISTS (\(base) AND p.entity = e.rowid AND \(condition))",
                arguments: [.text(name)] + args)
        }
    }
}
