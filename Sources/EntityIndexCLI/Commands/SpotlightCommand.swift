import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx spotlight QUERY`: a Core Spotlight query string (`CSSearchQuery`).
struct SpotlightCommand: Command {
    static let spec = CommandSpec(
        name: "spotlight", abstract: "Run a Core Spotlight query string (CSSearchQuery)",
        usage: "entityidx spotlight QUERY [--type T]… [--limit N] [--fetch ATTR,…] [--fields F,…] [--json]",
        options: [
            ("type=", "only entities of this type \(SearchCommand.union)"),
            ("limit=", "at most N results (default \(SpotlightRequest.defaultLimit))"),
            ("fetch=", "return only the type, id and these attributes (fetchAttributes), comma-separated"),
            CommandSpec.fieldsOption,
        ],
        discussion: """
            The query language of CSSearchQuery: title == "Paris*"cd && InRange(lastUsedDate, $time.today(-7),
            $time.now). Operators == (or =) != < > <= >=, InRange(attr, min, max), && (binds tighter) and ||,
            parentheses; strings in single or double quotes with * wildcards and \\ escapes, modifiers c (case),
            d (accents), w (words), t (search tokens); numbers; dates as seconds since 2001-01-01 or $time.now,
            .today, .yesterday, .this_week, .this_month, .this_year, .last_week, each with (±n), and
            $time.iso(2026-03-02). $time is evaluated at --now. Attribute names are listed in the README; an
            attribute no entity has matches nothing. Results come in the order of the index that finds them.
            An invalid query exits with status 1 and names the character where it went wrong.
            """, repeatable: ["type"], literalExample: "spotlight -- rankingHint == -1")

    var request: SpotlightRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing QUERY", usage: Self.spec.usage) }
        request = SpotlightRequest(query: arguments.positionals.joined(separator: " "), types: arguments.all("type"))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
        if let fetch = arguments.value("fetch") {
            let names = fetch.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
            guard !names.contains(where: \.isEmpty) else {
                throw UsageError(
                    "--fetch needs attribute names separated by commas, e.g. title,keywords", usage: Self.spec.usage)
            }
            request.fetchAttributes = names
        }
        request.fields = try arguments.fields(usage: Self.spec.usage)
        if request.fields != nil && request.fetchAttributes != nil {
            throw UsageError(
                "--fields and --fetch do not go together: give record fields (--fields) or Spotlight attributes (--fetch)",
                usage: Self.spec.usage)
        }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: request.types)
        try context.run(request) { results in
            guard let fetched = request.fetchAttributes else {
                return Output.entities(results, in: context, fields: request.fields)
            }
            if results.isEmpty && context.stderrIsTerminal { context.printError("no entities") }
            Output.table(
                results.map { e in
                    ["\(e.key)"]
                        + fetched.map { name in
                            e.record[name].map { "\(name)=" + Output.cell(Output.display($0), 40, in: context) } ?? ""
                        }
                }, in: context)
        }
        return 0
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
