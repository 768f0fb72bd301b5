import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx search QUERY`: full-text search (`entities(matching:)`).
struct SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search", abstract: "Search entities by text, best first",
        usage:
            "entityidx search QUERY… [--type T]… [--limit N] [--cursor C] [--filter 'PROP OP VALUE']… [--matching M] [--explain] [--highlight] [--facet NAME]… [--fields F,…] [--json]",
        options: [
            ("type=", "only entities of this type \(Self.union)"),
            ("limit=", "at most N results (default 20)"),
            ("cursor=", "continue at this cursor (the nextCursor of the previous page of the same search)"),
            ("filter=", "a property filter that must hold, e.g. 'status eq shipped' (repeatable)"),
            Self.matchingOption,
            ("explain", "show each result's ranking tiers"),
            ("highlight", "show the matched spans of each field"),
            CommandSpec.facetOption,
            CommandSpec.fieldsOption,
        ],
        discussion: """
            Every word must match; the last one matches as a prefix unless the query ends with a space. Case, width
            and accents are ignored; CJK text matches inside longer runs; ids match as typed, without separators or
            by their number. When nothing matches, words of five letters or more (inside compounds too) may match
            with typos, and a part of an id or code with a digit finds it (9444 finds K83913.39F29.59444AT). With
            --matching frequency or last, when fewer than the limit match every word, words are left out one at a
            time (the most frequent, or the last, first; never the only one) and what fewer words find follows,
            ranked after what more words found (--explain: words 2/3). When more results follow, stderr says how
            many match (exact up to 100) and the --cursor of the next page (total and nextCursor with --json);
            pages reach the first 10,000 results.
            """, repeatable: ["type", "filter", "facet"], literalExample: "search -- --limit")

    /// How the help of a `--type` that takes several says so.
    static let union = "(repeatable: their union)"

    static let matchingOption = (
        "matching=", "all (default): every word must match; frequency or last: fewer words when fewer match them all"
    )

    /// `--matching all|frequency|last`: nil when not given.
    static func matching(_ arguments: ParsedArguments, usage: String) throws(UsageError) -> WordMatching? {
        guard let name = arguments.value("matching") else { return nil }
        guard let matching = WordMatching(rawValue: name) else {
            throw UsageError(
                "--matching must be one of \(WordMatching.names), got \(Quoting.quoted(name))", usage: usage)
        }
        return matching
    }

    var request: SearchRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing QUERY", usage: Self.spec.usage) }
        request = SearchRequest(
            query: arguments.positionals.joined(separator: " "), types: arguments.all("type"),
            filters: try arguments.all("filter").map { text throws(UsageError) in
                try FilterSyntax.parse(text, usage: Self.spec.usage)
            },
            explain: arguments.flag("explain"), highlight: arguments.flag("highlight"),
            cursor: arguments.value("cursor"))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
        if let matching = try Self.matching(arguments, usage: Self.spec.usage) { request.matching = matching }
        request.fields = try arguments.fields(usage: Self.spec.usage)
        request.facets = arguments.all("facet")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: request.types)
        try context.run(request) { page in
            let results = page.entities
            let first = request.cursor.flatMap(SearchCommand.offset(of:)) ?? 0
            Output.entities(results, in: context, numbered: true, from: first + 1, fields: request.fields)
            if request.explain { explanations(results, in: context) }
            if request.highlight {
                var rows = [["entity", "field", "at", "matched"]]
                for e in results {
                    for span in e.highlights ?? [] {
                        rows.append([e.key.description, span.field, "\(span.start)–\(span.end)", span.text])
                    }
                }
                if rows.count > 1 {
                    context.print("")
                    Output.table(rows, in: context)
                }
            }
            Output.facets(page.facets, in: context)
            if let next = page.nextCursor {
                let total = (page.totalIsLowerBound ? "at least " : "") + Output.count(page.total, "match", "matches")
                context.printError("\(total): continue with --cursor \(next)")
            }
        }
        return 0
    }

    /// The position a search cursor starts at (`20-9f3a…` → 20).
    static func offset(of cursor: String) -> Int? {
        cursor.split(separator: "-").first.flatMap { Int($0) }
    }
}

/// The ranking tiers of each result as a table: one row per result, one column per tier (as the engine names them).
func explanations(_ results: [EntityResult], in context: CommandContext) {
    var columns: [String] = []
    for e in results {
        for key in e.explanation?.object?.keys ?? [] where !columns.contains(key) { columns.append(key) }
    }
    guard !columns.isEmpty else { return }
    var rows = [["entity"] + columns]
    for e in results {
        rows.append([e.key.description] + columns.map { key in e.explanation?[key].map(Output.display) ?? "" })
    }
    context.print("")
    Output.table(rows, in: context)
}

/// `--filter 'PROP OP VALUE'`: the value is JSON when it parses as JSON, else a string.
enum FilterSyntax {
    static func parse(_ text: String, usage: String) throws(UsageError) -> PropertyFilter {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count == 3 else {
            throw UsageError(
                "--filter needs 'PROPERTY OP VALUE', e.g. 'total ge 10'; got \(Quoting.quoted(text))", usage: usage)
        }
        guard let op = PropertyFilter.Op(rawValue: String(parts[1])) else {
            let ops = PropertyFilter.Op.allCases.map(\.rawValue).joined(separator: " ")
            throw UsageError("--filter operator \(Quoting.quoted(parts[1])) is not one of: \(ops)", usage: usage)
        }
        let raw = String(parts[2])
        return PropertyFilter(property: String(parts[0]), op: op, value: (try? JSONParser().parse(raw)) ?? .string(raw))
    }
}
