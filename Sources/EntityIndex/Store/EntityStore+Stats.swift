import SQLite

extension EntityStore {
    /// Counts and versions: what is in the index, what is hidden, expired or about to expire, and what it runs on.
    ///
    /// Expiry is the complaint developers make most (entities silently vanish after a month), so `expiringSoon`
    /// counts those that will expire within 7 days of `now`.
    public func stats() throws(EntityIndexError) -> Stats {
        do {
            let soon = now + 7 * Timestamp.day
            var all = Stats.Counts()
            let types = try db.rows(
                """
                SELECT type, sum(expires_at > ?1), sum(hidden AND expires_at > ?1), sum(expires_at <= ?1),
                    sum(expires_at > ?1 AND expires_at <= ?2) FROM entity GROUP BY type ORDER BY type
                """, [.integer(now), .integer(soon)]
            ) { s in
                (
                    type: s.text(0),
                    counts: Stats.Counts(
                        entities: Int(s.int(1)), hidden: Int(s.int(2)), expired: Int(s.int(3)),
                        expiringSoon: Int(s.int(4)))
                )
            }
            for (_, c) in types {
                all.entities += c.entities
                all.hidden += c.hidden
                all.expired += c.expired
                all.expiringSoon += c.expiringSoon
            }
            func count(_ sql: String) throws -> Int { Int(try db.scalar(sql)?.int ?? 0) }
            return Stats(
                all: all, types: types,
                reindexRequests: try count("SELECT count(*) FROM reindex_request"),
                donations: try count("SELECT coalesce(sum(count), 0) FROM donation"),
                clientState: try clientState(),
                databaseBytes: try count("PRAGMA page_count") * count("PRAGMA page_size"),
                path: path, now: now, schemaVersion: Schema.version, textVersion: TextAnalyzer.version,
                sqliteVersion: Connection.libraryVersion, icuVersion: TextAnalyzer.icuVersion,
                indexTextVersion: try storedStamp(SearchTextIndex().name).flatMap(Self.textVersion) ?? 0,
                readOnly: isReadOnly)
        } catch {
            throw EntityIndexError.wrap(error, doing: "computing stats")
        }
    }

    /// The text pipeline's version in an index's stamp (`1 text 12 icu 72.1` → 12).
    static func textVersion(_ stamp: String) -> Int? {
        let words = stamp.split(separator: " ")
        guard let at = words.firstIndex(of: "text"), at + 1 < words.count else { return nil }
        return Int(words[at + 1])
    }
}
