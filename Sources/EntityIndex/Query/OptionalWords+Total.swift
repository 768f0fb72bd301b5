import SQLite

extension EntityStore {
    /// How many entities a search returns over all its pages, counting at most `maxExactTotal + 1`; with a single
    /// pass, `countMatches` of its phase.
    ///
    /// With optional words it is the union of every pass's candidates (those of its phase, under the search's
    /// conditions), passes the search did not need included, so that every page tells the same total. Each pass
    /// costs one bounded read of its candidates (at most `maxExactTotal + 1` more than were counted already). The
    /// first pass is read first (its words are known without counting frequencies), then the last one, whose one
    /// word matches every entity the passes between match as typed, so that a common word reaches the bound at once.
    func countMatches(_ passes: inout WordPasses, conditions: SQLFragment, everyDocumentVisible: Bool) throws -> Int {
        guard passes.count > 1 else {
            if passes.phases[0] == .rewrites {
                let rewrites = try passes.rewrites(Array(passes.base.terms.indices), store: self)
                let found = try rewriteCandidates(rewrites, conditions: conditions, limit: Self.maxExactTotal + 1)
                return min(found.count, Self.maxExactTotal + 1)
            }
            return try countMatches(
                passes.query, phase: passes.phases[0], conditions: conditions,
                everyDocumentVisible: everyDocumentVisible)
        }
        let bound = Self.maxExactTotal + 1
        var union = Set<Int64>()
        for pass in [0] + (1..<passes.count).reversed() where union.count < bound {
            let kept = try passes.kept(pass, db: db)
            let limit = bound + union.count
            if pass < passes.phases.count {
                let phase = passes.phases[pass]
                if phase == .rewrites {
                    let rewrites = try passes.rewrites(kept, store: self)
                    union.formUnion(try rewriteCandidates(rewrites, conditions: conditions, limit: limit))
                    continue
                }
                let query = phase == .words ? passes.base.keeping(kept) : passes.withVariants(kept)
                union.formUnion(try passCandidates(query, phase, conditions: conditions, limit: limit))
            } else {
                union.formUnion(try unmadeCandidates(&passes, kept, conditions, limit: limit))
            }
        }
        // At most the bound, as a single pass counts: past it, how far a pass's last read went depends on the order
        // its matches came in.
        return min(union.count, bound)
    }

    /// The candidates of a pass the search did not make, in the phase the search would have given it: the first of
    /// words as typed and typos that has any, else fragments.
    func unmadeCandidates(
        _ passes: inout WordPasses, _ kept: [Int], _ conditions: SQLFragment, limit: Int, column: String = "d.doc"
    ) throws -> [Int64] {
        let typed = passes.base.keeping(kept)
        let words = try passCandidates(typed, .words, conditions: conditions, limit: limit, column: column)
        guard words.isEmpty else { return words }
        let rewrites = try passes.rewrites(kept, store: self)
        let rewritten = try rewriteCandidates(rewrites, conditions: conditions, limit: limit)
        guard rewritten.isEmpty else { return rewritten }
        if typed.terms.contains(where: { $0.typoBudget > 0 }) {
            let query = try passes.expandTypos(kept, store: self)
            if query.terms.contains(where: { !$0.variants.isEmpty }) {
                let typos = try passCandidates(query, .typos, conditions: conditions, limit: limit, column: column)
                guard typos.isEmpty else { return typos }
            }
        }
        return try passCandidates(typed, .fragments, conditions: conditions, limit: limit, column: column)
    }

    /// The documents of at most `limit` candidates of a pass in `phase` (those `countMatches` counts): the entities
    /// whose id is the query's and the matches of its words as typed; the matches with typos; or the codes that
    /// hold its single word.
    /// `column` is what each row gives: the document (`d.doc`) or the entity's rowid (`e.rowid`).
    func passCandidates(
        _ query: SearchQuery, _ phase: SearchPhase, conditions: SQLFragment, limit: Int, column: String = "d.doc"
    ) throws -> [Int64] {
        // The matches drive, as in `countMatches`.
        func matches(_ table: String, _ expression: String) throws -> [Int64] {
            try db.rows(
                """
                SELECT \(column) FROM \(table) CROSS JOIN search_doc d ON d.doc = \(table).rowid
                CROSS JOIN entity e ON e.rowid = d.rowid WHERE \(table) MATCH ? AND \(conditions.sql) LIMIT \(limit)
                """, [.text(expression)] + conditions.arguments
            ) { $0.int(0) }
        }
        guard let (table, expression) = Self.candidateMatch(query, phase) else { return [] }
        let found = try matches(table, expression)
        guard phase == .words else { return found }
        let exactIDs = try db.rows(
            """
            SELECT \(column) FROM entity e JOIN search_doc d ON d.rowid = e.rowid WHERE e.id_key = ?
            AND \(conditions.sql) LIMIT \(limit)
            """, [.text(query.idKey)] + conditions.arguments
        ) { $0.int(0) }
        return exactIDs + found
    }
}
