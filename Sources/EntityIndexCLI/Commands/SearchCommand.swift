import EntityIndex
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

    var params: JSONObject

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else { throw UsageError("missing QUERY", usage: Self.spec.usage) }
        params = JSONObject([("query", .string(arguments.positionals.joined(separator: " ")))])
        if let type = arguments.value("type") { params["type"] = .string(type) }
        if let limit = try arguments.int("limit", range: 0...EntityStore.maxResults, usage: Self.spec.usage) { params["limit"] = JSONValue(limit) }
        let filters = try arguments.all("filter").map { text throws(UsageError) in try FilterSyntax.parse(text, usage: Self.spec.usage) }
        if !filters.isEmpty { params["filters"] = .array(filters) }
        if arguments.flag("explain") { params["explain"] = true }
        if arguments.flag("highlight") { params["highlight"] = true }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let result = try context.call("search", .object(params))
        context.emit(result) { result in
            Output.entities(result, in: context, extra: ["score"], numbered: true)
            for e in result["entities"]?.array ?? [] {
                if let explain = e["explain"] {
                    context.print("  \(e["type"]?.string ?? "")/\(e["id"]?.string ?? ""): \(JSONWriter.string(explain))")
                }
                for span in e["highlights"]?.array ?? [] {
                    context.print("  \(e["type"]?.string ?? "")/\(e["id"]?.string ?? "") \(span["field"]?.string ?? ""): [\(span["text"]?.string ?? "")] at \(span["start"].map(Output.display) ?? "")")
                }
            }
        }
        return 0
    }
}

/// `--filter 'PROP OP VALUE'`: the value is JSON when it parses as JSON, else a string.
enum FilterSyntax {
    static func parse(_ text: String, usage: String) throws(UsageError) -> JSONValue {
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count == 3 else {
            throw UsageError("--filter needs 'PROPERTY OP VALUE', e.g. 'total ge 10'; got \"\(text)\"", usage: usage)
        }
        let raw = String(parts[2])
        let value = (try? JSONParser().parse(raw)) ?? .string(raw)
        return ["property": .string(String(parts[0])), "op": .string(String(parts[1])), "value": value]
    }
}
