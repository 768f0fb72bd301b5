import JSON
import SQLite

extension EntityStore {
    /// Counts and versions: what is in the index, what is hidden, expired or about to expire, and what it runs on.
    ///
    /// Expiry is the complaint developers make most (entities silently vanish after a month), so `expiringSoon`
    /// counts those that will expire within 7 days of `now`.
    public func stats() throws(EntityIndexError) -> JSONValue {
        do {
            let soon = now + 7 * Timestamp.day
            var types = JSONObject()
            for (type, count, hidden, expired, expiring) in try db.rows("""
                SELECT type, sum(expires_at > ?1), sum(hidden AND expires_at > ?1), sum(expires_at <= ?1),
                    sum(expires_at > ?1 AND expires_at <= ?2) FROM entity GROUP BY type ORDER BY type
                """, [.integer(now), .integer(soon)], { ($0.text(0), $0.int(1), $0.int(2), $0.int(3), $0.int(4)) })
            {
                types[type] = .object(JSONObject([
                    ("entities", .number(JSONNumber(count))), ("hidden", .number(JSONNumber(hidden))),
                    ("expired", .number(JSONNumber(expired))), ("expiringSoon", .number(JSONNumber(expiring))),
                ]))
            }
            func count(_ sql: String, _ arguments: [SQLValue] = []) throws -> JSONValue {
                .number(JSONNumber(try db.scalar(sql, arguments)?.int ?? 0))
            }
            let pageCount = try db.scalar("PRAGMA page_count")?.int ?? 0
            let pageSize = try db.scalar("PRAGMA page_size")?.int ?? 0
            return .object(JSONObject([
                ("entities", try count("SELECT count(*) FROM entity WHERE expires_at > ?", [.integer(now)])),
                ("hidden", try count("SELECT count(*) FROM entity WHERE hidden AND expires_at > ?", [.integer(now)])),
                ("expired", try count("SELECT count(*) FROM entity WHERE expires_at <= ?", [.integer(now)])),
                ("expiringSoon", try count("SELECT count(*) FROM entity WHERE expires_at > ? AND expires_at <= ?",
                                           [.integer(now), .integer(soon)])),
                ("types", .object(types)),
                ("reindexRequests", try count("SELECT count(*) FROM reindex_request")),
                ("donations", try count("SELECT coalesce(sum(count), 0) FROM donation")),
                ("clientState", JSONValue(try clientState())),
                ("databaseBytes", .number(JSONNumber(pageCount * pageSize))),
                ("path", .string(path)),
                ("now", .string(Timestamp.format(now))),
                ("schemaVersion", JSONValue(Schema.version)),
                ("textVersion", JSONValue(TextAnalyzer.version)),
                ("sqliteVersion", .string(Connection.libraryVersion)),
                ("icuVersion", .string(TextAnalyzer.icuVersion)),
            ]))
        } catch {
            throw EntityIndexError.wrap(error, doing: "computing stats")
        }
    }

    /// Declares property types for an entity type, and reindexes its entities so that the declaration applies.
    public func declare(type: String, _ properties: [PropertyDeclaration]) throws(EntityIndexError) {
        do {
            try write {
                for p in properties {
                    try db.run("""
                        INSERT INTO property_decl(type, name, kind, sortable, indexing_key) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(type, name) DO UPDATE SET kind = excluded.kind, sortable = excluded.sortable,
                            indexing_key = excluded.indexing_key
                        """, [.text(type), .text(p.name), .text(p.kind.rawValue), SQLValue(p.sortable), SQLValue(p.indexingKey)])
                }
                try db.run("DELETE FROM property_kind WHERE type = ?", [.text(type)])
                try rederive(type: type)
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "declaring properties")
        }
    }

    /// The declared properties of every type.
    public func allDeclarations() throws(EntityIndexError) -> JSONValue {
        do {
            var types = JSONObject()
            for (type, name, kind, sortable, key) in try db.rows(
                "SELECT type, name, kind, sortable, indexing_key FROM property_decl ORDER BY type, name", [],
                { ($0.text(0), $0.text(1), $0.text(2), $0.int(3) != 0, $0.optionalText(4)) })
            {
                let d = PropertyDeclaration(name: name, kind: .init(rawValue: kind) ?? .string, sortable: sortable, indexingKey: key)
                types[type] = .array((types[type]?.array ?? []) + [d.json])
            }
            return .object(types)
        } catch {
            throw EntityIndexError.wrap(error, doing: "reading declarations")
        }
    }
}
