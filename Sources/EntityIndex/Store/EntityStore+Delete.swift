import SQLite

/// What to delete: any combination of types, ids of those types, domains, or everything.
public struct DeleteRequest: Sendable {
    /// The types (their union); empty: no type selector.
    public var types: [String]
    public var ids: [String]
    public var domains: [String]
    public var all: Bool
    /// Only say what would be deleted (`preview(_:)`), changing nothing.
    public var dryRun = false

    public init(types: [String], ids: [String] = [], domains: [String] = [], all: Bool = false) {
        self.types = TypeUnion.normalized(types)
        self.ids = ids
        self.domains = domains
        self.all = all
    }

    public init(type: String? = nil, ids: [String] = [], domains: [String] = [], all: Bool = false) {
        self.init(types: type.map { [$0] } ?? [], ids: ids, domains: domains, all: all)
    }

    /// Refuses selectors that do not combine (ids without a type, `all` with another, nothing at all), as `delete`
    /// and its preview both do; returns the domains given (empty ones left out).
    func checkedDomains() throws(EntityIndexError) -> [String] {
        if !ids.isEmpty && types.isEmpty {
            throw EntityIndexError(.invalidParams, "deleting by ids needs the type of the entities")
        }
        if all && (!types.isEmpty || !domains.isEmpty) {
            throw EntityIndexError(.invalidParams, "\"all\" deletes everything and takes no type, ids or domains")
        }
        let domains = domains.filter { !$0.isEmpty }
        if !all && types.isEmpty && domains.isEmpty {
            throw EntityIndexError(.invalidParams, "say what to delete: a type, ids with a type, domains, or all")
        }
        return domains
    }
}

extension EntityStore {
    /// Deletes entities; returns how many.
    ///
    /// The selectors given combine as an intersection (the contract's `delete`): `type` and `domains` delete the
    /// entities of that type in those domains, `ids` with `type` those entities (and with `domains`, those of them in
    /// the domains). Several domains are a union among themselves, and so are several types.
    /// - `ids` with `type`: those entities (`deleteAppEntities(identifiedBy:ofType:)`);
    /// - `type` alone: every entity of the type (`deleteAppEntities(ofType:)`);
    /// - `domains`: entities in each domain `D` or below it (`D.*`), never `Dx` (`deleteSearchableItems(withDomainIdentifiers:)`);
    /// - `all`: everything, and the batch client state too (`deleteAllSearchableItems()`); it takes no other selector.
    public func delete(_ request: DeleteRequest) throws(EntityIndexError) -> Int {
        let domains = try request.checkedDomains()
        do {
            return try write { writer in
                if request.all {
                    let deleted = Int(try db.scalar("SELECT count(*) FROM entity")?.int ?? 0)
                    writer.heldRows = []
                    for index in Indexes.all { try index.empty(db) }
                    try db.execute(
                        "DELETE FROM entity; DELETE FROM client_state; DELETE FROM reindex_outstanding; DELETE FROM donation;"
                    )
                    return deleted
                }
                if !request.ids.isEmpty {
                    var deleted = 0
                    for type in request.types {
                        for id in request.ids {
                            if !domains.isEmpty {
                                let domain = try db.scalar(
                                    "SELECT domain FROM entity WHERE type = ? AND id = ?", [.text(type), .text(id)])?
                                    .string
                                guard let domain,
                                    domains.contains(where: { domain == $0 || domain.hasPrefix($0 + ".") })
                                else { continue }
                            }
                            // Deleting counts as a re-push for reindex requests.
                            try db.run(
                                "DELETE FROM reindex_outstanding WHERE type = ? AND id = ?", [.text(type), .text(id)])
                            deleted += try deleteEntities(
                                where: "e.type = ? AND e.id = ?", [.text(type), .text(id)], writer)
                        }
                    }
                    return deleted
                }
                if domains.isEmpty {
                    var deleted = 0
                    for type in request.types {
                        try db.run("DELETE FROM reindex_outstanding WHERE type = ?", [.text(type)])
                        deleted += try deleteEntities(where: "e.type = ?", [.text(type)], writer)
                    }
                    return deleted
                }
                var deleted = 0
                for domain in domains {
                    // `D` itself, or `D.` followed by anything: a range scan, so `_` and `%` in names mean nothing.
                    var condition = "(e.domain = ? OR (e.domain >= ? AND e.domain < ?))"
                    var arguments: [SQLValue] = [.text(domain), .text(domain + "."), .text(domain + "/")]
                    if let types = TypeUnion.condition("e.type", request.types) {
                        condition += " AND " + types.sql
                        arguments += types.arguments
                    }
                    try db.run(
                        "DELETE FROM reindex_outstanding WHERE (type, id) IN (SELECT e.type, e.id FROM entity e WHERE \(condition))",
                        arguments)
                    deleted += try deleteEntities(where: condition, arguments, writer)
                }
                return deleted
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "deleting")
        }
    }
}
