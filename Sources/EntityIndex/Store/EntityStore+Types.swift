import JSON
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

    /// Refuses a type the index does not know (`not_found`, with the closest known type and the list), so that a
    /// misspelt type is an error and not an empty answer. With `emptyIndexAnswers`, an index without any type
    /// lets every type through: there, an empty answer is the right one.
    public func checkKnown(types: [String], emptyIndexAnswers: Bool) throws(EntityIndexError) {
        for type in types where !(try knowsType(type)) {
            let known = try entityTypes()
            if known.isEmpty && emptyIndexAnswers { return }
            var message = "unknown type \(Quoting.quoted(type))"
            if let near = Suggestion.closest(to: type, in: known) {
                message += "; did you mean \(Quoting.quoted(near))?"
            }
            message +=
                known.isEmpty ? " (the index has no entities)" : " (the index has: \(Quoting.names(known)))"
            throw EntityIndexError(.notFound, message)
        }
    }
}
