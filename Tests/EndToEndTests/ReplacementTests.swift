import Foundation
import JSON
import TestSupport
import Testing

/// A file moved over the database of a running pipe or MCP server: the server's changes stay in its own file, the
/// `-wal` at the path is never applied to the new one, and the server and a fresh command read the new file.
@Suite(.serialized) struct ReplacementTests {
    func call(_ p: PipeProcess, _ command: String, _ method: String, _ params: JSONValue) -> (JSONValue?, String?) {
        p.call(through: command, method, params)
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    func records(_ type: String, _ count: Int) -> [JSONValue] {
        (0..<count).map { TestSupport.record(type, "\($0)", "\(type) \($0)") }
    }

    func types(_ stats: JSONValue?) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (type, value) in stats?["types"]?.object ?? JSONObject() {
            counts[type] = value["entities"]?.number?.int.map(Int.init)
        }
        return counts
    }

    func cliTypes(_ db: String, environment: [String: String] = [:]) throws -> (
        types: [String: Int], result: Binary.Result
    ) {
        let r = try Binary.run(["--db", db, "stats", "--json"], environment: environment)
        return (types(r.status == 0 ? r.json : nil), r)
    }

    func sqlite(_ db: String, _ sql: String) throws -> String { try Binary.sqlite(db, sql) }

    /// A folder with `other.sqlite` (320 orders, closed: no `-wal`) and a server on `repl.sqlite` that has just
    /// ingested 50 tasks, still in its `-wal`.
    func setUp(_ command: String) throws -> (dir: String, server: PipeProcess) {
        let dir = TestSupport.temporaryDirectory()
        let orders = records("order", 320).map { JSONWriter.string($0) }.joined(separator: "\n")
        let made = try Binary.run(["--db", dir + "/other.sqlite", "ingest", "-"], input: orders)
        #expect(made.status == 0, "\(made.stderr)")
        let server = try PipeProcess(
            db: dir + "/repl.sqlite", now: nil, extra: command == "mcp" ? ["--allow-writes"] : [], command: command)
        let (ingested, error) = call(server, command, "ingest", ["records": .array(records("task", 50))])
        #expect(ingested?["inserted"] == JSONValue(50), "\(error ?? "")")
        #expect(size(dir + "/repl.sqlite-wal") > 0, "the tasks are in the -wal")
        return (dir, server)
    }

    /// The sequence of the issue: the server ingests 50 records, `mv other.sqlite repl.sqlite` (320 orders), then
    /// `stats` through the server and through a fresh command: both see the 320 orders, the server's next write
    /// is `database_replaced` and the one after goes to the new file; the file moved away keeps the 50 tasks.
    @Test(arguments: ["pipe", "mcp"]) func theNextStatsReadsTheFileMovedIn(_ command: String) throws {
        let (dir, server) = try setUp(command)
        let repl = dir + "/repl.sqlite"
        #expect(rename(repl, dir + "/away.sqlite") == 0)
        #expect(rename(dir + "/other.sqlite", repl) == 0)
        let (stats, statsError) = call(server, command, "stats", [:])
        #expect(types(stats) == ["order": 320], "\(statsError ?? "")")
        let fresh = try cliTypes(repl)
        #expect(fresh.types == ["order": 320], "\(fresh.result.stderr)")
        let refused = call(server, command, "ingest", ["records": [TestSupport.record("task", "x", "X")]])
        #expect(refused.1 == "database_replaced")
        let next = call(server, command, "ingest", ["records": [TestSupport.record("task", "y", "Y")]])
        #expect(next.0?["inserted"] == JSONValue(1), "\(next.1 ?? "")")
        server.close()
        #expect(try cliTypes(repl).types == ["order": 320, "task": 1])
        #expect(try sqlite(repl, "PRAGMA integrity_check") == "ok")
        #expect(try cliTypes(dir + "/away.sqlite").types == ["task": 50], "the server's changes went to its own file")
    }

    /// A fresh command right after the move, before the server's next request: it waits for the idle server to let
    /// go (within a second of an idle machine), then reads the new file; then the server does too. The command may
    /// wait as long as a loaded machine needs (ENTITYIDX_REPLACED_WAIT): what it reads is the test's, not when.
    @Test(arguments: ["pipe", "mcp"]) func aFreshCommandFirstWaitsForTheIdleServer(_ command: String) throws {
        let (dir, server) = try setUp(command)
        let repl = dir + "/repl.sqlite"
        #expect(rename(dir + "/other.sqlite", repl) == 0)
        let fresh = try cliTypes(repl, environment: ["ENTITYIDX_REPLACED_WAIT": "\(TestSupport.hangSeconds)"])
        #expect(fresh.types == ["order": 320], "\(fresh.result.stderr)")
        #expect(types(call(server, command, "stats", [:]).0) == ["order": 320])
        server.close()
        #expect(try cliTypes(repl).types == ["order": 320])
        #expect(try sqlite(repl, "PRAGMA integrity_check") == "ok")
    }

    /// Another program that keeps the old file open (and so its `-wal` and `-shm`, at the path): a command on the
    /// new file waits for it (ENTITYIDX_REPLACED_WAIT, half a second here), then is refused with `database_replaced`,
    /// naming that process, and leaves the new file as it was.
    @Test func anotherProgramsConnectionToTheOldFileIsWaitedForThenRefused() throws {
        let dir = TestSupport.temporaryDirectory()
        let repl = dir + "/repl.sqlite"
        let orders = records("order", 320).map { JSONWriter.string($0) }.joined(separator: "\n")
        #expect(try Binary.run(["--db", dir + "/other.sqlite", "ingest", "-"], input: orders).status == 0)
        #expect(
            try Binary.run(["--db", repl, "ingest", "-"], input: JSONWriter.string(records("task", 1)[0])).status == 0)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script =
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
            + "c.execute('INSERT INTO meta(key, value) VALUES (\\'held\\', \\'1\\')'); print('ready', flush=True); sys.stdin.read()"
        holder.arguments = ["-c", script, repl]
        let stdin = Pipe(), stdout = Pipe()
        holder.standardInput = stdin
        holder.standardOutput = stdout
        try holder.run()
        defer {
            try? stdin.fileHandleForWriting.close()  // it ends at the end of its input
            holder.waitUntilExit()
        }
        #expect(String(decoding: stdout.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))
        #expect(rename(dir + "/other.sqlite", repl) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: repl))
        let started = TestSupport.monotonicSeconds()
        let refused = try Binary.run(
            ["--db", repl, "stats", "--json"], environment: ["ENTITYIDX_REPLACED_WAIT": "0.5"])
        let waited = TestSupport.monotonicSeconds() - started
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("database_replaced")
                && refused.stderr.contains("process \(holder.processIdentifier)"))
        // Waiting is sleeping: a loaded machine only makes it longer.
        #expect(waited >= 0.5, "refused after \(waited) s, without waiting for the holder")
        #expect(try Data(contentsOf: URL(fileURLWithPath: repl)) == before, "the new file is unchanged")
    }

    /// ENTITYIDX_REPLACED_WAIT is a number of seconds, 0 or more.
    @Test func theWaitIsANumberOfSeconds() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        #expect(try Binary.run(["--db", db, "ingest", "-"], input: "[]").status == 0)
        for bad in ["soon", "-1"] {
            let r = try Binary.run(["--db", db, "stats"], environment: ["ENTITYIDX_REPLACED_WAIT": bad])
            #expect(r.status == 1)
            #expect(r.stderr == "error: ENTITYIDX_REPLACED_WAIT must be a number of seconds, got \"\(bad)\"\n")
        }
        #expect(try Binary.run(["--db", db, "stats"], environment: ["ENTITYIDX_REPLACED_WAIT": "0"]).status == 0)
    }
}
