import SQLite

extension EntityStore {
    /// Every match of a search, as entity rowids, up to `maxFacetMatches + 1`: the set its `total` counts.
    ///
    /// When the search ranked fewer results than it asked for (`asked`), those are every match, read already. Else
    /// the candidates of its pass (or of each pass, with optional words, as `countMatches` unites them) are read
    /// again, rowids alone, under the search's conditions.
    func searchMatches(_ passes: inout WordPasses, ranked: [Ranker.Ranked], asked: Int, conditions: SQLFragment)
        throws -> [Int64]
    {
        if ranked.count < asked { return ranked.map(\.rowid) }
        let bound = Self.maxFacetMatches + 1
        var seen = Set<Int64>(), rowids: [Int64] = []
        func add(_ found: [Int64]) {
            for rowid in found where rowids.count < bound && seen.insert(rowid).inserted { rowids.append(rowid) }
        }
        guard passes.count > 1 else {
            add(
                try passCandidates(
                    passes.query, passes.phases[0], conditions: conditions, limit: bound, column: "e.rowid"))
            return rowids
        }
        for pass in [0] + (1..<passes.count).reversed() where rowids.count < bound {
            let kept = try passes.kept(pass, db: db)
            let limit = bound + rowids.count
            if pass < passes.phases.count {
                let phase = passes.phases[pass]
                let query = phase == .words ? passes.base.keeping(kept) : passes.withVariants(kept)
                add(try passCandidates(query, phase, conditions: conditions, limit: limit, column: "e.rowid"))
            } else {
                add(try unmadeCandidates(&passes, kept, conditions, limit: limit, column: "e.rowid"))
            }
        }
        return rowids
    }

    /// The facets of a property query: counted among every entity its filters select, up to `maxFacetMatches`.
    func queryFacets(_ request: PropertyQueryRequest) throws -> FacetCounts {
        let names = try checkFacets(request.facets, types: request.types)
        let filter = try compileFilters(request.filters, types: request.types, mode: request.mode, style: .collect)
        var sql = "SELECT e.rowid FROM entity e WHERE \(request.typeCondition.sql) AND e.expires_at > ?"
        var arguments = request.typeCondition.arguments + [.integer(now)]
        if !filter.sql.isEmpty {
            sql += " AND " + filter.sql
            arguments += filter.arguments
        }
        let rowids = try db.rows(sql + " LIMIT \(Self.maxFacetMatches + 1)", arguments) { $0.int(0) }
        return try facetCounts(names, rowids: rowids)
    }

    /// The facets of `all`: counted among every unexpired entity of the types, up to `maxFacetMatches`.
    public func allFacets(types: [String], facets: [String]) throws(EntityIndexError) -> FacetCounts {
        let types = TypeUnion.normalized(types)
        do {
            return try db.read {
                let names = try checkFacets(facets, types: types)
                let condition = TypeUnion.condition("e.type", types) ?? SQLFragment(sql: "0", arguments: [])
                let rowids = try db.rows(
                    """
                    SELECT e.rowid FROM entity e WHERE \(condition.sql) AND e.expires_at > ?
                    LIMIT \(Self.maxFacetMatches + 1)
                    """, condition.arguments + [.integer(now)]
                ) { $0.int(0) }
                return try facetCounts(names, rowids: rowids)
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "counting facets")
        }
    }
}
