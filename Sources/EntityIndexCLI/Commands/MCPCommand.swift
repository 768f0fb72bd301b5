import EntityIndex
import EntityIndexPipe

/// `entityidx mcp`: a Model Context Protocol server on stdin/stdout, for assistants.
struct MCPCommand: Command {
    static let spec = CommandSpec(
        name: "mcp", abstract: "Serve the index to AI assistants (Model Context Protocol on stdin/stdout)",
        usage: "entityidx mcp [--db PATH] [--allow-writes]",
        options: [
            (
                "allow-writes",
                "also offer the write tools: ingest_records, delete_entities, donate_interaction, declare_type"
            )
        ],
        discussion: """
            One JSON-RPC message per line in and out; nothing else is written to stdout (messages go to stderr).
            Answers the initialize handshake (protocol 2024-11-05 to 2025-11-25) and stateless 2026-07-28 requests
            (server/discover, _meta protocol version). Tools are the pipe's methods under snake_case names, with
            their params as input and their result as structured content: search_entities, get_entities,
            suggest_entities, list_entities, query_entities, get_related_entities, complete_word, spotlight_query,
            user_query, lint_records, drill_reindex, list_declarations, index_stats; ingest_records,
            delete_entities, donate_interaction and declare_type only with --allow-writes. A failed call is a tool result with
            isError. Resource template: entityidx://entity/{type}/{id}. Without --allow-writes the index must exist
            (else no_index at start, as for the reading commands); with it, it is created. Ends at end of input or
            on SIGINT/SIGTERM.
            """)

    var allowWrites: Bool

    /// With `--allow-writes` a server like `pipe`, which may create the index it serves; read-only, a reading
    /// command: a missing index is `no_index` at start (a mistyped `--db` creates no empty file).
    var writes: Bool { allowWrites }

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("mcp takes no arguments", usage: Self.spec.usage) }
        allowWrites = arguments.flag("allow-writes")
    }

    func run(_ context: CommandContext) throws -> Int32 {
        MCPServer(handler: try context.handler(), allowWrites: allowWrites).run()
    }
}
