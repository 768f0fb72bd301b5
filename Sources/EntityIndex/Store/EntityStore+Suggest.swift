import JSON
import SQLite

extension EntityStore {
    /// Donations of one entity closer together than this count once (a chatty app cannot flood suggestions).
    public static let donationWindow: Int64 = 5 * 60 * 1000
    /// Engagement halves every two weeks.
    static let halfLife: Double = 14 * 86_400_000

    /// `suggestedEntities()`: what the system would offer before the user types.
    ///
    /// Order, each tier breaking the ties of the one before: indexing `priority` (higher first); engagement, the sum
    /// of donations (log2(1 + count), halved every 14 days since the last) and recency of `lastUsedAt` (1 when used
    /// now, halved every 14 days); `rankingHint`; the most recently ingested; type and id. Hidden and expired
    /// entities are never suggested.
    public func suggest(type: String?, limit: Int) throws(EntityIndexError) -> [EntityResult] {
        try suggest(types: type.map { [$0] } ?? [], limit: limit)
    }

    /// Suggestions among entities of `types` (their union; every type when empty).
    public func suggest(types: [String], limit: Int) throws(EntityIndexError) -> [EntityResult] {
        do {
            var sql = """
                SELECT e.type, e.id, e.record,
                    coalesce(log2(1 + d.count) * pow(0.5, max(0, ?1 - d.last_at) / ?2), 0)
                    + coalesce(pow(0.5, max(0, ?1 - e.last_used_at) / ?2), 0) AS engagement
                FROM entity e LEFT JOIN donation d ON d.type = e.type AND d.id = e.id
                WHERE e.hidden = 0 AND e.expires_at > ?1
                """
            var arguments: [SQLValue] = [.integer(now), .real(Self.halfLife)]
            if let condition = TypeUnion.condition("e.type", types) {
                sql += " AND " + condition.sql
                arguments += condition.arguments
            }
            sql += """
                 ORDER BY coalesce(e.priority, 0) DESC, engagement DESC, coalesce(e.ranking_hint, 0) DESC,
                    e.ingested_at DESC, e.type, e.id LIMIT ?
                """
            arguments.append(.integer(Int64(max(0, min(limit, Self.maxResults)))))
            let budget = ResultBudget(limit: maxResultBytes)
            return try db.rows(sql, arguments) { s in
                var result = try budget.entity(s)
                result.engagement = (s.double(3) * 1000).rounded() / 1000
                return result
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "suggesting entities")
        }
    }

    /// Records an interaction with an entity (an intent donation); returns false when it fell inside the window of
    /// the previous one and was not counted.
    @discardableResult
    public func donate(type: String, id: String) throws(EntityIndexError) -> Bool {
        do {
            return try write { _ in
                guard
                    try db.scalar(
                        "SELECT 1 FROM entity WHERE type = ? AND id = ? AND expires_at > ?",
                        [.text(type), .text(id), .integer(now)]) != nil
                else { throw EntityIndexError(.notFound, "no entity \(type)/\(id) to donate") }
                if let last = try db.scalar(
                    "SELECT last_at FROM donation WHERE type = ? AND id = ?", [.text(type), .text(id)])?.int,
                    now - last < Self.donationWindow, now >= last
                {
                    return false
                }
                try db.run(
                    """
                    INSERT INTO donation(type, id, count, last_at) VALUES (?, ?, 1, ?)
                    ON CONFLICT(type, id) DO UPDATE SET count = count + 1, last_at = excluded.last_at
                    """, [.text(type), .text(id), .integer(now)])
                return true
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "recording a donation")
        }
    }
}
