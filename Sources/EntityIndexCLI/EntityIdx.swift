import EntityIndex
import EntityIndexPipe
import JSON
import System

/// A subcommand: parse, then run through the context.
protocol Command {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Whether it writes, and so may create the index; a reading command on a missing index is an error.
    var writes: Bool { get }
    func run(_ context: CommandContext) throws -> Int32
}

extension Command {
    var writes: Bool { false }
}

/// The `entityidx` command line.
public enum EntityIdx {
    public static let version = PipeSchema.serverVersion

    static var commands: [any Command.Type] {
        [
            IngestCommand.self, SearchCommand.self, CompleteCommand.self, GetCommand.self, SuggestCommand.self,
            AllCommand.self, QueryCommand.self, RelatedCommand.self, DeleteCommand.self, DonateCommand.self,
            ReindexCommand.self, StateCommand.self, DeclareCommand.self, StatsCommand.self, RebuildCommand.self,
            LintCommand.self, DrillCommand.self, TestCommand.self, ExportCommand.self, PipeCommand.self,
            MCPCommand.self,
            ServeCommand.self,
            SpotlightCommand.self, UserQueryCommand.self, TypesCommand.self, CompletionsCommand.self,
        ]
    }

    static let abstract = "a Spotlight-style entity index and query service (App Intents semantics)"

    static var usage: String {
        var text = "entityidx: \(abstract)\n\n"
        text += "Usage: entityidx [--db PATH] [--now ISO8601] COMMAND [ARGS…] [--json]\n"
        text += "       entityidx --version | -V\n\nCommands:\n"
        let width = commands.map { $0.spec.name.count }.max() ?? 0
        for c in commands {
            text +=
                "  \(c.spec.name)" + String(repeating: " ", count: width - c.spec.name.count + 2) + c.spec.abstract
                + "\n"
        }
        text += "  help" + String(repeating: " ", count: width - 2) + "Show help for a command\n"
        text += "\nRun 'entityidx help COMMAND' for a command's options.\n"
        text +=
            "Exit status: 0 success, 1 runtime error, 2 records skipped (ingest --skip-invalid), 64 usage error,\n"
        text += "128+N ended by signal N ('entityidx help --man' has the details).\n"
        return text
    }

    static func command(named name: String) -> (any Command.Type)? { commands.first { $0.spec.name == name } }

    /// `unknown command "serch"; did you mean "search"?`
    static func unknownCommand(_ name: String) -> UsageError {
        var message = "unknown command \(Quoting.quoted(name))"
        if let near = Suggestion.closest(to: name, in: commands.map { $0.spec.name } + ["help"]) {
            message += "; did you mean \(Quoting.quoted(near))?"
        }
        return UsageError(message, usage: "entityidx COMMAND [ARGS…] (run 'entityidx help' for the commands)")
    }

    /// Runs the command line; returns the exit status.
    public static func main(
        _ arguments: [String], output: @escaping (String) -> Void = { Platform.write(1, $0) },
        errorOutput: @escaping (String) -> Void = { Platform.write(2, $0) }
    ) -> Int32 {
        // `--json` before `--` asks for errors as JSON too.
        let json = arguments.prefix { $0 != "--" }.contains("--json")
        func fail(_ error: UsageError) -> Int32 {
            if json {
                errorOutput(JSONWriter.string(error.json) + "\n")
            } else {
                errorOutput("error: \(error.message)\nUsage: \(error.usage ?? "entityidx COMMAND [ARGS…]")\n")
            }
            return 64
        }
        // The command is the first argument that is not a global option or its value.
        var rest = arguments
        var commandIndex: Int?
        var i = 0
        while i < rest.count {
            let a = rest[i]
            if a == "--db" || a == "--now" { i += 2; continue }
            if a == "--" { break }
            if a.hasPrefix("-") && a != "-" { i += 1; continue }
            commandIndex = i
            break
        }
        guard let index = commandIndex else {
            let options = rest.prefix { $0 != "--" }
            if options.contains("--version") || options.contains("-V") { output("entityidx \(version)\n"); return 0 }
            if options.contains("--help") || options.contains("-h") { output(usage); return 0 }
            errorOutput(usage)
            return 64
        }
        let name = rest.remove(at: index)
        if name == "help" {
            if rest.contains("--man") {
                output(Manual.page)
                return 0
            }
            guard let topic = rest.first(where: { !$0.hasPrefix("-") }) else {
                output(usage)
                return 0
            }
            guard let command = command(named: topic) else { return fail(unknownCommand(topic)) }
            output(command.spec.help)
            return 0
        }
        guard let command = command(named: name) else { return fail(unknownCommand(name)) }
        do {
            let parsed = try ParsedArguments.parse(rest, spec: command.spec)
            if parsed.flag("help") {
                output(command.spec.help)
                return 0
            }
            let context = try CommandContext(arguments: parsed, output: output, errorOutput: errorOutput)
            let instance = try command.init(parsed)
            context.mayCreateIndex = instance.writes
            return try instance.run(context)
        } catch let error as UsageError {
            return fail(UsageError(error.message, usage: error.usage ?? command.spec.usage))
        } catch let error as EntityIndexError {
            errorOutput(json ? JSONWriter.string(error.json) + "\n" : "error: \(error.message)\n")
            // Stopped by a signal: the status tells which, as for a process the signal ended.
            if error.code == .interrupted, let signal = StopSignal.received { return 128 + signal }
            return 1
        } catch {
            errorOutput(
                json ? JSONWriter.string(EntityIndexError(.storage, "\(error)").json) + "\n" : "error: \(error)\n")
            return 1
        }
    }
}

extension UsageError {
    /// The error as the pipe would write an invalid-params error, with the usage line in `data`.
    var json: JSONValue {
        var data = JSONObject([("code", "usage_error")])
        if let usage { data["usage"] = .string(usage) }
        return .object(
            JSONObject([("code", JSONValue(-32602)), ("message", .string(message)), ("data", .object(data))]))
    }
}
