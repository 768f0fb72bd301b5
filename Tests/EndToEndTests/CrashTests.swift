import Foundation
import JSON
import TestSupport
import Testing

/// Kills `entityidx ingest` and `entityidx pipe` with SIGKILL at random moments; the database must stay intact
/// and hold exactly the committed transactions. (`make fuzz`-style long runs use more rounds: ENTITYIDX_CRASH_ROUNDS.)
@Suite(.serialized) struct CrashTests {
    static let rounds = Int(ProcessInfo.processInfo.environment["ENTITYIDX_CRASH_ROUNDS"] ?? "") ?? 6

    func sqlite(_ db: String, _ sql: String) throws -> String { try Binary.sqlite(db, sql) }

    /// A kill can land before the schema is created: the database then has no tables at all (creating the
    /// schema is one transaction), otherwise SQLite and FTS5 must both find it intact.
    func checkIntegrity(_ db: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        #expect(try sqlite(db, "PRAGMA integrity_check") == "ok")
        let tables = try sqlite(db, "SELECT count(*) FROM sqlite_schema")
        if tables == "0" { return }
        #expect(
            try sqlite(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'search'") == "1",
            "a schema half created: \(tables) objects")
        #expect(try sqlite(db, "INSERT INTO search(search, rank) VALUES ('integrity-check', 1)") == "")
        #expect(try sqlite(db, "INSERT INTO search_title(search_title, rank) VALUES ('integrity-check', 1)") == "")
    }

    @Test func killedIngestsLeaveAllOrNothing() throws {
        let dir = TestSupport.temporaryDirectory()
        let db = dir + "/index.sqlite"
        // Each file is one transaction: after a kill, each file's records are all there or none are.
        var files: [String] = []
        for f in 0..<3 {
            let path = dir + "/batch\(f).ndjson"
            TestSupport.write(
                path,
                (0..<15_000).map { i in
                    JSONWriter.string(TestSupport.record("f\(f)", "\(i)", "Record \(i) of file \(f) café 東京 #\(i)-A"))
                }.joined(separator: "\n"))
            files.append(path)
        }
        // The kill moments are random but seeded, so that a failing round can be replayed.
        var rng = TestSupport.SeededGenerator(seed: 0xC0FFEE)
        for round in 0..<Self.rounds {
            let file = files[round % files.count]
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binary.path)
            p.arguments = ["--db", db, "ingest", file]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 20_000...600_000, using: &rng))
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
            p.waitUntilExit()
            try checkIntegrity(db)
            let stats = try Binary.run(["--db", db, "stats", "--json"]).json
            for f in 0..<files.count {
                let n = stats["types"]?["f\(f)"]?["entities"] ?? JSONValue(0)
                #expect(n == JSONValue(0) || n == JSONValue(15_000), "file \(f) half applied: \(JSONWriter.string(n))")
            }
        }
        // Rerunning every ingest converges to the same final state.
        for file in files { #expect(try Binary.run(["--db", db, "ingest", file]).status == 0) }
        let stats = try Binary.run(["--db", db, "stats", "--json"]).json
        #expect(stats["entities"] == JSONValue(45_000))
        try checkIntegrity(db)
    }

    @Test func killedPipesLoseNothingCommitted() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        for round in 0..<Self.rounds {
            let p = try PipeProcess(db: db, now: nil)
            // Single ingests that each commit, then a batch that is cut off.
            for i in 0..<20 {
                #expect(
                    p.call("ingest", ["records": [TestSupport.record("kept", "\(round)-\(i)", "Kept")]]).error == nil)
            }
            _ = p.call("batch.begin")
            _ = p.call(
                "ingest", ["records": .array((0..<200).map { TestSupport.record("lost", "\(round)-\($0)", "Lost") })])
            p.kill()
            try checkIntegrity(db)
            let q = try PipeProcess(db: db, now: nil)
            let stats = q.call("stats").result
            #expect(stats?["types"]?["lost"] == nil, "nothing of a cut-off batch")
            #expect(stats?["types"]?["kept"]?["entities"] == JSONValue(20 * (round + 1)), "every committed ingest")
            q.close()
        }
    }
}
