import Foundation
import JSON
import TestSupport
import Testing

/// The binary on the sample data, as a user runs it.
@Suite(.serialized) struct CLITests {
    let db = TestSupport.temporaryDirectory() + "/index.sqlite"
    let now = "2026-11-29T12:00:00Z"

    func run(_ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func ingestSamples() throws { try Binary.ingestSamples(into: db, now: now) }

    @Test func sampleDataEndToEnd() throws {
        try ingestSamples()
        let again = try run(["ingest", TestSupport.repository + "/data/orders.json", "--json"])
        #expect(again.json["unchanged"] == JSONValue(320), "re-ingesting changes nothing: \(again.stdout)")
        #expect(again.json["inserted"] == JSONValue(0))

        let search = try run(["search", "1042", "--json"])
        #expect(search.json["entities"]?.array?.first?["id"] == .string("1042"))
        let get = try run(["get", "--type", "order", "1042", "missing", "7", "--json"])
        #expect(get.json["entities"]?.array?.compactMap { $0["id"]?.string } == ["1042", "7"])

        let human = try run(["search", "cafe", "--limit", "3"])
        #expect(human.stdout.contains("product/p3"))
        #expect(human.stdout.contains("Café au lait bowl"))

        for (query, expected) in [("东京", "p10"), ("strasse", "p4"), ("lodz", "p24"), ("widgte", "p19"), ("ｍｕｇ", "p1")] {
            let r = try run(["search", query, "--type", "product", "--json"])
            #expect(r.json["entities"]?.array?.first?["id"] == .string(expected), "\(query): \(r.stdout.prefix(300))")
        }
        let hidden = try run(["search", "internal", "--json"])
        #expect(hidden.json["entities"]?.array?.isEmpty == true)
        let stats = try run(["stats", "--json"])
        #expect(stats.json["types"]?["order"]?["entities"] == JSONValue(319))
        #expect(stats.json["expired"] == JSONValue(1))
    }

    @Test func jsonOutputIsThePipeResult() throws {
        try ingestSamples()
        let cli = try run([
            "query", "--type", "order", "--filter", "status eq shipped", "--sort", "total:desc", "--limit", "3",
            "--json",
        ])
        let pipe = try run(
            ["pipe"],
            input:
                #"{"jsonrpc":"2.0","id":1,"method":"query","params":{"type":"order","filters":[{"property":"status","op":"eq","value":"shipped"}],"sort":[{"property":"total","order":"desc"}],"limit":3}}"#
                + "\n")
        #expect(pipe.json["result"] == cli.json)
        #expect(cli.json["entities"]?.array?.count == 3)
    }

    @Test func optionsAnywhereAndDoubleDash() throws {
        try ingestSamples()
        let a = try Binary.run(["search", "--json", "--db", db, "tea", "--type", "product"])
        let b = try Binary.run(["--db", db, "search", "tea", "--type=product", "--json"])
        #expect(a.status == 0 && a.stdout == b.stdout)
        let dash = try run(["search", "--json", "--", "-cafe"])
        #expect(dash.status == 0)
        #expect(dash.json["entities"]?.array?.isEmpty == false)
    }

    @Test func exitCodesAndErrors() throws {
        let usage = try run(["search"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("Usage: entityidx search"))
        let unknown = try run(["frobnicate"])
        #expect(unknown.status == 64)
        let badOption = try run(["get", "--type", "order", "1", "--colour", "red"])
        #expect(badOption.status == 64)
        let missing = try run(["ingest", "/nonexistent/file.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read /nonexistent/file.json"))
        let bad = try run(
            ["ingest", "-"],
            input:
                "{\"type\":\"t\",\"id\":\"1\",\"title\":\"ok\"}\n{\"type\":\"t\",\"id\":\"2\",\"title\":\"x\",\"colour\":1}\nnot json\n"
        )
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("record 2 (line 2) (t/2): field \"colour\""), "\(bad.stderr)")
        #expect(bad.stderr.contains("record 3 (line 3): is not valid JSON"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
        let help = try run(["search", "--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: entityidx search"))
        let top = try Binary.run(["help"])
        #expect(top.status == 0 && top.stdout.contains("Commands:"))
    }

    @Test func skipInvalidCommitsTheValidRecordsAndListsTheOthers() throws {
        let input =
            "{\"type\":\"t\",\"id\":\"1\",\"title\":\"ok\"}\n{\"type\":\"t\",\"id\":\"2\",\"title\":\"x\",\"colour\":1}\nnot json\n{\"type\":\"t\",\"id\":\"4\",\"title\":\"four\"}\n"
        let r = try run(["ingest", "-", "--skip-invalid", "--json"], input: input)
        #expect(r.status == 2, "records were skipped: \(r.stderr)")
        #expect(r.stderr.contains("skipped record 2 (line 2) (t/2): field \"colour\""), "\(r.stderr)")
        #expect(r.stderr.contains("skipped record 3 (line 3): is not valid JSON"), "\(r.stderr)")
        #expect(r.json["inserted"] == JSONValue(2) && r.json["skipped"] == JSONValue(2), "\(r.stdout)")
        #expect(r.json["problems"]?.array?.map { $0["position"] } == [JSONValue(2), JSONValue(3)])
        #expect(r.json["problems"]?.array?.first?["field"] == .string("colour"))
        #expect(try run(["get", "--type", "t", "1", "4", "--json"]).json["entities"]?.array?.count == 2)
        let clean = try run(["ingest", "-", "--skip-invalid"], input: #"[{"type":"t","id":5,"title":"Five"}]"#)
        #expect(clean.status == 0 && clean.stdout.contains("skipped 0"), "\(clean.stdout)")
    }

    @Test func ingestFromStdinAsBatchWithClientState() throws {
        let r = try run(["ingest", "-", "--client-state", "s1"], input: #"[{"type":"t","id":1,"title":"One"}]"#)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try run(["state"]).stdout == "s1\n")
        let stale = try run(
            ["ingest", "-", "--client-state", "s2", "--expect-client-state", "s0"],
            input: #"[{"type":"t","id":2,"title":"Two"}]"#)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("-1006"))
        #expect(try run(["get", "--type", "t", "2", "--json"]).json["entities"]?.array?.isEmpty == true)
    }

    @Test func progressOnlyOnATerminal() throws {
        let file = TestSupport.temporaryDirectory() + "/many.ndjson"
        TestSupport.write(
            file,
            (0..<30_000).map { JSONWriter.string(TestSupport.record("bulk", "\($0)", "Bulk \($0) café 東京")) }.joined(
                separator: "\n"))
        let quiet = try run(["ingest", file])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "nothing extra when stderr is not a terminal")
        // `script` gives the command a terminal.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let command = [Binary.path, "--db", db + "-tty", "ingest", file].joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("inserted 30,000"))
        #expect(
            text.contains(" records  ") && text.contains("/s"), "progress with records and rate: \(text.suffix(300))")
    }

    @Test func databaseFileIsPrivate() throws {
        _ = try run(["ingest", "-"], input: "[]")
        let attributes = try FileManager.default.attributesOfItem(atPath: db)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func stockSQLiteShellCanQueryTheIndex() throws {
        try ingestSamples()
        let shell = "/usr/bin/sqlite3"
        guard FileManager.default.isExecutableFile(atPath: shell) else { return }
        func query(_ sql: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: shell)
            process.arguments = [db, sql]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            process.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        #expect(
            try query(
                "SELECT e.type || '/' || e.id FROM search JOIN search_doc d ON d.doc = search.rowid JOIN entity e ON e.rowid = d.rowid WHERE search MATCH 'café' ORDER BY rank LIMIT 1"
            ) == "product/p3\n")
        #expect(
            try query(
                "SELECT e.type || '/' || e.id FROM search_code JOIN search_doc d ON d.doc = search_code.rowid JOIN entity e ON e.rowid = d.rowid WHERE search_code MATCH '042a'"
            ) == "order/1042\n")
    }
}
