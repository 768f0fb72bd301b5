import EntityIndex
import JSON

/// A usage error: exit 64 with the command's usage line on stderr.
public struct UsageError: Error, Sendable {
    public var message: String
    public var usage: String?
    public init(_ message: String, usage: String? = nil) {
        self.message = message
        self.usage = usage
    }
}

/// What a command accepts: its options (with or without a value) and its help.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var usage: String
    /// Option name (without dashes) → help text; names ending in "=" take a value.
    public var options: [(String, String)]
    public var discussion: String
    /// Value options that may be given more than once (their values add up); any other is given once.
    public var repeatable: Set<String> = []
    /// For a command whose words may start with '-': an example of `--`, after which every word is taken literally
    /// (`search -- --limit`). A command without one refuses `--`, so that no option quietly becomes a word.
    public var literalExample: String? = nil

    var valueOptions: Set<String> { Set(options.map(\.0).filter { $0.hasSuffix("=") }.map { String($0.dropLast()) }) }
    var flagOptions: Set<String> { Set(options.map(\.0).filter { !$0.hasSuffix("=") }) }

    public var help: String {
        var text = "\(abstract)\n\nUsage: \(usage)\n"
        let all = options + CommandSpec.globalOptions
        if !all.isEmpty {
            text += "\nOptions:\n"
            let rows = all.map { name, help in
                name.hasSuffix("=") ? ("--\(name.dropLast()) <value>", help) : ("--\(name)", help)
            }
            let width = rows.map(\.0.count).max() ?? 0
            for (left, help) in rows {
                text += "  " + left + String(repeating: " ", count: width - left.count + 2) + help + "\n"
            }
        }
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        if let literalExample {
            text +=
                "\nWords after -- are taken literally, even those that start with '-': entityidx \(literalExample)\n"
        }
        return text
    }

    /// `--fields`, for the commands that return entities.
    static let facetOption = (
        "facet=",
        "count every match's values of this property, or of type or domain, shown after the results (repeatable)"
    )

    static let fieldsOption = (
        "fields=",
        "only these fields of each entity, comma-separated: title,subtitle,properties.total (type and id always)"
    )

    static let globalOptions: [(String, String)] = [
        ("db=", "the database file (default: $ENTITYIDX_DB, else ./entityidx.sqlite)"),
        ("now=", "fix the clock (ISO-8601 with a zone), for reproducible expiry and recency"),
        ("json", "print the pipe's result object as JSON"),
        ("help", "show this help"),
    ]
}

/// Parsed command-line arguments: options anywhere; `--` ends options where the command says so.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []

    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Parses `arguments` for `spec`, global options included.
    public static func parse(_ arguments: [String], spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let valueOptions = spec.valueOptions.union(["db", "now"])
        let flagOptions = spec.flagOptions.union(["json", "help"])
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || !arg.hasPrefix("--") || arg == "-" {
                if !optionsEnded, arg.hasPrefix("-"), arg.count > 1, arg != "-" {
                    if arg == "-h" { parsed.flags.insert("help"); continue }
                    let hint = spec.literalExample == nil ? "" : " (use -- before an argument that starts with '-')"
                    throw UsageError("unknown option \(Quoting.unquoted(arg))\(hint)", usage: spec.usage)
                }
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" {
                guard spec.literalExample != nil else {
                    throw UsageError(
                        "\(spec.name) takes no words after --: it has no argument that could be taken for an option",
                        usage: spec.usage)
                }
                optionsEnded = true
                continue
            }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if valueOptions.contains(name) {
                guard let value = inline ?? (i < arguments.count ? arguments[i] : nil) else {
                    throw UsageError("option --\(Quoting.unquoted(name)) needs a value", usage: spec.usage)
                }
                if inline == nil { i += 1 }
                if parsed.values[name] != nil && !spec.repeatable.contains(name) && spec.valueOptions.contains(name) {
                    throw UsageError(Self.repeated(name, in: spec), usage: spec.usage)
                }
                parsed.values[name, default: []].append(value)
            } else if flagOptions.contains(name) {
                guard inline == nil else {
                    throw UsageError("option --\(Quoting.unquoted(name)) takes no value", usage: spec.usage)
                }
                parsed.flags.insert(name)
            } else {
                var message = "unknown option --\(Quoting.unquoted(name)) for \(spec.name)"
                let known = (valueOptions.union(flagOptions)).sorted()
                if let near = Suggestion.closest(to: name, in: known) { message += "; did you mean --\(near)?" }
                throw UsageError(message, usage: spec.usage)
            }
        }
        return parsed
    }

    /// `--type is given twice; get answers one type at a time (run it once for each type)`.
    static func repeated(_ name: String, in spec: CommandSpec) -> String {
        if name == "type" {
            return "--type is given twice; \(spec.name) answers one type at a time (run it once for each type)"
        }
        return "--\(name) is given twice; \(spec.name) takes one"
    }

    /// An integer option within a range.
    public func int(_ name: String, range: ClosedRange<Int>, usage: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError(
                "--\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), got \(Quoting.quoted(text))",
                usage: usage)
        }
        return v
    }

    /// `--fields title,subtitle,properties.total`: nil when not given.
    public func fields(usage: String) throws(UsageError) -> FieldSelection? {
        guard let text = value("fields") else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        }
        for name in names {
            if let problem = FieldSelection.problem(of: name) {
                throw UsageError("--fields \(problem)", usage: usage)
            }
        }
        do { return try FieldSelection(names) } catch { throw UsageError(error.message, usage: usage) }
    }

    /// `--limit`, from 0 to the per-request maximum.
    public func limit(usage: String) throws(UsageError) -> Int? {
        try int("limit", range: 0...EntityStore.maxResults, usage: usage)
    }
}
