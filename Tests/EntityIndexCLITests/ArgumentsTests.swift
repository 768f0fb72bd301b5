import TestSupport
import Testing

@testable import EntityIndexCLI

@Suite struct ArgumentsTests {
    let spec = CommandSpec(
        name: "x", abstract: "X", usage: "entityidx x", options: [("type=", "t"), ("explain", "e")], discussion: "",
        literalExample: "x -- -a")

    @Test func optionsBeforeAndAfterArguments() throws {
        let p = try ParsedArguments.parse(["a", "--type", "T", "b", "--explain", "--db=/tmp/x"], spec: spec)
        #expect(p.positionals == ["a", "b"])
        #expect(p.value("type") == "T")
        #expect(p.flag("explain"))
        #expect(p.value("db") == "/tmp/x")
    }

    @Test func doubleDashEndsOptions() throws {
        let p = try ParsedArguments.parse(["--", "-cafe", "--type"], spec: spec)
        #expect(p.positionals == ["-cafe", "--type"])
    }

    @Test func stdinIsAPositional() throws {
        #expect(try ParsedArguments.parse(["-"], spec: spec).positionals == ["-"])
    }

    @Test("usage errors", arguments: [["--colour"], ["--type"], ["--explain=1"], ["-x"]])
    func usageErrors(_ args: [String]) {
        #expect(throws: UsageError.self) { try ParsedArguments.parse(args, spec: spec) }
    }
}

@Suite struct CommandTests {
    /// Runs the CLI in process and captures its output.
    func run(_ args: [String]) -> (Int32, String, String) {
        final class Box: @unchecked Sendable { var out = "", err = "" }
        let box = Box()
        let status = EntityIdx.main(args, output: { box.out += $0 }, errorOutput: { box.err += $0 })
        return (status, box.out, box.err)
    }

    @Test func searchHelpIsStable() {
        let (status, out, _) = run(["help", "search"])
        #expect(status == 0)
        #expect(
            out == """
                Search entities by text, best first

                Usage: entityidx search QUERY… [--type T]… [--limit N] [--cursor C] [--filter 'PROP OP VALUE']… [--matching M] [--explain] [--highlight] [--facet NAME]… [--fields F,…] [--json]

                Options:
                  --type <value>      only entities of this type (repeatable: their union)
                  --limit <value>     at most N results (default 20)
                  --cursor <value>    continue at this cursor (the nextCursor of the previous page of the same search)
                  --filter <value>    a property filter that must hold, e.g. 'status eq shipped' (repeatable)
                  --matching <value>  all (default): every word must match; frequency or last: fewer words when fewer match them all
                  --explain           show each result's ranking tiers
                  --highlight         show the matched spans of each field
                  --facet <value>     count every match's values of this property, or of type or domain, shown after the results (repeatable)
                  --fields <value>    only these fields of each entity, comma-separated: title,subtitle,properties.total (type and id always)
                  --db <value>        the database file (default: $ENTITYIDX_DB, else ./entityidx.sqlite)
                  --now <value>       fix the clock (ISO-8601 with a zone), for reproducible expiry and recency
                  --json              print the pipe's result object as JSON
                  --help              show this help

                Every word must match; the last one matches as a prefix unless the query ends with a space. Case, width
                and accents are ignored; CJK text matches inside longer runs; ids match as typed, without separators or
                by their number. When nothing matches, words of five letters or more (inside compounds too) may match
                with typos, and a part of an id or code with a digit finds it (9444 finds K83913.39F29.59444AT). With
                --matching frequency or last, when fewer than the limit match every word, words are left out one at a
                time (the most frequent, or the last, first; never the only one) and what fewer words find follows,
                ranked after what more words found (--explain: words 2/3). When more results follow, stderr says how
                many match (exact up to 100) and the --cursor of the next page (total and nextCursor with --json);
                pages reach the first 10,000 results.

                Words after -- are taken literally, even those that start with '-': entityidx search -- --limit

                """)
    }

    @Test func everyCommandHasHelp() {
        for name in [
            "ingest", "search", "complete", "get", "suggest", "all", "query", "related", "delete", "donate", "reindex",
            "state",
            "declare", "stats", "pipe",
        ] {
            let (status, out, _) = run([name, "--help"])
            #expect(status == 0 && out.contains("Usage: entityidx \(name)"), "\(name)")
        }
    }

    @Test func runsAgainstATemporaryDatabase() {
        let db = TestSupport.temporaryDirectory() + "/i.sqlite"
        let path = TestSupport.temporaryDirectory() + "/r.ndjson"
        TestSupport.write(path, #"{"type":"note","id":"n1","title":"Grocery list","keywords":["milk"]}"# + "\n")
        #expect(run(["--db", db, "ingest", path]).0 == 0)
        let (status, out, _) = run(["--db", db, "search", "milk", "--json"])
        #expect(status == 0)
        #expect(out.contains(#""id":"n1""#))
        #expect(run(["--db", db, "--now", "yesterday", "stats"]).0 == 64)
        #expect(run(["--db", db, "search", "x", "--limit", "-1"]).0 == 64)
        #expect(
            run([
                "--db", db, "declare", "--type", "note", "due:date", "size:number:unsortable",
                "nick:string@displayName",
            ]).0 == 0)
        #expect(run(["--db", db, "declare"]).1.contains("note.nick  string @displayName"))
        // Stemming: alone or with properties, never without --type; `groceries` finds "Grocery" (three edits away)
        // once the type is stemmed.
        #expect(run(["--db", db, "search", "groceries "]).1.isEmpty)
        #expect(run(["--db", db, "declare", "--stemming", "english"]).0 == 64)
        #expect(run(["--db", db, "declare", "--type", "note", "--stemming", "porter"]).0 == 64)
        let declared = run(["--db", db, "declare", "--type", "note", "--stemming", "english"])
        #expect(declared.1 == "declared 0 properties, stemming english\n")
        #expect(run(["--db", db, "search", "groceries "]).1.contains("note/n1"))
        #expect(run(["--db", db, "declare"]).1.contains("note  stemming english"))
    }

    @Test func progressShowsTheShareAndTheTimeLeftWhenTheSizeIsKnown() {
        #expect(
            EntityIndexCLI.Progress.line(records: 12_000, bytes: 4 << 20, total: 10 << 20, elapsed: 2)
                == "  12,000 records  40%  6,000/s  2 s, about 3 s left  4 MiB")
        #expect(
            EntityIndexCLI.Progress.line(records: 12_000, bytes: 4 << 20, total: nil, elapsed: 2)
                == "  12,000 records  6,000/s  2 s  4 MiB")
        #expect(EntityIndexCLI.Progress.duration(185) == "3 min 5 s")
        #expect(EntityIndexCLI.Progress.duration(7800) == "2 h 10 min")
    }
}
