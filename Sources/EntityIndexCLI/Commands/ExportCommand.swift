import EntityIndex
import JSON
import System

/// `entityidx export`: the records as stored, as NDJSON that `ingest` reads back.
struct ExportCommand: Command {
    static let spec = CommandSpec(
        name: "export", abstract: "Write the stored records as NDJSON, by type then id, for ingest to read back",
        usage: "entityidx export [--type T]… [--output FILE] [--json]",
        options: [
            ("type=", "only this type (repeatable: these types, type by type)"),
            ("output=", "write to FILE (replaced once the export is whole) instead of standard output"),
        ],
        discussion: """
            One record a line, as ingest stored it (an integer id as its string), ordered by type then id in byte
            order. Exported is what queries see: expired entities are left out, hidden ones are in. Ingesting the
            export into a fresh index gives an index whose export is the same bytes; into the same index, every
            record is unchanged. Declared property types, interactions, client state and reindex requests are not
            records and are not exported. Records are read and written one at a time: memory does not grow with
            their number. With --output, FILE is written beside its final name and renamed over it at the end, so
            a failed or interrupted export (SIGINT, SIGTERM) leaves no half file, and a summary line is printed (with
            --json: {"records":N,"bytes":B}).
            """, repeatable: ["type"])

    var types: [String]
    var output: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else {
            throw UsageError("export takes no arguments", usage: Self.spec.usage)
        }
        types = arguments.all("type")
        output = arguments.value("output")
        if output == "" { throw UsageError("--output needs a file name", usage: Self.spec.usage) }
    }

    func run(_ context: CommandContext) throws -> Int32 {
        try context.check(types: types)
        let store = try context.store()
        guard let output else {
            let writer = BufferedWriter { chunk throws(EntityIndexError) in
                context.output(String(decoding: chunk, as: UTF8.self))
            }
            _ = try store.export(types: types) { text throws(EntityIndexError) in try writer.writeLine(text) }
            try writer.flush()
            return 0
        }
        // A stop signal ends the export at the next row, and the half-written file is removed (into standard output
        // the default handlers stay: a reader that goes away ends the export with SIGPIPE, as for any filter).
        StopSignal.install()
        let file = try OutputFile(output)
        let counts: ExportCounts
        do {
            let writer = BufferedWriter { chunk throws(EntityIndexError) in try file.write(chunk) }
            counts = try store.export(types: types) { text throws(EntityIndexError) in try writer.writeLine(text) }
            try writer.flush()
            try file.commit()
        } catch {
            file.discard()
            guard error.code == .interrupted else { throw error }
            throw EntityIndexError(
                .interrupted, "interrupted by a stop signal while exporting; \(output) was not written")
        }
        if context.json {
            context.print(
                JSONWriter.string([
                    "records": JSONValue(counts.records), "bytes": JSONValue(counts.bytes + counts.records),
                ]))
        } else {
            context.print(
                "exported \(Output.count(counts.records, "record", "records")) (\(Output.number(counts.bytes + counts.records)) bytes) to \(output)"
            )
        }
        return 0
    }
}
