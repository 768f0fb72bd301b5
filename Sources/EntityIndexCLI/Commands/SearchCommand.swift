import EntityIndex
import EntityIndexPipe
import JSON

/// `entityidx search QUERY`: full-text search (`entities(matching:)`).
struct SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search", abstract: "Search entities by text, best first",
        usage: "entityidx search QUERY… [--type T] [--limit N] [--filter 'PROP OP VALUE']… [--explain] [--highlight] [--json]",
        options: [
            ("type=", "only entities of this type"),
            ("limit=", "at most N results (default 20)"),
            ("filter=", "a property filter that must hold, e.g. 'status eq shipped' (repeatable)"),
            ("explain", "show each result's ranking tiers"),
            ("highlight", "show the matched spans of each field"),
        ],
        discussion: """
            Every word must match; the last one matches as a prefix unless the query ends with a space. Case, width
            and accents are ignored; CJK text matches inside longer runs; ids match as typed, without separators or
            by their number. When nothing matches, longer words may match with a typo, and a part of an id or
            code with a digit finds it (9444 finds K83913.39F29.59444AT). Quote a query that starts with '-'
            after '--': entityidx search -- -cafe
            """)

    var request: SearchRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing QUERY", usage: Self.spec.usage) }
        request = SearchRequest(
            query: arguments.positionals.joined(separator: " "), type: arguments.value("type"),
            filters: try arguments.all("filter").map { text throws(UsageError) in try FilterSyntax.parse(text, usage: Self.spec.usage) },
            explain: arguments.flag("explain"), highlight: arguments.flag("highlight"))
        if let limit = try arguments.limit(usage: Self.spec.usage) { request.limit = limit }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.run(request) { results in
            Output.entities(results, in: context, numbered: true) { [$0.score.map { Output.decimal($0) } ?? ""] }
            for e in results {
                if let explain = e.explanation { context.print("  \(e.key): \(JSONWriter.string(explain))") }
                for span in e.highlights ?? [] { context.print("  \(e.key) \(span.field): [\(span.text)] at \(span.start)") }
            }
        }
        return 0
    }
}

/// `--filter 'PROP OP VALUE'`: the value is JSON when it parses as JSON, else a string.
enum FilterSyntax {
    static func parse(_ text: String, usage: String) throws(UsageError) -> PropertyFilter {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count == 3 else {
            throw UsageError("--filter needs 'PROPERTY OP VALUE', e.g. 'total ge 10'; got \"\(text)\"", usage: usage)
        }
        guard let op = PropertyFilter.Op(rawValue: String(parts[1])) else {
            let ops = PropertyFilter.Op.allCases.map(\.rawValue).joined(separator: " ")
            throw UsageError("--filter operator \"\(parts[1])\" is not one of: \(ops)", usage: usage)
        }
        let raw = String(parts[2])
        return PropertyFilter(property: String(parts[0]), op: op, value: (try? JSONParser().parse(raw)) ?? .string(raw))
    }
}
