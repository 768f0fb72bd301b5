import Foundation
import JSON
import TestSupport
import Testing

/// The command line's habits, as a user meets them (git, ripgrep, cargo, sqlite3).
@Suite(.serialized) struct CLIHabitsTests {
    let now = "2026-11-29T12:00:00Z"

    func run(_ db: String, _ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func samples() throws -> String {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: now)
        return db
    }

    @Test func aReadingCommandOnAMissingIndexIsAnErrorAndCreatesNothing() throws {
        let db = TestSupport.temporaryDirectory() + "/nothing-here.sqlite"
        for args in [
            ["search", "x"], ["stats"], ["get", "--type", "t", "1"], ["reindex", "pending"], ["declare"], ["mcp"],
        ] {
            let r = try run(db, args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr == "error: no index at \(db); run entityidx ingest first\n", "\(args)")
            #expect(!FileManager.default.fileExists(atPath: db), "\(args) created the file")
        }
        let served = db + "-served"
        #expect(try run(served, ["mcp", "--allow-writes"], input: "").status == 0)
        #expect(FileManager.default.fileExists(atPath: served), "mcp --allow-writes creates the index")
        #expect(try run(db, ["ingest", "-"], input: "[]").status == 0, "a writing command creates the index")
        #expect(try run(db, ["stats"]).status == 0)
    }

    @Test func aReadingCommandOnAnEmptyFileIsNoIndexAndLeavesItEmpty() throws {
        let db = TestSupport.temporaryDirectory() + "/empty.sqlite"
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))
        func size() -> Int { ((try? FileManager.default.attributesOfItem(atPath: db))?[.size] as? Int) ?? -1 }
        let missing = TestSupport.temporaryDirectory() + "/nothing-here.sqlite"
        for args in [["search", "x"], ["stats"], ["get", "--type", "t", "1"], ["all", "--type", "t"], ["lint"]] {
            let r = try run(db, args)
            let none = try run(missing, args)
            #expect(r.status == 1 && r.status == none.status, "\(args)")
            #expect(r.stderr == "error: no index at \(db); run entityidx ingest first\n", "\(args)")
            #expect(size() == 0, "\(args) wrote into the empty file")
            #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "\(args)")
        }
        let json = try run(db, ["stats", "--json"])
        #expect(try JSONParser().parse(json.stderr)["data"]?["code"] == "no_index")
        #expect(size() == 0)
        #expect(try run(db, ["ingest", "-"], input: "[]").status == 0, "a writing command creates the index in it")
        #expect(size() > 0)
        #expect(try run(db, ["stats"]).status == 0)
    }

    @Test func withJSONAnErrorIsThePipesErrorObjectOnStderr() throws {
        let db = try samples()
        let missing = try run(db, ["related", "--type", "order", "nope", "--json"])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        let error = try JSONParser().parse(missing.stderr)
        #expect(error["code"] == JSONValue(-32000))
        #expect(error["data"]?["code"] == "not_found")
        #expect(error["message"]?.string?.contains("order/nope") == true)
        let stale = try run(
            db, ["ingest", "-", "--client-state", "b", "--expect-client-state", "a", "--json"], input: "[]")
        #expect(try JSONParser().parse(stale.stderr)["data"]?["code"] == "mismatched_client_state")
        let usage = try run(db, ["search", "--json"])
        #expect(usage.status == 64)
        #expect(try JSONParser().parse(usage.stderr)["data"]?["code"] == "usage_error")
        let noIndex = try run(db + "-missing", ["stats", "--json"])
        #expect(try JSONParser().parse(noIndex.stderr)["data"]?["code"] == "no_index")
    }

    @Test func aQueryCutAtTheMaximumSaysHowToContinue() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let records = (0..<10_001).map {
            JSONWriter.string(
                TestSupport.record(
                    "item", String(format: "%05d", $0), "Item \($0)", [("properties", ["n": JSONValue($0)])]))
        }
        #expect(try run(db, ["ingest", "-"], input: records.joined(separator: "\n")).status == 0)
        let first = try run(db, ["query", "--type", "item", "--filter", "n ge 0", "--sort", "n", "--json"])
        #expect(first.json["entities"]?.array?.count == 10_000)
        #expect(first.json["nextCursor"] == "10000")
        let rest = try run(
            db, ["query", "--type", "item", "--filter", "n ge 0", "--sort", "n", "--cursor", "10000", "--json"])
        #expect(rest.json["entities"]?.array?.map { $0["id"] } == ["10000"])
        #expect(rest.json["nextCursor"] == nil)
        let human = try run(db, ["query", "--type", "item", "--filter", "n ge 0", "--sort", "n"])
        #expect(human.stderr.contains("more than 10,000 results: continue with --cursor 10000"), "\(human.stderr)")
        let limited = try run(db, ["query", "--type", "item", "--limit", "3", "--json"])
        #expect(limited.json["nextCursor"] == nil, "an explicit limit is not a cut")
    }

    @Test func misspellingsGetASuggestionNotTheWholeHelp() throws {
        let command = try Binary.run(["serch", "cafe"])
        #expect(command.status == 64)
        #expect(command.stderr.hasPrefix("error: unknown command \"serch\"; did you mean \"search\"?\n"))
        #expect(!command.stderr.contains("Commands:"))
        let option = try Binary.run(["search", "cafe", "--limt", "3"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("unknown option --limt for search; did you mean --limit?"))
        let shell = try Binary.run(["completions", "fsih"])
        #expect(shell.stderr.contains("did you mean \"fish\"?"))
    }

    @Test func versionAndHelp() throws {
        for flag in ["--version", "-V"] {
            let r = try Binary.run([flag])
            #expect(r.status == 0 && r.stdout.hasPrefix("entityidx ") && r.stderr.isEmpty)
        }
        #expect(try Binary.run(["--help"]).stdout.contains("--version | -V"))
    }

    @Test func completionsAndTheManPage() throws {
        for shell in ["bash", "zsh", "fish"] {
            let r = try Binary.run(["completions", shell])
            #expect(r.status == 0 && r.stdout.contains("search"), "\(shell)")
        }
        let man = try Binary.run(["help", "--man"])
        #expect(man.stdout == TestSupport.read(TestSupport.repository + "/man/entityidx.1"))
    }

    /// `make install PREFIX=…` (with the debug binary, so that the test builds nothing).
    @Test func makeInstallPutsEverythingWhereTheToolsLook() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/make") else { return }
        let prefix = TestSupport.temporaryDirectory() + "/prefix"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.currentDirectoryURL = URL(fileURLWithPath: TestSupport.repository)
        process.arguments = ["-s", "-o", "release", "install", "PREFIX=\(prefix)", "BIN=\(Binary.path)"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for path in [
            "bin/entityidx", "share/man/man1/entityidx.1", "share/bash-completion/completions/entityidx",
            "share/zsh/site-functions/_entityidx", "share/fish/vendor_completions.d/entityidx.fish",
        ] {
            let size = (try? FileManager.default.attributesOfItem(atPath: prefix + "/" + path)[.size] as? Int) ?? 0
            #expect(size > 0, "\(path)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/entityidx"))
    }

    @Test func humanOutputIsForPeople() throws {
        let db = try samples()
        let search = try run(db, ["search", "cafe", "--limit", "3"])
        #expect(!search.stdout.contains("595."), "no raw scores without --explain: \(search.stdout)")
        let explained = try run(db, ["search", "cafe", "--limit", "3", "--explain"])
        let header = try #require(explained.stdout.split(separator: "\n").first { $0.hasPrefix("entity ") })
        #expect(header.contains("typos") && header.contains("score"))
        let suggest = try run(db, ["suggest", "--limit", "3"])
        #expect(suggest.stdout.split(separator: "\n").first?.contains("priority") == true, "\(suggest.stdout)")
        let query = try run(
            db, ["query", "--type", "order", "--filter", "status eq shipped", "--sort", "total:desc", "--limit", "2"])
        let lines = query.stdout.split(separator: "\n")
        #expect(lines.first?.contains("status") == true && lines.first?.contains("total") == true)
        #expect(lines.dropFirst().allSatisfy { $0.contains("Shipped") }, "\(query.stdout)")
        let one = try run(db, ["ingest", "-"], input: #"{"type":"t","id":"1","title":"One"}"#)
        #expect(one.stdout.contains("(1 record in"), "\(one.stdout)")
        #expect(try run(db, ["delete", "--type", "t", "1"]).stdout == "deleted 1 entity\n")
    }

    @Test func reindexRequestIdsAreNeverReused() throws {
        let db = try samples()
        #expect(try run(db, ["reindex", "request", "--type", "order"]).stdout == "request 1\n")
        #expect(try run(db, ["reindex", "ack", "1"]).status == 0)
        #expect(try run(db, ["reindex", "request", "--type", "order", "--json"]).json["requestId"] == JSONValue(2))
    }
}
