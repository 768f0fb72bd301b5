import SQLite

extension EntityStore {
    /// Below this many entities matching an `eq` filter, a sorted and limited query reads those entities and sorts
    /// them, instead of walking the sort property's index and checking each entity it meets.
    ///
    /// The walk reads about `limit × entities ÷ matches` rows when the matches are spread over the sort order, but
    /// the whole index when they sort last (Debian's `section eq oldlibs` sorted by installed size: 127 matches,
    /// 63,555 rows walked, 75 ms). Reading the matches costs one row each, so it wins below a few thousand; counting
    /// them, up to this bound, is one range scan of the value index.
    static let drivenPlanMaximum = 20_000

    /// The sorted, limited query driven by its most selective `eq` filter, when one matches fewer than
    /// `drivenPlanMaximum` entities; nil when the query does not have that shape.
    ///
    /// Same order as the general plan: the sort property's first value, entities without it last, then the id.
    func drivenQuery(_ request: PropertyQueryRequest, sortInfo: PropertyInfo, limit: Int) throws -> [EntityResult]? {
        guard request.mode == .and, request.sort.count == 1, let key = request.sort.first, !sortInfo.multi,
            !sortInfo.isMixed
        else {
            return nil
        }
        var best: (index: Int, condition: SQLFragment, count: Int64)?
        for (i, filter) in request.filters.enumerated() where filter.op == .eq && filter.property != key.property {
            let info = try propertyInfo(types: request.types, name: filter.property)
            guard !info.multi else { continue }
            let condition = try compile(filter, info: info, style: .bound)
            let count =
                try db.scalar(
                    "SELECT count(*) FROM (SELECT 1 FROM property s WHERE s.name = \(Self.propertyName) AND \(condition.sql) LIMIT ?)",
                    [.text(filter.property)] + condition.arguments + [.integer(Int64(Self.drivenPlanMaximum))])?.int
                ?? 0
            if count < Self.drivenPlanMaximum, count < best?.count ?? .max { best = (i, condition, count) }
        }
        guard let best else { return nil }
        var others = request.filters
        others.remove(at: best.index)
        let rest = try compileFilters(others, types: request.types, mode: .and, style: .lookup)
        let column = sortInfo.isNumeric ? "num" : "text"
        if best.count >= 200,
            let walked = try boundedWalk(request, column: column, budget: Int(best.count) / 4, limit: limit)
        {
            return walked
        }
        // The matches and their sort values, from the property table alone, in sort order.
        var sql = """
            SELECT s.entity, v.\(column) FROM property s LEFT JOIN property v ON v.entity = s.entity AND v.name = \(Self.propertyName) AND v.ord = 0
            WHERE s.name = \(Self.propertyName) AND \(best.condition.sql)
            """
        var arguments: [SQLValue] =
            [.text(key.property), .text(request.filters[best.index].property)] + best.condition.arguments
        if !rest.sql.isEmpty {
            sql += " AND " + rest.sql.replacingAll("e.rowid", "s.entity")
            arguments += rest.arguments
        }
        sql += " ORDER BY v.\(column) IS NULL, v.\(column) \(key.descending ? "DESC" : "ASC")"
        let matches = try db.prepare(sql).rows(arguments) { ($0.int(0), $0.value(1)) }
        // Then the entities, in that order, until the limit: those of another type or expired are skipped, and
        // entities with the same sort value come in id order.
        let types = request.typeCondition
        let entity = try db.cached(
            "SELECT e.type, e.id, e.record FROM entity e WHERE e.rowid = ? AND \(types.sql) AND e.expires_at > ?")
        var results: [EntityResult] = []
        var start = 0
        while start < matches.count, results.count < limit {
            var end = start + 1
            while end < matches.count, Self.sameSortValue(matches[end].1, matches[start].1) { end += 1 }
            var group: [EntityResult] = []
            for (rowid, _) in matches[start..<end] {
                try entity.bind([.integer(rowid)] + types.arguments + [.integer(now)])
                if try entity.step() { group.append(Self.readEntity(entity)) }
                entity.reset()
            }
            if group.count > 1 { group.sort(by: Self.tieOrder) }
            results += group.prefix(limit - results.count)
            start = end
        }
        return results
    }

    /// The first `budget` rows of the sort property's index, checked against every filter: the exact answer when
    /// the last result sorts strictly before the last row read (nothing unread can precede or tie it), else nil.
    ///
    /// With the matches spread over the sort order this reads about `limit × entities ÷ matches` rows; with them at
    /// the end it gives up after `budget` rows, a quarter of what reading the matches costs.
    func boundedWalk(_ request: PropertyQueryRequest, column: String, budget: Int, limit: Int) throws -> [EntityResult]?
    {
        let key = request.sort[0]
        let direction = key.descending ? "DESC" : "ASC"
        let bound = try db.scalar(
            "SELECT \(column) FROM property WHERE name = \(Self.propertyName) AND \(column) IS NOT NULL AND ord = 0 ORDER BY \(column) \(direction) LIMIT 1 OFFSET ?",
            [.text(key.property), .integer(Int64(budget - 1))])
        guard let bound else { return nil }  // fewer rows than the budget: the matches are read instead
        let filter = try compileFilters(request.filters, types: request.types, mode: .and, style: .lookup)
        // The index gives the order, so rows stream and the walk stops at the bound or once the limit is settled.
        let statement = try db.prepare(
            """
            SELECT e.type, e.id, e.record, s.\(column) FROM property s CROSS JOIN entity e ON e.rowid = s.entity
            WHERE s.name = \(Self.propertyName) AND s.\(column) IS NOT NULL AND s.ord = 0 AND s.\(column) \(key.descending ? ">=" : "<=") ?
                AND \(request.typeCondition.sql) AND e.expires_at > ? AND \(filter.sql)
            ORDER BY s.\(column) \(direction)
            """)
        try statement.bind(
            [.text(key.property), bound] + request.typeCondition.arguments + [.integer(now)] + filter.arguments)
        defer { statement.reset() }
        var rows: [(EntityResult, SQLValue)] = []
        while try statement.step() {
            let value = statement.value(3)
            if rows.count >= limit, !Self.sameSortValue(value, rows[limit - 1].1) { break }
            rows.append((Self.readEntity(statement), value))
        }
        guard rows.count >= limit, Self.sortsBefore(rows[limit - 1].1, bound, descending: key.descending) else {
            return nil
        }
        // Entities with the same sort value come in id order.
        var results: [EntityResult] = []
        var start = 0
        while start < rows.count, results.count < limit {
            var end = start + 1
            while end < rows.count, Self.sameSortValue(rows[end].1, rows[start].1) { end += 1 }
            var group = rows[start..<end].map(\.0)
            if group.count > 1 { group.sort(by: Self.tieOrder) }
            results += group.prefix(limit - results.count)
            start = end
        }
        return results
    }

    /// The order of entities with the same sort value: by id, then (in a union of types) by type, as the general
    /// plan's `ORDER BY … e.id, e.type` (bytes, SQLite's BINARY collation).
    static func tieOrder(_ a: EntityResult, _ b: EntityResult) -> Bool {
        a.key.id.utf8.elementsEqual(b.key.id.utf8)
            ? a.key.type.utf8.lexicographicallyPrecedes(b.key.type.utf8)
            : a.key.id.utf8.lexicographicallyPrecedes(b.key.id.utf8)
    }

    /// Whether sort value `a` comes strictly before `b` (numbers numerically, text byte for byte).
    static func sortsBefore(_ a: SQLValue, _ b: SQLValue, descending: Bool) -> Bool {
        switch (a, b) {
        case (.text(let x), .text(let y)):
            return descending ? y.utf8.lexicographicallyPrecedes(x.utf8) : x.utf8.lexicographicallyPrecedes(y.utf8)
        default:
            guard let x = a.double, let y = b.double else { return false }
            return descending ? x > y : x < y
        }
    }

    /// Whether two sort values are equal as SQLite compares them (text byte for byte, not by Unicode equivalence).
    static func sameSortValue(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if case .text(let x) = a, case .text(let y) = b { return x.utf8.elementsEqual(y.utf8) }
        return a == b
    }
}
