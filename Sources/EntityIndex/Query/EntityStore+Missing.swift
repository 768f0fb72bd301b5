/// The answer of `get`: the entities found and the ids that were not.
public struct GetResult: Sendable {
    /// The entities found, in the order of the ids asked, each once.
    public var entities: [EntityResult]
    /// The ids asked that have no entity (never ingested, deleted or expired), in the order asked, each once.
    public var missing: [EntityKey]

    public init(entities: [EntityResult], missing: [EntityKey]) {
        self.entities = entities
        self.missing = missing
    }
}

extension EntityStore {
    /// The entities of `type` with these ids (`get(type:ids:)`) and the ids that have none.
    ///
    /// A lookup that leaves ids out without a word is a silent wrong answer for a caller that expected them; the
    /// missing ids say which, so a caller can re-push or report them.
    public func lookup(type: String, ids: [String]) throws(EntityIndexError) -> GetResult {
        let entities = try get(type: type, ids: ids)
        // Ids are compared as bytes, as `get` compares them.
        let found = Set(entities.map { Array($0.key.id.utf8) })
        var seen = Set<[UInt8]>()
        var missing: [EntityKey] = []
        for id in ids {
            let bytes = Array(id.utf8)
            guard !found.contains(bytes), seen.insert(bytes).inserted else { continue }
            missing.append(EntityKey(type: type, id: id))
        }
        return GetResult(entities: entities, missing: missing)
    }
}
