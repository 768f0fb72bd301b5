import SQLite

extension EntityStore {
    /// Declares property types for an entity type, and reindexes its entities so that the declaration applies.
    public func declare(type: String, _ properties: [PropertyDeclaration]) throws(EntityIndexError) {
        do {
            try write {
                // The type's entries go first, with the text the old declarations gave them.
                try deleteIndexEntries(where: "e.type = ?", [.text(type)])
                for p in properties {
                    try db.run(
                        """
                        INSERT INTO property_decl(type, name, kind, sortable, indexing_key) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(type, name) DO UPDATE SET kind = excluded.kind, sortable = excluded.sortable,
                            indexing_key = excluded.indexing_key
                        """,
                        [
                            .text(type), .text(p.name), .text(p.kind.rawValue), SQLValue(p.sortable),
                            SQLValue(p.indexingKey),
                        ])
                }
                try db.run("DELETE FROM property_kind WHERE type = ?", [.text(type)])
                try rederive(type: type)
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "declaring properties")
        }
    }

    /// The declared properties of every type, ordered by type and name.
    public func allDeclarations() throws(EntityIndexError) -> [TypeDeclarations] {
        do {
            var result: [TypeDeclarations] = []
            for (type, declaration) in try db.rows(
                "SELECT type, name, kind, sortable, indexing_key FROM property_decl ORDER BY type, name", [],
                { s in
                    (
                        s.text(0),
                        PropertyDeclaration(
                            name: s.text(1), kind: .init(rawValue: s.text(2)) ?? .string,
                            sortable: s.int(3) != 0, indexingKey: s.optionalText(4))
                    )
                })
            {
                if result.last?.type == type {
                    result[result.count - 1].properties.append(declaration)
                } else {
                    result.append(TypeDeclarations(type: type, properties: [declaration]))
                }
            }
            return result
        } catch {
            throw EntityIndexError.wrap(error, doing: "reading declarations")
        }
    }
}
