import EntityIndex
import EntityIndexPipe
import JSON

/// A subcommand: parse, then run through the context.
protocol Command {
    static var spec: CommandSpec { get }
    init(_ arguments: ParsedArguments) throws(UsageError)
    func run(_ context: CommandContext) throws -> Int32
}

/// The `entityidx` command line.
public enum EntityIdx {
    public static let version = PipeSchema.serverVersion

    static var commands: [any Command.Type] {
        [
        IngestCommand.self, SearchCommand.self, CompleteCommand.self, GetCommand.self, SuggestCommand.self, AllCommand.self,
        QueryCommand.self, RelatedCommand.self, DeleteCommand.self, DonateCommand.self, ReindexCommand.self,
        StateCommand.self, DeclareCommand.self, StatsCommand.self, RebuildCommand.self, LintCommand.self, DrillCommand.self,
        PipeCommand.self, MCPCommand.self, SpotlightCommand.self, UserQueryCommand.self,
        ]
    }

    static var usage: String {
        var text = "entityidx: a Spotlight-style entity index and query service (App Intents semantics)\n\n"
        text += "Usage: entityidx [--db PATH] [--now ISO8601] COMMAND [ARGS…] [--json]\n\nCommands:\n"
        let width = commands.map { $0.spec.name.count }.max() ?? 0
        for c in commands {
            text += "  \(c.spec.name)" + String(repeating: " ", count: width - c.spec.name.count + 2) + c.spec.abstract + "\n"
        }
        text += "  help" + String(repeating: " ", count: width - 2) + "Show help for a command\n"
        text += "\nRun 'entityidx help COMMAND' for a command's options.\n"
        text += "Exit status: 0 success, 1 runtime error, 64 usage error.\n"
        return text
    }

    /// Runs the command line; returns the exit status.
    public static func main(_ arguments: [String], output: @escaping (String) -> Void = { Platform.write(1, $0) },
                            errorOutput: @escaping (String) -> Void = { Platform.write(2, $0) }) -> Int32 {
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
            if rest.contains("--version") { output("entityidx \(version)\n"); return 0 }
            if rest.contains("--help") || rest.contains("-h") { output(usage); return 0 }
            errorOutput(usage)
            return 64
        }
        let name = rest.remove(at: index)
        if name == "help" {
            if let topic = rest.first(where: { !$0.hasPrefix("-") }) {
                guard let command = commands.first(where: { $0.spec.name == topic }) else {
                    errorOutput("error: unknown command '\(topic)'\n\n" + usage)
                    return 64
                }
                output(command.spec.help)
            } else {
                output(usage)
            }
            return 0
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            errorOutput("error: unknown command '\(name)'\n\n" + usage)
            return 64
        }
        do {
            let parsed = try ParsedArguments.parse(rest, spec: command.spec)
            if parsed.flag("help") {
                output(command.spec.help)
                return 0
            }
            let context = try CommandContext(arguments: parsed, output: output, errorOutput: errorOutput)
            let instance = try command.init(parsed)
            return try instance.run(context)
        } catch let error as UsageError {
            errorOutput("error: \(error.message)\nUsage: \(error.usage ?? command.spec.usage)\n")
            return 64
        } catch let error as EntityIndexError {
            errorOutput("error: \(error.message)\n")
            return 1
        } catch {
            errorOutput("error: \(error)\n")
            return 1
        }
    }
}
