import EntityIndex
import EntityIndexPipe

/// `entityidx pipe`: the JSON-RPC 2.0 backend on stdin/stdout.
struct PipeCommand: Command {
    static let spec = CommandSpec(
        name: "pipe", abstract: "Serve JSON-RPC 2.0 requests, one per line (or LSP-framed), on stdin/stdout",
        usage: "entityidx pipe [--max-line-bytes N]",
        options: [("max-line-bytes=", "the longest request line accepted (default 67108864, 64 MiB)")],
        discussion: """
            One JSON request per line in, one response per line out, in order, flushed at once. Notifications get no
            response; a batch (array) gets an array. Lines longer than 64 MiB get an error and are skipped. When the
            input starts with a Content-Length header, messages are LSP-framed both ways instead. rpc.discover
            returns the OpenRPC document (schema/openrpc.json). Ends at end of input, or after the current request
            on SIGINT/SIGTERM (an open batch is rolled back).
            """)

    var maxLineBytes: Int

    var writes: Bool { true }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("pipe takes no arguments", usage: Self.spec.usage) }
        maxLineBytes =
            try arguments.int("max-line-bytes", range: 1024...(1 << 30), usage: Self.spec.usage)
            ?? PipeServer.defaultMaxLineBytes
    }

    func run(_ context: CommandContext) throws -> Int32 {
        let server = PipeServer(handler: try context.handler(), maxLineBytes: maxLineBytes)
        let status = server.run()
        return status
    }
}
