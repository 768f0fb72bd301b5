import JSON
import SQLite

extension EntityStore {
    /// `entities(for:)`: the entities with these ids, in the order asked, missing and expired ones left out.
    ///
    /// A repeated id is returned once. Hidden entities are returned (hiding is for Spotlight's UI only). The ids
    /// are read in one read transaction: from one state of the index, without taking and releasing its read lock
    /// for each (a quarter of the time of 20 ids).
    public func get(type: String, ids: [String]) throws(EntityIndexError) -> [EntityResult] {
        do {
            return try db.read {
                // Ids are compared as bytes: ids that differ only by Unicode normalization are different ids.
                var seen = Set<[UInt8]>()
                var result: [EntityResult] = []
                let budget = ResultBudget(limit: maxResultBytes)
                for id in ids where seen.insert(Array(id.utf8)).inserted {
                    let s = try db.cached("SELECT record FROM entity WHERE type = ? AND id = ? AND expires_at > ?")
                    try s.bind([.text(type), .text(id), .integer(now)])
                    if try s.step() {
                        result.append(
                            EntityResult(key: EntityKey(type: type, id: id), recordText: try budget.recordText(s, 0)))
                    }
                    s.reset()
                }
                return result
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "looking up entities")
        }
    }

    /// A page of `allEntities()`, ordered by id, and the cursor of the next page.
    ///
    /// The cursor is the last id returned: the next page starts after it, so entities inserted between pages are
    /// neither skipped (when after the cursor) nor repeated.
    public func all(type: String, limit: Int, cursor: String?) throws(EntityIndexError) -> EntityPage {
        let rows = try entityRows(
            type: type, after: cursor ?? "", count: limit + 1, budget: ResultBudget(limit: maxResultBytes))
        if rows.count > limit {
            let page = Array(rows.prefix(limit))
            return EntityPage(entities: page, nextCursor: page.last?.key.id)
        }
        return EntityPage(entities: rows)
    }

    /// Up to `count` entities of `type` with ids after `after`, by id, their records counted against `budget`.
    private func entityRows(type: String, after: String, count: Int, budget: ResultBudget) throws(EntityIndexError)
        -> [EntityResult]
    {
        do {
            return try db.rows(
                "SELECT id, record FROM entity WHERE type = ? AND id > ? AND expires_at > ? ORDER BY id LIMIT ?",
                [.text(type), .text(after), .integer(now), .integer(Int64(count))]
            ) { EntityResult(key: EntityKey(type: type, id: $0.text(0)), recordText: try budget.recordText($0, 1)) }
        } catch {
            throw EntityIndexError.wrap(error, doing: "listing entities")
        }
    }

    /// A page of `allEntities()` over several types (their union): type by type in byte order, each by id.
    ///
    /// One type pages as above. For several, the cursor is the last entity returned as `type/id` (a type has no
    /// `/`), so that a page may end in one type and the next continue in it or in the types after it.
    public func all(types: [String], limit: Int, cursor: String?) throws(EntityIndexError) -> EntityPage {
        let types = TypeUnion.normalized(types)
        guard types.count > 1 else { return try all(type: types.first ?? "", limit: limit, cursor: cursor) }
        let ordered = types.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var start: EntityKey?
        if let cursor {
            guard let slash = cursor.firstIndex(of: "/"), types.contains(String(cursor[..<slash])) else {
                throw EntityIndexError(
                    .invalidParams,
                    "all: parameter \"cursor\" must be the nextCursor of a previous page of types \(TypeUnion.describe(types)) (type/id), got \(Quoting.quoted(cursor))"
                )
            }
            start = EntityKey(type: String(cursor[..<slash]), id: String(cursor[cursor.index(after: slash)...]))
        }
        var rows: [EntityResult] = []
        let budget = ResultBudget(limit: maxResultBytes)
        for type in ordered where rows.count <= limit {
            var after = ""
            if let start {
                if type.utf8.lexicographicallyPrecedes(start.type.utf8) { continue }
                if type == start.type { after = start.id }
            }
            rows += try entityRows(type: type, after: after, count: limit + 1 - rows.count, budget: budget)
        }
        guard rows.count > limit else { return EntityPage(entities: rows) }
        let page = Array(rows.prefix(limit))
        return EntityPage(entities: page, nextCursor: page.last.map { "\($0.key.type)/\($0.key.id)" })
    }
}
