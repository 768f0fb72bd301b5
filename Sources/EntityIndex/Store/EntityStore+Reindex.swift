import JSON
import SQLite

extension EntityStore {
    /// Records that the system asks the app to reindex (`reindexAllEntities` / `reindexEntities(for:)`, or the
    /// `CSSearchableIndexDelegate` fallback): a type and ids, a whole type, or everything.
    ///
    /// A request for a whole type covers the entities of that type present now; one for everything covers every
    /// entity present now.
    public func requestReindex(type: String?, ids: [String]?) throws(EntityIndexError) -> Int64 {
        if ids != nil && type == nil {
            throw EntityIndexError(.invalidParams, "a reindex request for ids needs their type")
        }
        do {
            return try write { _ in
                let idsJSON = ids.map { JSONWriter.string(.array($0.map { .string($0) })) }
                // Ids are never reused, even after the newest request was acknowledged: the last one issued is kept.
                let newest = try db.scalar("SELECT max(id) FROM reindex_request")?.int ?? 0
                let request = max(newest, Int64(try meta("last_reindex_request") ?? "") ?? 0) + 1
                try db.run(
                    "INSERT INTO reindex_request(id, type, ids, created_at) VALUES (?, ?, ?, ?)",
                    [.integer(request), SQLValue(type), SQLValue(idsJSON), .integer(now)])
                try setMeta("last_reindex_request", String(request))
                if let type, let ids {
                    for id in ids {
                        try db.run(
                            "INSERT OR IGNORE INTO reindex_outstanding(request, type, id) VALUES (?, ?, ?)",
                            [.integer(request), .text(type), .text(id)])
                    }
                } else if let type {
                    try db.run(
                        """
                        INSERT INTO reindex_outstanding(request, type, id) SELECT ?, type, id FROM entity
                        WHERE type = ? AND expires_at > ?
                        """, [.integer(request), .text(type), .integer(now)])
                } else {
                    try db.run(
                        "INSERT INTO reindex_outstanding(request, type, id) SELECT ?, type, id FROM entity WHERE expires_at > ?",
                        [.integer(request), .integer(now)])
                }
                return request
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "recording a reindex request")
        }
    }

    /// The open reindex requests, oldest first.
    public func pendingReindex() throws(EntityIndexError) -> [PendingReindex] {
        do {
            var requests = try db.rows("SELECT id, type, ids, created_at FROM reindex_request ORDER BY id") { s in
                PendingReindex(
                    requestId: s.int(0), type: s.optionalText(1),
                    ids: s.optionalText(2).flatMap { try? JSONParser().parse($0) }?.array?.compactMap(\.string),
                    createdAt: s.int(3), outstanding: [])
            }
            for i in requests.indices {
                requests[i].outstanding = try db.rows(
                    "SELECT type, id FROM reindex_outstanding WHERE request = ? ORDER BY type, id",
                    [.integer(requests[i].requestId)]
                ) { EntityKey(type: $0.text(0), id: $0.text(1)) }
            }
            return requests
        } catch {
            throw EntityIndexError.wrap(error, doing: "listing reindex requests")
        }
    }

    /// Closes a reindex request.
    public func acknowledgeReindex(_ requestId: Int64) throws(EntityIndexError) {
        do {
            try write { _ in
                try db.run("DELETE FROM reindex_request WHERE id = ?", [.integer(requestId)])
                if db.changes == 0 { throw EntityIndexError(.notFound, "no open reindex request \(requestId)") }
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "acknowledging a reindex request")
        }
    }
}
