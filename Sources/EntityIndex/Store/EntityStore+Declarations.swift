import SQLite

extension EntityStore {
    /// Declares property types for an entity type, and how its text matches (`stemming`, `transliteration`; nil: as
    /// it was), and reindexes its entities so that the declaration applies.
    public func declare(
        type: String, _ properties: [PropertyDeclaration], stemming: Stemming? = nil,
        transliteration: Transliteration? = nil
    ) throws(EntityIndexError) {
        if transliteration == .latin && !Transliteration.isAvailable {
            throw EntityIndexError(
                .invalidParams,
                "declare: transliterate latin needs ICU's Any-Latin and Latin-ASCII transforms, which this ICU "
                    + "(\(TextAnalyzer.icuVersion)) cannot build; install ICU with its transliteration data")
        }
        do {
            try write { writer in
                // The type's records as the old declarations indexed them.
                let old = try writer.preparer()
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
                try refuseStoredValues(type: type, properties)
                try db.run("DELETE FROM property_kind WHERE type = ?", [.text(type)])
                if stemming != nil || transliteration != nil {
                    // A setting not given stays as it was; a row whose settings are all `none` goes.
                    try db.run(
                        """
                        INSERT INTO type_setting(type, stemming, transliterate) VALUES (?1, coalesce(?2, 'none'),
                            coalesce(?3, 'none'))
                        ON CONFLICT(type) DO UPDATE SET stemming = coalesce(?2, stemming),
                            transliterate = coalesce(?3, transliterate)
                        """,
                        [
                            .text(type), stemming.map { .text($0.rawValue) } ?? .null,
                            transliteration.map { .text($0.rawValue) } ?? .null,
                        ])
                    try db.run(
                        "DELETE FROM type_setting WHERE type = ? AND stemming = 'none' AND transliterate = 'none'",
                        [.text(type)])
                }
                // Each entity of the type replaces itself: the old declarations' rows go, the new ones' come.
                let rows = try db.rows("SELECT rowid, record FROM entity WHERE type = ?", [.text(type)]) {
                    ($0.int(0), $0.record(1))
                }
                let stemming = (old.stemmed.contains(type), try stemmedTypes().contains(type))
                let latin = (old.transliterated.contains(type), try transliteratedTypes().contains(type))
                let declarations = (old.declarations(for: type), try self.declarations(for: type))
                for (rowid, json) in rows {
                    try writer.apply(
                        .replace(
                            rowid: rowid,
                            old: AnalyzedRecord(
                                stored: json, declarations: declarations.0, stemming: stemming.0,
                                transliterating: latin.0),
                            new: AnalyzedRecord(
                                stored: json, declarations: declarations.1, stemming: stemming.1,
                                transliterating: latin.1)))
                }
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "declaring properties")
        }
    }

    /// Refuses declarations that stored entities of `type` do not fit, naming them: a declaration keeps its kind, so
    /// a value of another kind already stored would otherwise drop out of every filter without a word.
    private func refuseStoredValues(type: String, _ properties: [PropertyDeclaration]) throws {
        let declarations = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        guard !declarations.isEmpty else { return }
        var found: [String] = []
        var count = 0
        let rows = try db.rows("SELECT id, record FROM entity WHERE type = ? ORDER BY id", [.text(type)]) {
            ($0.text(0), $0.record(1))
        }
        for (id, record) in rows {
            guard case .object(let props)? = record["properties"] else { continue }
            for problem in PropertyDeclaration.problems(in: props, declarations: declarations) {
                count += 1
                if found.count < 3 { found.append("\(type)/\(id): field \"\(problem.field)\" \(problem.problem)") }
            }
        }
        guard count > 0 else { return }
        var message = "declare: stored entities hold values the declaration refuses: " + found.joined(separator: "; ")
        if count > found.count { message += "; and \(count - found.count) more" }
        message += ". Push them with values of the declared kind, or delete them, then declare again"
        throw EntityIndexError(.invalidParams, message)
    }

    /// The declared properties and text settings of every type, ordered by type and name.
    public func allDeclarations() throws(EntityIndexError) -> [TypeDeclarations] {
        do {
            var result: [TypeDeclarations] = []
            let stemming = try typeStemming(), latin = try typeTransliteration()
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
                    result.append(
                        TypeDeclarations(
                            type: type, properties: [declaration], stemming: stemming[type] ?? .none,
                            transliteration: latin[type] ?? .none))
                }
            }
            for type in Set(stemming.keys).union(latin.keys) where !result.contains(where: { $0.type == type }) {
                result.append(
                    TypeDeclarations(
                        type: type, properties: [], stemming: stemming[type] ?? .none,
                        transliteration: latin[type] ?? .none))
            }
            return result.sorted { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
        } catch {
            throw EntityIndexError.wrap(error, doing: "reading declarations")
        }
    }

    /// The stemming of each type that has one.
    ///
    /// A stemmer this build does not know (declared by a newer one) is left out, as if the type had none, as in
    /// `anyTypeStemmed()`.
    func typeStemming() throws -> [String: Stemming] {
        var result: [String: Stemming] = [:]
        for (type, name) in try db.rows("SELECT type, stemming FROM type_setting", [], { ($0.text(0), $0.text(1)) }) {
            if let stemming = Stemming(rawValue: name) { result[type] = stemming }
        }
        return result
    }

    /// The types whose text is also indexed by its stems.
    func stemmedTypes() throws -> Set<String> {
        Set(try typeStemming().filter { $0.value != .none }.keys)
    }

    /// Whether any type is stemmed: a search then also looks for its words' stems. (Only the stemmers this build
    /// knows count, as in `stemmedTypes()`.)
    func anyTypeStemmed() throws -> Bool {
        try db.scalar(Self.anyTypeStemmedSQL)?.int == 1
    }

    /// The transliteration of each type that has one (a setting this build does not know is left out).
    func typeTransliteration() throws -> [String: Transliteration] {
        var result: [String: Transliteration] = [:]
        for (type, name) in try db.rows(
            "SELECT type, transliterate FROM type_setting WHERE transliterate <> 'none'", [],
            { ($0.text(0), $0.text(1)) })
        {
            if let latin = Transliteration(rawValue: name) { result[type] = latin }
        }
        return result
    }

    /// The types whose words of other scripts are also indexed in Latin letters.
    func transliteratedTypes() throws -> Set<String> {
        Set(try typeTransliteration().filter { $0.value != .none }.keys)
    }

    /// Whether any type is transliterated: a search then also looks for its Latin words' marked forms.
    func anyTypeTransliterated() throws -> Bool {
        try db.scalar("SELECT EXISTS (SELECT 1 FROM type_setting WHERE transliterate = 'latin')")?.int == 1
    }

    private static let anyTypeStemmedSQL =
        "SELECT EXISTS (SELECT 1 FROM type_setting WHERE stemming IN ("
        + Stemming.allCases.filter { $0 != .none }.map { "'\($0.rawValue)'" }.joined(separator: ", ") + "))"
}
