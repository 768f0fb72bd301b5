import EntityIndex
import EntityIndexPipe

/// `entityidx pipe`: the JSON-RPC 2.0 backend on stdin/stdout.
struct PipeCommand: Command {
    static let spec = CommandSpec(
        name: "pipe", abstract: "Serve JSON-RPC 2.0 requests, one per line, on stdin/stdout",
        usage: "entityidx pipe",
        options: [],
        discussion: """
            One JSON request per line in, one response per line out, in order, flushed at once. Notifications get no
            response; a batch (array) gets an array. Lines longer than 64 MiB get an error and are skipped. Ends at
            end of input, or after the current request on SIGINT/SIGTERM (an open batch is rolled back).
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("pipe takes no arguments", usage: Self.spec.usage) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let server = PipeServer(handler: try context.handler())
        let status = server.run()
        return status
    }
}
