import Foundation
import JSON
import TestSupport
import Testing

/// How options are read: types checked against the index, an option given once, `--` where it is documented.
@Suite(.serialized) struct CLIOptionTests {
    let now = "2026-11-29T12:00:00Z"

    func run(_ db: String, _ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func samples() throws -> String {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: now)
        return db
    }

    @Test func anUnknownTypeIsAnErrorWithASuggestion() throws {
        let db = try samples()
        let commands: [[String]] = [
            ["search", "cafe", "--type", "ordr"], ["spotlight", "title == \"*\"", "--type", "ordr"],
            ["all", "--type", "ordr"], ["query", "--type", "ordr"], ["get", "--type", "ordr", "1042"],
            ["related", "--type", "ordr", "1042"], ["suggest", "--type", "ordr"],
        ]
        for args in commands {
            let r = try run(db, args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
            #expect(
                r.stderr
                    == "error: unknown type \"ordr\"; did you mean \"order\"? (the index has: customer, order, product)\n",
                "\(args)")
        }
        let far = try run(db, ["all", "--type", "zzzzz", "--json"])
        #expect(far.status == 1)
        #expect(try JSONParser().parse(far.stderr)["data"]?["code"] == "not_found")
        #expect(try JSONParser().parse(far.stderr)["message"]?.string?.contains("did you mean") == false)
        #expect(try run(db, ["all", "--type", "order", "--limit", "1"]).status == 0, "a known type still works")
    }

    @Test func anOptionGivenTwiceIsAUsageErrorUnlessItAddsUp() throws {
        let db = try samples()
        // A union for the commands that answer several types (TypeUnionEndToEndTests); the others take one.
        for command in [["get", "1042"], ["related", "1042"], ["donate", "1042"], ["drill", "--restore", "-"]] {
            let r = try run(db, command + ["--type", "order", "--type", "product"])
            #expect(r.status == 64, "\(command)")
            #expect(
                r.stderr.hasPrefix(
                    "error: --type is given twice; \(command[0]) answers one type at a time (run it once for each type)\n"
                ), "\(command): \(r.stderr)")
        }
        let limit = try run(db, ["search", "cafe", "--limit", "2", "--limit", "3"])
        #expect(limit.status == 64)
        #expect(limit.stderr.hasPrefix("error: --limit is given twice; search takes one\n"))
        let filters = try run(
            db, ["query", "--type", "order", "--filter", "total ge 20", "--filter", "total le 30", "--json"])
        #expect(filters.status == 0, "filters add up")
        #expect(filters.json["entities"]?.array?.isEmpty == false)
        for e in filters.json["entities"]?.array ?? [] {
            let total = e["properties"]?["total"]?.number?.double ?? 0
            #expect(total >= 20 && total <= 30)
        }
    }
}

extension CLIOptionTests {
    @Test func doubleDashEndsOptionsOnlyWhereTheHelpSaysSo() throws {
        let db = try samples()
        let literal = try run(db, ["search", "--json", "--", "--limit", "1"])
        #expect(literal.status == 0, "\(literal.stderr)")
        #expect(literal.json["entities"] != nil, "--limit after -- is a query word")
        let help = try Binary.run(["help", "search"])
        #expect(
            help.stdout.contains(
                "Words after -- are taken literally, even those that start with '-': entityidx search -- --limit"))
        let get = try run(db, ["get", "--type", "order", "--json", "--", "-17", "1042"])
        #expect(get.json["entities"]?.array?.map { $0["id"] } == ["1042"])
        for args in [
            ["all", "--type", "order", "--", "--limit", "3"], ["stats", "--"], ["query", "--type", "order", "--"],
        ] {
            let r = try run(db, args)
            #expect(r.status == 64, "\(args)")
            #expect(
                r.stderr.hasPrefix(
                    "error: \(args[0]) takes no words after --: it has no argument that could be taken for an option\n"),
                "\(args): \(r.stderr)")
            #expect(!(try Binary.run(["help", args[0]]).stdout.contains("Words after --")), "\(args)")
        }
    }
}

extension CLIOptionTests {
    /// Runs `entityidx ARGS` with its stdout on a terminal of `columns` columns (util-linux `script` gives it one).
    func onTerminal(_ args: [String], columns: Int) throws -> String? {
        let script = "/usr/bin/script"
        guard FileManager.default.isExecutableFile(atPath: script) else { return nil }
        let command = ([Binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = ["-qec", command.joined(separator: " "), "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = String(columns)
        process.environment = env
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test func subtitlesAreWholeInAPipeAndCutToTheTerminalsWidth() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let subtitle = String(repeating: "word ", count: 40).trimmingCharacters(in: .whitespaces)
        let title = String(repeating: "Title ", count: 12).trimmingCharacters(in: .whitespaces)
        let record = TestSupport.record("note", "n1", title, [("subtitle", .string(subtitle))])
        #expect(try run(db, ["ingest", "-"], input: JSONWriter.string(record)).status == 0)
        let piped = try run(db, ["search", "word"])
        #expect(piped.stdout == "1.  note/n1  \(title)  \(subtitle)\n", "nothing is cut in a pipe")
        guard let narrow = try onTerminal(["--db", db, "--now", now, "search", "word"], columns: 80) else { return }
        let line = narrow.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.count == 80, "\(line)")
        #expect(line.hasSuffix("…") && line.contains("Title Title"), "\(line)")
        let wide = try onTerminal(["--db", db, "--now", now, "search", "word"], columns: 300)
        #expect(wide?.hasSuffix("  \(subtitle)\n") == true, "the subtitle fits a wide terminal: \(wide ?? "")")
    }
}

extension CLIOptionTests {
    @Test func ingestProgressOnATerminalHasTheShareReadAndTheTimeLeft() throws {
        let dir = TestSupport.temporaryDirectory()
        let file = dir + "/items.ndjson"
        let records = (0..<20_000).map { i in
            JSONWriter.string(TestSupport.record("item", String(i), "Item \(i) with some words", []))
        }
        try records.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let piped = try run(dir + "/piped.sqlite", ["ingest", file])
        #expect(piped.status == 0)
        #expect(!piped.stderr.contains("records  "), "no progress off a terminal: \(piped.stderr)")
        guard let shown = try onTerminal(["--db", dir + "/tty.sqlite", "ingest", file], columns: 80) else { return }
        let lines = shown.split(separator: "\r").map(String.init).filter { $0.contains(" records  ") }
        #expect(!lines.isEmpty, "\(shown)")
        for line in lines {
            #expect(line.contains("%  ") && line.contains(" left  "), "\(line)")
        }
        #expect(shown.contains("inserted 20,000"))
    }
}

extension CLIOptionTests {
    @Test func theManPageHasTheEnvironmentEveryExitStatusAndExamples() throws {
        let man = try Binary.run(["help", "--man"])
        #expect(man.status == 0)
        for text in [
            ".SH ENVIRONMENT", ".B ENTITYIDX_DB", ".B ENTITYIDX_LOCK_TIMEOUT", ".B ENTITYIDX_REPLACED_WAIT",
            ".B COLUMNS", ".SH EXIT STATUS",
            ".B 0\n", ".B 1\n", ".B 2\n", ".B 64\n", ".B 128+\\fIn\\fR", "130 for SIGINT", ".SH EXAMPLES",
            "entityidx search \\-\\- \\-cafe", ".B entityidx search \\-\\- \\-\\-limit",
        ] {
            #expect(man.stdout.contains(text), "\(text)")
        }
        let sections = man.stdout.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map(String.init)
        #expect(
            sections == [
                ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH GLOBAL OPTIONS", ".SH COMMANDS",
                ".SH ENVIRONMENT", ".SH EXIT STATUS", ".SH EXAMPLES", ".SH SEE ALSO",
            ])
        let checkedIn = try String(contentsOfFile: TestSupport.repository + "/man/entityidx.1", encoding: .utf8)
        #expect(checkedIn == man.stdout, "man/entityidx.1 is the generated page (make man)")
    }
}

extension CLIOptionTests {
    /// What bash completes for `words` (the last one being typed), run in `directory`.
    func bashCompletions(_ words: [String], in directory: String) throws -> [String] {
        let script = try Binary.run(["completions", "bash"]).stdout
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
            \(script)
            cd '\(directory)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _entityidx
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "-c", program]
        let stdout = Pipe()
        process.standardOutput = stdout
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesFilesDirectionsAndReindexActions() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let dir = TestSupport.temporaryDirectory()
        TestSupport.write(dir + "/records.ndjson", "")
        TestSupport.write(dir + "/restore.ndjson", "")
        #expect(try bashCompletions(["entityidx", "lint", "rec"], in: dir) == ["records.ndjson"])
        #expect(try bashCompletions(["entityidx", "drill", "--restore", "res"], in: dir) == ["restore.ndjson"])
        #expect(
            try bashCompletions(["entityidx", "related", "--type", "order", "1", "--direction", ""], in: dir)
                == ["both", "in", "out"])
        #expect(try bashCompletions(["entityidx", "reindex", ""], in: dir) == ["ack", "pending", "request"])
        #expect(try bashCompletions(["entityidx", "reindex", "p"], in: dir) == ["pending"])
        let zsh = try Binary.run(["completions", "zsh"]).stdout
        #expect(zsh.contains("'1:action:(request pending ack)'") && zsh.contains(":direction:(out in both)'"))
        let fish = try Binary.run(["completions", "fish"]).stdout
        #expect(fish.contains("complete -c entityidx -n \"__fish_seen_subcommand_from lint\" -F\n"))
        #expect(fish.contains("-l restore -r -F"))
    }

    @Test func matchingLeavesWordsOutAndNamesItsValues() throws {
        let db = try samples()
        #expect(try run(db, ["search", "show", "me", "Ada", "--json"]).json["entities"]?.array?.isEmpty == true)
        let spoken = try run(db, ["search", "show me Ada", "--matching", "frequency", "--explain", "--json"])
        #expect(spoken.status == 0, "\(spoken.stderr)")
        #expect(spoken.json["entities"]?.array?.first?["id"] == "c1")
        #expect(spoken.json["entities"]?.array?.first?["explain"]?["words"] == "1/3")
        let table = try run(db, ["search", "show me Ada", "--matching", "frequency", "--explain", "--limit", "1"])
        #expect(table.stdout.contains("words") && table.stdout.contains("1/3"), "\(table.stdout)")
        #expect(try run(db, ["user-query", "show me Ada", "--json"]).json["items"]?.array?.first?["id"] == "c1")
        let wrong = try run(db, ["search", "ada", "--matching", "most"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.hasPrefix("error: --matching must be one of all, frequency, last, got \"most\"\n"))
    }
}
