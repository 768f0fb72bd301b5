import SQLite

extension EntityStore {
    /// Whether the index knows `type`: an entity has it (expired ones count) or it was declared.
    ///
    /// The command line checks a `--type` with it, so that a misspelt type is an error and not an empty answer.
    public func knowsType(_ type: String) throws(EntityIndexError) -> Bool {
        do {
            let sql = """
                SELECT EXISTS(SELECT 1 FROM entity WHERE type = ?1) OR EXISTS(SELECT 1 FROM property_decl WHERE type = ?1)
                    OR EXISTS(SELECT 1 FROM type_setting WHERE type = ?1)
                """
            return try db.scalar(sql, [.text(type)])?.int == 1
        } catch {
            throw EntityIndexError.wrap(error, doing: "looking up the entity type \(type)")
        }
    }

    /// The entity types the index knows, sorted: those of its entities (expired ones included) and those declared.
    public func entityTypes() throws(EntityIndexError) -> [String] {
        do {
            let sql = "SELECT type FROM entity UNION SELECT type FROM property_decl UNION SELECT type FROM type_setting"
            return try db.rows(sql + " ORDER BY 1") { s in
                s.text(0)
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "listing the entity types")
        }
    }
}
