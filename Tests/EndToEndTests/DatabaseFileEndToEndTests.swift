import Foundation
import JSON
import TestSupport
import Testing

/// The database file from the command line: paths, read-only files and folders, another user's view.
@Suite(.serialized) struct DatabaseFileEndToEndTests {
    let records = (0..<20).map { JSONWriter.string(TestSupport.record("task", "\($0)", "Task \($0)")) }.joined(
        separator: "\n")

    /// Runs the binary in `directory`, as the unprivileged user `nobody` when `asNobody` (file modes do not stop root).
    func run(_ arguments: [String], in directory: String, asNobody: Bool = false, input: String = "") throws
        -> Binary.Result
    {
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
        process.environment = env
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
}
