import SQLite

/// What to delete: any combination of a type, ids of that type, domains, or everything.
public struct DeleteRequest: Sendable {
    public var type: String?
    public var ids: [String]
    public var domains: [String]
    public var all: Bool

    public init(type: String? = nil, ids: [String] = [], domains: [String] = [], all: Bool = false) {
        self.type = type
        self.ids = ids
        self.domains = domains
        self.all = all
    }
}

extension EntityStore {
    /// Deletes entities; returns how many.
    ///
    /// - `ids` with `type`: those entities (`deleteAppEntities(identifiedBy:ofType:)`);
    /// - `type` alone: every entity of the type (`deleteAppEntities(ofType:)`);
    /// - `domains`: entities in each domain `D` or below it (`D.*`), never `Dx` (`deleteSearchableItems(withDomainIdentifiers:)`);
    /// - `all`: everything, and the batch client state too (`deleteAllSearchableItems()`).
    public func delete(_ request: DeleteRequest) throws(EntityIndexError) -> Int {
        if !request.ids.isEmpty && request.type == nil {
            throw EntityIndexError(.invalidParams, "deleting by ids needs the type of the entities")
        }
        if !request.all && request.type == nil && request.domains.isEmpty {
            throw EntityIndexError(.invalidParams, "say what to delete: a type, ids with a type, domains, or all")
        }
        do {
            return try write {
                var deleted = 0
                // Deleting counts as a re-push for reindex requests.
                func settle(_ condition: String, _ arguments: [SQLValue]) throws {
                    try db.run(
                        "DELETE FROM reindex_outstanding WHERE (type, id) IN (SELECT e.type, e.id FROM entity e WHERE \(condition))",
                        arguments)
                }
                if request.all {
                    deleted = Int(try db.scalar("SELECT count(*) FROM entity")?.int ?? 0)
                    try db.execute("DELETE FROM entity; DELETE FROM client_state; DELETE FROM reindex_outstanding; DELETE FROM donation; DELETE FROM vocabulary;")
                    return deleted
                }
                if let type = request.type {
                    if request.ids.isEmpty {
                        try db.run("DELETE FROM reindex_outstanding WHERE type = ?", [.text(type)])
                        try db.run("DELETE FROM entity WHERE type = ?", [.text(type)])
                        deleted += db.changes
                    } else {
                        for id in request.ids {
                            try db.run("DELETE FROM reindex_outstanding WHERE type = ? AND id = ?", [.text(type), .text(id)])
                            try db.run("DELETE FROM entity WHERE type = ? AND id = ?", [.text(type), .text(id)])
                            deleted += db.changes
                        }
                    }
                }
                for domain in request.domains where !domain.isEmpty {
                    // `D` itself, or `D.` followed by anything: a range scan, so `_` and `%` in names mean nothing.
                    let condition = "e.domain = ? OR (e.domain >= ? AND e.domain < ?)"
                    let arguments: [SQLValue] = [.text(domain), .text(domain + "."), .text(domain + "/")]
                    try settle(condition, arguments)
                    try db.run("DELETE FROM entity WHERE rowid IN (SELECT e.rowid FROM entity e WHERE \(condition))", arguments)
                    deleted += db.changes
                }
                return deleted
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "deleting")
        }
    }
}
