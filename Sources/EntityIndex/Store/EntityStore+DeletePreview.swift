import SQLite

/// What a delete would do: how many entities it would delete and the first of them.
public struct DeletePreview: Sendable, Equatable {
    /// The most keys a preview lists.
    public static let maxKeys = 100
    /// How many entities the delete would delete (expired ones included, as `delete` counts them).
    public var count: Int
    /// The first of them, at most `maxKeys`: for ids, in the order asked; else by type, then id.
    public var keys: [EntityKey]
    /// Whether `keys` lists every entity counted.
    public var complete: Bool { keys.count == count }
}

extension EntityStore {
    /// What `delete(_:)` would delete for this request, changing nothing (a dry run).
    ///
    /// The selectors are checked and combined as `delete` combines them (an intersection; several domains or types a
    /// union), so that a preview and the delete that follows it agree. `all` also resets the client state, which the
    /// preview does not count.
    public func preview(_ request: DeleteRequest) throws(EntityIndexError) -> DeletePreview {
        let domains = try request.checkedDomains()
        do {
            return try db.read {
                if !request.ids.isEmpty { return try previewIds(request, domains: domains) }
                var conditions: [String] = []
                var arguments: [SQLValue] = []
                if !request.all {
                    if let types = TypeUnion.condition("e.type", request.types) {
                        conditions.append(types.sql)
                        arguments += types.arguments
                    }
                    if !domains.isEmpty {
                        // As `delete`: `D` itself, or `D.` followed by anything, as a range.
                        conditions.append(
                            "("
                                + domains.map { _ in "e.domain = ? OR (e.domain >= ? AND e.domain < ?)" }
                                .joined(separator: " OR ") + ")")
                        for domain in domains {
                            arguments += [.text(domain), .text(domain + "."), .text(domain + "/")]
                        }
                    }
                }
                let condition = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
                let count = Int(try db.scalar("SELECT count(*) FROM entity e WHERE \(condition)", arguments)?.int ?? 0)
                let keys = try db.rows(
                    "SELECT e.type, e.id FROM entity e WHERE \(condition) ORDER BY e.type, e.id LIMIT ?",
                    arguments + [.integer(Int64(DeletePreview.maxKeys))]
                ) { EntityKey(type: $0.text(0), id: $0.text(1)) }
                return DeletePreview(count: count, keys: keys)
            }
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "previewing a delete")
        }
    }

    /// The preview of a delete by ids: each (type, id) that exists (and is in one of `domains`, when given), once.
    private func previewIds(_ request: DeleteRequest, domains: [String]) throws -> DeletePreview {
        var count = 0
        var keys: [EntityKey] = []
        var seen = Set<[UInt8]>()
        let select = try db.cached("SELECT domain FROM entity WHERE type = ? AND id = ?")
        for type in request.types {
            seen.removeAll()
            // Ids are compared as bytes, as the delete compares them.
            for id in request.ids where seen.insert(Array(id.utf8)).inserted {
                try select.bind([.text(type), .text(id)])
                defer { select.reset() }
                guard try select.step() else { continue }
                if !domains.isEmpty {
                    guard let domain = select.optionalText(0),
                        domains.contains(where: { domain == $0 || domain.hasPrefix($0 + ".") })
                    else { continue }
                }
                count += 1
                if keys.count < DeletePreview.maxKeys { keys.append(EntityKey(type: type, id: id)) }
            }
        }
        return DeletePreview(count: count, keys: keys)
    }
}
