import JSON
import SQLite

/// Related entities (schema/014_relation_by_target.sql): the entities a record lists are read from the stored record,
/// in its order; `relation` indexes the other direction, one row per listed entity (its interned type and its id) and
/// entity that lists it.
extension EntityRecord {
    /// The entities a stored record lists in `related`, in its order, repeats included, read as the validator read
    /// them when the record was ingested.
    static func related(of record: JSONObject) -> [EntityKey] {
        guard case .array(let items)? = record["related"] else { return [] }
        return items.compactMap { item in
            guard case .object(let ref) = item, case let (type?, id?) = RecordValidator.relatedParts(ref) else {
                return nil
            }
            return EntityKey(type: type, id: id)
        }
    }
}

extension EntityStore {
    public typealias RelatedDirection = EntityIndex.RelatedDirection

    /// Related entities: those this one lists (`out`, in listed order), those that list it (`in`), or both.
    public func related(type: String, id: String, direction: RelatedDirection) throws(EntityIndexError)
        -> [EntityResult]
    {
        try related(RelatedRequest(type: type, id: id, direction: direction)).entities
    }

    /// Related entities, and (for `out` and `both`) the listed ones the index does not hold.
    ///
    /// The listed ones come from the entity's stored record, each found by one probe of `entity`'s (type, id)
    /// index; a listed entity without a live one is missing. Those that list it are a range of `relation`.
    public func related(_ request: RelatedRequest) throws(EntityIndexError) -> RelatedEntities {
        let (type, id, direction) = (request.type, request.id, request.direction)
        let live = "SELECT record FROM entity WHERE type = ? AND id = ? AND expires_at > ?"
        do {
            var result: [EntityResult] = []
            var missing: [EntityKey] = []
            let budget = ResultBudget(limit: maxResultBytes)
            if direction != .in {
                guard
                    let listed = try db.rows(live, [.text(type), .text(id), .integer(now)], Self.listedEntities).first
                else {
                    throw EntityIndexError(.notFound, "no entity \(type)/\(id)")
                }
                let find = try db.cached(live)
                var seen = Set<EntityKey>()
                for key in listed {
                    defer { find.reset() }
                    try find.bind([.text(key.type), .text(key.id), .integer(now)])
                    if try find.step() {
                        result.append(EntityResult(key: key, recordText: try budget.recordText(find, 0)))
                    } else if seen.insert(key).inserted {
                        missing.append(key)
                    }
                }
            }
            if direction != .out, let typeID = try entityTypeID(type) {
                result += try db.rows(
                    """
                    SELECT e.type, e.id, e.record FROM relation r JOIN entity e ON e.rowid = r.entity
                    WHERE r.type = ? AND r.id = ? AND e.expires_at > ? ORDER BY e.type, e.id
                    """, [.integer(typeID), .text(id), .integer(now)], budget.entity)
            }
            var seen = Set<EntityKey>()
            return RelatedEntities(entities: result.filter { seen.insert($0.key).inserted }, missing: missing)
        } catch {
            throw EntityIndexError.wrap(error, doing: "finding related entities")
        }
    }

    /// The entities the record in the first column lists, its `related` member alone parsed.
    private static func listedEntities(_ s: Statement) -> [EntityKey] {
        let text = s.recordText(0).selectingMembers { $0 == "related" ? .keep : .drop }
        return text.flatMap { JSONValue.encoded($0).object }.map(EntityRecord.related(of:)) ?? []
    }

    /// The id of an entity type in `entity_type`; nil when no record listed an entity of it (unless `create`).
    func entityTypeID(_ type: String, create: Bool = false) throws -> Int64? {
        let select = try db.cached("SELECT id FROM entity_type WHERE name = ?")
        try select.bind([.text(type)])
        defer { select.reset() }
        if try select.step() { return select.int(0) }
        guard create else { return nil }
        try db.run("INSERT INTO entity_type(name) VALUES (?)", [.text(type)])
        return db.lastInsertRowID
    }

    /// Writes the `relation` rows of the entities a record lists. When it replaces a record, `old` is what that one
    /// listed (re-derived from its stored record): the rows of those it no longer lists are deleted, the others kept.
    func writeRelations(
        rowid: Int64, _ related: [EntityKey], replacing old: [EntityKey] = [], interned: InternedIDs = InternedIDs()
    ) throws {
        // Ids are compared as bytes, as `relation` compares them (types are ASCII).
        let listed = Set(related.map(RelationTarget.init)), written = Set(old.map(RelationTarget.init))
        try deleteRelations(rowid: rowid, old.filter { !listed.contains(RelationTarget($0)) })
        let insert = try db.cached("INSERT OR IGNORE INTO relation(type, id, entity) VALUES (?, ?, ?)")
        for key in related where !written.contains(RelationTarget(key)) {
            let type: Int64
            let name = Array(key.type.utf8)
            if let known = interned.entityTypes[name] {
                type = known
            } else {
                type = try entityTypeID(key.type, create: true)!
                interned.entityTypes[name] = type
            }
            try insert.bind([.integer(type), .text(key.id), .integer(rowid)])
            while try insert.step() {}
        }
    }

    /// Deletes the `relation` rows an entity's record wrote for these listed entities.
    func deleteRelations(rowid: Int64, _ listed: [EntityKey]) throws {
        guard !listed.isEmpty else { return }
        let delete = try db.cached("DELETE FROM relation WHERE type = ? AND id = ? AND entity = ?")
        for key in listed {
            guard let type = try entityTypeID(key.type) else { continue }
            try delete.bind([.integer(type), .text(key.id), .integer(rowid)])
            while try delete.step() {}
        }
    }
}

/// A listed entity as `relation` keys it: the id's bytes (Swift compares strings by canonical equivalence).
private struct RelationTarget: Hashable {
    var type: String
    var id: [UInt8]
    init(_ key: EntityKey) {
        type = key.type
        id = Array(key.id.utf8)
    }
}
