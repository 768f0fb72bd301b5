import EntityIndex
import JSON

/// `entityidx completions bash|zsh|fish`: a completion script for the shell.
struct CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions", abstract: "Print the shell completion script for bash, zsh or fish",
        usage: "entityidx completions bash|zsh|fish", options: [],
        discussion: """
            bash: entityidx completions bash > ~/.local/share/bash-completion/completions/entityidx
            zsh:  entityidx completions zsh > \"${fpath[1]}/_entityidx\"
            fish: entityidx completions fish > ~/.config/fish/completions/entityidx.fish
            make install puts all three where the shells look.
            """)

    var shell: Completions.Shell

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else {
            throw UsageError("completions takes one shell: bash, zsh or fish", usage: Self.spec.usage)
        }
        guard let shell = Completions.Shell(rawValue: arguments.positionals[0]) else {
            var message = "unknown shell \(Quoting.quoted(arguments.positionals[0])) (bash, zsh or fish)"
            if let near = Suggestion.closest(
                to: arguments.positionals[0], in: Completions.Shell.allCases.map(\.rawValue))
            {
                message += "; did you mean \(Quoting.quoted(near))?"
            }
            throw UsageError(message, usage: Self.spec.usage)
        }
        self.shell = shell
    }

    func run(_ context: CommandContext) throws -> Int32 {
        context.output(Completions.script(shell))
        return 0
    }
}
