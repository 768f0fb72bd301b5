import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx declare --type T NAME:KIND…`: property types for a type.
struct DeclareCommand: Command {
    static let spec = CommandSpec(
        name: "declare", abstract: "Declare property types of an entity type (or list declarations)",
        usage:
            "entityidx declare [--type T [--stemming english|none] [--transliterate latin|none] NAME:KIND[:unsortable][@indexingKey]…] [--json]",
        options: [
            ("type=", "the entity type to declare properties for"),
            ("stemming=", "english: the type's text also matches regular English inflections; none: words as written"),
            (
                "transliterate=",
                "latin: the type's words of other scripts also match by their Latin letters, Japanese by its readings; none: as written"
            ),
        ],
        discussion: """
            KIND is string, number, integer, boolean, date or strings. A date declared as such compares
            chronologically even when stored as an ISO string. @indexingKey names the Spotlight attribute the property
            is indexed as (displayName, alternateNames, keywords, contentDescription, … or a custom key), which sets
            its search weight. Example: entityidx declare --type order placedAt:date total:number note:string@contentDescription
            --stemming english makes the type's text match regular English inflections (candies and candy, boxes and
            box, running and run; Porter2 rules), off by default; the type's entities are indexed again. Example:
            entityidx declare --type recipe --stemming english
            --transliterate latin makes the type's words in Cyrillic, Greek, Arabic, Hebrew and other scripts (not
            Han, kana or Hangul) also match by their Latin transliteration (smirnov finds Смирнов, alexandros finds
            Αλέξανδρος), and Japanese in kanji or katakana by its readings in kana and Latin letters (まっちゃ and
            matcha find 抹茶ラテ), ranked after the words as written, off by default; the type's entities are indexed
            again.
            Example: entityidx declare --type person --transliterate latin
            Without --type, lists the declarations.
            """)

    /// nil: list the declarations.
    var request: DeclareRequest?

    var writes: Bool { request != nil }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard let type = arguments.value("type") else {
            guard
                arguments.positionals.isEmpty && arguments.value("stemming") == nil
                    && arguments.value("transliterate") == nil
            else {
                throw UsageError("declaring needs --type", usage: Self.spec.usage)
            }
            request = nil
            return
        }
        var stemming: Stemming?
        if let name = arguments.value("stemming") {
            guard let value = Stemming(rawValue: name) else {
                throw UsageError(
                    "unknown stemming \(Quoting.quoted(name)) (one of: \(Stemming.names))", usage: Self.spec.usage)
            }
            stemming = value
        }
        var transliteration: Transliteration?
        if let name = arguments.value("transliterate") {
            guard let value = Transliteration(rawValue: name) else {
                throw UsageError(
                    "unknown transliterate \(Quoting.quoted(name)) (one of: \(Transliteration.names))",
                    usage: Self.spec.usage)
            }
            transliteration = value
        }
        guard !arguments.positionals.isEmpty || stemming != nil || transliteration != nil else {
            throw UsageError("missing NAME:KIND (or --stemming, --transliterate)", usage: Self.spec.usage)
        }
        var properties: [PropertyDeclaration] = []
        for spec in arguments.positionals {
            var text = Substring(spec)
            var key: String?
            if let at = text.firstIndex(of: "@") {
                key = String(text[text.index(after: at)...])
                text = text[..<at]
            }
            let parts = text.split(separator: ":")
            guard parts.count == 2 || (parts.count == 3 && parts[2] == "unsortable") else {
                throw UsageError(
                    "expected NAME:KIND[:unsortable][@indexingKey], got \(Quoting.quoted(spec))", usage: Self.spec.usage
                )
            }
            guard let kind = PropertyDeclaration.Kind(rawValue: String(parts[1])) else {
                let kinds = PropertyDeclaration.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(
                    "unknown KIND \(Quoting.quoted(parts[1])) in \(Quoting.quoted(spec)) (kinds: \(kinds))",
                    usage: Self.spec.usage)
            }
            properties.append(
                PropertyDeclaration(name: String(parts[0]), kind: kind, sortable: parts.count == 2, indexingKey: key))
        }
        request = DeclareRequest(
            type: type, properties: properties, stemming: stemming, transliteration: transliteration)
    }

    func run(_ context: CommandContext) throws -> Int32 {
        guard let request else {
            try context.run(DeclarationsMethod()) { types in
                for t in types {
                    if t.stemming != .none { context.print("\(t.type)  stemming \(t.stemming.rawValue)") }
                    if t.transliteration != .none {
                        context.print("\(t.type)  transliterate \(t.transliteration.rawValue)")
                    }
                    for d in t.properties {
                        context.print(
                            "\(t.type).\(d.name)  \(d.kind.rawValue)\(d.sortable ? "" : " unsortable")\(d.indexingKey.map { " @" + $0 } ?? "")"
                        )
                    }
                }
            }
            return 0
        }
        try context.run(request) {
            var line = "declared \(Output.count($0, "property", "properties"))"
            if let stemming = request.stemming { line += ", stemming \(stemming.rawValue)" }
            if let latin = request.transliteration { line += ", transliterate \(latin.rawValue)" }
            context.print(line)
        }
        return 0
    }
}
