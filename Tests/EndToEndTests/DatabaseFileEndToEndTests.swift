import Foundation
import JSON
import TestSupport
import Testing

/// The database file from the command line: paths, read-only files and folders, another user's view.
@Suite(.serialized) struct DatabaseFileEndToEndTests {
    let records = (0..<20).map { JSONWriter.string(TestSupport.record("task", "\($0)", "Task \($0)")) }.joined(
        separator: "\n")

    /// Runs the binary in `directory`, as the unprivileged user `nobody` when `asNobody` (file modes do not stop root).
    func run(
        _ arguments: [String], in directory: String, asNobody: Bool = false, input: String = "",
        environment: [String: String] = [:]
    ) throws -> Binary.Result {
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Binary.path)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "ENTITYIDX_DB")
        process.environment = env.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // A command that fails at once (a usage error) may exit before reading: EPIPE then is no test failure.
        Binary.ignoreSIGPIPE
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Binary.Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    var canDropPrivileges: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1
    }

    @Test func dbIsAPathNeverAURIAndNeverEmpty() throws {
        let dir = TestSupport.temporaryDirectory()
        let empty = try run(["--db", "", "ingest", "-"], in: dir, input: records)
        #expect(empty.status == 64 && empty.stderr.contains("--db"), "\(empty.stderr)")
        let uri = try run(["--db", "file:x?mode=memory", "ingest", "-"], in: dir, input: records)
        #expect(uri.status == 0, "\(uri.stderr)")
        #expect(mode(dir + "/file:x?mode=memory") == 0o600, "the name is a file, kept and private")
        let back = try run(["--db", "./file:x?mode=memory", "get", "--type", "task", "3", "--json"], in: dir)
        #expect(back.json["entities"]?.array?.count == 1)
    }

    @Test func dbIsNeverADatabaseInMemory() throws {
        let dir = TestSupport.temporaryDirectory()
        let usage = "Usage: entityidx ingest"
        for (arguments, environment) in [
            (["--db", ":memory:", "ingest", "-"], [:]), (["ingest", "-"], ["ENTITYIDX_DB": ":memory:"]),
        ] {
            let r = try run(arguments, in: dir, input: records, environment: environment)
            #expect(r.status == 64, "\(r.stderr)")
            #expect(r.stdout.isEmpty, "nothing is said to be inserted: \(r.stdout)")
            #expect(r.stderr.contains(":memory:") && r.stderr.contains("keep nothing between commands"), "\(r.stderr)")
            #expect(r.stderr.contains(usage), "\(r.stderr)")
        }
        for command in [["search", "x"], ["stats"], ["pipe"]] {
            #expect(try run(["--db", ":memory:"] + command, in: dir).status == 64, "\(command)")
        }
        let json = try run(["--db", ":memory:", "stats", "--json"], in: dir)
        #expect(json.status == 64, "\(json.stderr)")
        #expect(try JSONParser().parse(json.stderr)["data"]?["code"] == "usage_error")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "no file is made either")
        let file = try run(["--db", "./:memory:", "ingest", "-"], in: dir, input: records)
        #expect(file.status == 0, "./:memory: is a file of that name: \(file.stderr)")
        #expect(mode(dir + "/:memory:") == 0o600)
    }

    @Test func aReadOnlyFolderIsSearchedAndLeavesNothingBehind() throws {
        guard canDropPrivileges else { return }
        let dir = TestSupport.temporaryDirectory()
        #expect(chmod(dir, 0o755) == 0)
        #expect(try run(["--db", "i.sqlite", "ingest", "-"], in: dir, input: records).status == 0)
        #expect(chmod(dir + "/i.sqlite", 0o644) == 0)
        let found = try run(["--db", "i.sqlite", "search", "task 7", "--json"], in: dir, asNobody: true)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.json["entities"]?.array?.first?["id"] == .string("7"))
        let write = try run(["--db", "i.sqlite", "ingest", "-"], in: dir, asNobody: true, input: records)
        #expect(write.status == 1 && write.stderr.contains("read-only"), "\(write.stderr)")
    }

    @Test func aReadOnlyFileLeavesNoShmThatBlocksLaterWriters() throws {
        guard canDropPrivileges else { return }
        let dir = TestSupport.temporaryDirectory()
        #expect(chmod(dir, 0o777) == 0)
        #expect(try run(["--db", "i.sqlite", "ingest", "-"], in: dir, asNobody: true, input: records).status == 0)
        #expect(chmod(dir + "/i.sqlite", 0o400) == 0)
        #expect(try run(["--db", "i.sqlite", "get", "--type", "task", "1"], in: dir, asNobody: true).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir + "/i.sqlite-shm"))
        // The pipe refuses a batch at batch.begin already.
        let pipe = try run(
            ["--db", "i.sqlite", "pipe"], in: dir, asNobody: true,
            input: #"{"jsonrpc":"2.0","id":1,"method":"batch.begin"}"# + "\n")
        let response = (try? JSONParser().parse(pipe.stdout)) ?? .null
        #expect(response["error"]?["data"]?["code"] == .string("read_only"), "\(pipe.stdout)")
        #expect(chmod(dir + "/i.sqlite", 0o600) == 0)
        let later = try run(["--db", "i.sqlite", "ingest", "-"], in: dir, asNobody: true, input: records)
        #expect(later.status == 0, "a later writer is not blocked: \(later.stderr)")
    }

    /// An index in a folder only root may write, whose writer died with two records still in its -wal (and its
    /// -shm, unless `keepShm` is false); `TMPDIR` for the unprivileged reader is `scratch`.
    /// With `fillerBytes`, the index first gets a table of that many bytes (so that a copy takes its time).
    func readOnlyIndexWithAWal(keepShm: Bool = true, fillerBytes: Int = 0) throws -> (
        dir: String, db: String, scratch: String
    ) {
        let dir = TestSupport.temporaryDirectory()
        let db = dir + "/i.sqlite"
        if fillerBytes > 0 {
            let made = try Binary.run(
                ["--db", db, "ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "0", "Zero")))
            #expect(made.status == 0, "\(made.stderr)")
            let filler = Process()
            filler.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            filler.arguments = [db, "CREATE TABLE filler(b); INSERT INTO filler VALUES (zeroblob(\(fillerBytes)))"]
            try filler.run()
            filler.waitUntilExit()
            #expect(filler.terminationStatus == 0)
        }
        let writer = try PipeProcess(db: db)
        let records: JSONValue = [
            TestSupport.record("task", "1", "Walrus one"), TestSupport.record("task", "2", "Walrus two"),
        ]
        #expect(writer.call("ingest", ["records": records]).error == nil)
        writer.kill()  // no checkpoint: the records are in the -wal only
        #expect((try? FileManager.default.attributesOfItem(atPath: db + "-wal"))?[.size] as? Int ?? 0 > 0)
        for suffix in ["", "-wal", "-shm"] { #expect(chmod(db + suffix, 0o644) == 0) }
        #expect(chmod(dir, 0o755) == 0)
        if !keepShm { #expect(unlink(db + "-shm") == 0) }
        let scratch = TestSupport.temporaryDirectory()
        #expect(chmod(scratch, 0o777) == 0)
        return (dir, db, scratch)
    }

    /// `search walrus` as the unprivileged user.
    func searchAsNobody(_ dir: String, _ db: String, _ scratch: String) throws -> Binary.Result {
        try run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "search", "walrus", "--json"], in: dir, asNobody: true,
            environment: ["TMPDIR": scratch])
    }

    /// A read-only index whose writer died with changes still in its -wal: they are read, through the -shm left
    /// beside it, or from a private copy when there is none (which this process may not create); nothing is left
    /// beside the index, and the copy is kept once for the next readers. Before, the file was opened immutable
    /// and those changes were not seen.
    @Test func aReadOnlyIndexWithChangesInItsWalIsReadWhole() throws {
        guard canDropPrivileges else { return }
        let (dir, db, scratch) = try readOnlyIndexWithAWal()
        func search() throws -> Binary.Result { try searchAsNobody(dir, db, scratch) }
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        let throughShm = try search()
        #expect(throughShm.status == 0, "\(throughShm.stderr)")
        #expect(throughShm.json["entities"]?.array?.count == 2, "\(throughShm.stdout) \(throughShm.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == files)
        // Without the -shm, which this user may not create, a private copy is read.
        #expect(unlink(db + "-shm") == 0)
        let copied = try search()
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.json["entities"]?.array?.count == 2, "\(copied.stdout)")
        #expect(copied.stderr.contains("private copy"), "\(copied.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == files.filter { !$0.hasSuffix("-shm") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == ["entityidx-65534"])
        #expect(copies(scratch).count == 1, "one copy, kept for the next readers")
    }

    /// The private copies in `scratch` (the unprivileged user's folder of them), and anything else in it.
    func copies(_ scratch: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch + "/entityidx-65534")) ?? []).filter {
            $0.hasSuffix(".sqlite")
        }
    }
}
