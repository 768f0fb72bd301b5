import Foundation
import JSON
import TestSupport
import Testing

/// The hostile cases of the files and the streams at the sizes they were found at (`make soak`): a database
/// replaced under a server, the private copies of a read-only one, endless random input into `lint` and `drill`,
/// LSP framing and the smaller cases. `make test` runs them in ReplacementTests, DatabaseFileEndToEndTests,
/// LintBoundsTests, the LSP client tests and CLIHabitsTests.
extension HostileSoakTests {
    /// Case 5: 50 records through the server, `mv other.sqlite repl.sqlite` (320 orders), then `stats` through the
    /// server and through a fresh command, and a fresh command first, before the idle server's next request.
    @Test(arguments: ["pipe", "mcp"]) func aDatabaseReplacedUnderAServer(_ command: String) throws {
        let tests = ReplacementTests()
        for freshFirst in [false, true] {
            let (dir, server) = try tests.setUp(command)
            let repl = dir + "/repl.sqlite"
            #expect(rename(repl, dir + "/away.sqlite") == 0 && rename(dir + "/other.sqlite", repl) == 0)
            var t = monotonic()
            var fresh = freshFirst ? try tests.cliTypes(repl) : nil
            let freshSeconds = monotonic() - t
            t = monotonic()
            let stats = tests.types(server.call(through: command, "stats", [:]).result)
            let serverSeconds = monotonic() - t
            if fresh == nil { fresh = try tests.cliTypes(repl) }
            let refused = server.call(through: command, "ingest", ["records": [TestSupport.record("task", "x", "X")]])
            server.close()
            let away = try tests.cliTypes(dir + "/away.sqlite").types
            let integrity = try tests.sqlite(repl, "PRAGMA integrity_check")
            report(
                "\(command): replaced under the server (\(freshFirst ? "a fresh stats first: \(Int(freshSeconds * 1000)) ms, " : "")stats through it: \(Int(serverSeconds * 1000)) ms): it reads \(stats), a fresh command \(fresh?.types ?? [:]), its next write \(refused.code ?? "accepted"), the file moved away \(away), integrity \(integrity) (was 50 records and no orders, the orders lost)"
            )
            #expect(stats == ["order": 320] && fresh?.types == ["order": 320] && away == ["task": 50])
            #expect(refused.code == "database_replaced" && integrity == "ok")
            #expect(freshSeconds < 3)
        }
    }

    /// Case 6: a read-only database of 286 MB whose `-wal` cannot be read in place, read by one reader, then
    /// again, by four at once, and by four killed while they copy a new version; then once more.
    @Test func privateCopiesOfAReadOnlyDatabaseOf286Megabytes() throws {
        let files = DatabaseFileEndToEndTests()
        guard files.canDropPrivileges else { return }
        let (dir, db, scratch) = try files.readOnlyIndexWithAWal(keepShm: false, fillerBytes: 286_000_000)
        @Sendable func read() throws -> Double {
            let t = ProcessInfo.processInfo.systemUptime
            let r = try files.searchAsNobody(dir, db, scratch)
            #expect(r.json["entities"]?.array?.count == 2, "\(r.stderr)")
            return ProcessInfo.processInfo.systemUptime - t
        }
        let first = try read(), second = try read()
        let t = monotonic()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in _ = try? read() }
        let four = monotonic() - t
        for _ in 0..<4 {
            #expect(utimensat(AT_FDCWD, db + "-wal", nil, 0) == 0)  // a new version, so a new copy
            let killed = Process()
            killed.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            killed.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Binary.path, "--db", db, "stats"]
            killed.environment = ["TMPDIR": scratch]
            try killed.run()
            usleep(400_000)
            kill(killed.processIdentifier, SIGKILL)
            killed.waitUntilExit()
        }
        let afterKills = megabytes(scratch)
        let next = try read()
        let left = megabytes(scratch)
        report(
            "a read-only database of 286 MB: the first read \(ms(first)), the next \(ms(second)), four at once \(ms(four)); four readers killed while copying left \(afterKills) MB, the next read (\(ms(next))) left \(left) MB, \(files.copies(scratch).count) copy (was 0.6–0.8 s for every read, a copy each, 441 MB left by 4 kills)"
        )
        #expect(files.copies(scratch).count == 1)
        #expect(second < 0.5 && left < 320)
    }

    func ms(_ seconds: Double) -> String { "\(Int(seconds * 1000)) ms" }

    func megabytes(_ folder: String) -> Int {
        let files = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        let bytes = files.reduce(0) {
            $0 + (((try? FileManager.default.attributesOfItem(atPath: folder + "/" + $1))?[.size] as? Int) ?? 0)
        }
        return bytes / 1_000_000
    }

    /// Case 7: `/dev/urandom` into `lint -` and `drill --restore -` for ENTITYIDX_SOAK_SECONDS (60 by default):
    /// resident memory stays bounded, and SIGTERM ends the command within a second.
    @Test(arguments: [["lint", "-"], ["drill", "--restore", "-"]]) func randomBytesIntoLintAndDrill(_ command: [String])
        throws
    {
        let seconds = Double(ProcessInfo.processInfo.environment["ENTITYIDX_SOAK_SECONDS"] ?? "") ?? 60
        let db = fresh()
        _ = try Binary.run(["--db", db, "ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "1", "One")))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db] + command
        process.standardInput = FileHandle(forReadingAtPath: "/dev/urandom")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let start = monotonic()
        var peak = 0
        while monotonic() - start < seconds && process.isRunning {
            peak = max(peak, Binary.statusKiB(process.processIdentifier, "VmHWM:"))
            usleep(250_000)
        }
        let cpu = PipeProcess.cpuSeconds(process.processIdentifier)
        let sent = monotonic()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let took = monotonic() - sent
        report(
            "/dev/urandom into \(command.joined(separator: " ")) for \(Int(seconds)) s (\(String(format: "%.0f", cpu)) s of CPU): peak resident \(peak / 1024) MiB; SIGTERM answered in \(ms(took)), exit status \(process.terminationStatus) (was 12.2 GB after 179 s, and drill did not stop within 1 s)"
        )
        #expect(peak > 0 && peak < 128 << 10)
        #expect(took < 1 && process.terminationStatus == 128 + SIGTERM)
    }

    /// Case 8: LSP framing through the pipe (MCP's stdio transport is one message per line, by its
    /// specification): a header with a NUL, then a valid message; a line-framed request; `Content-Type` before
    /// `Content-Length`. Each gets its answer: the first two an error, the others their result.
    @Test func lspFramingResynchronizes() throws {
        let db = fresh()
        _ = try Binary.run(["--db", db, "ingest", "-"], input: JSONWriter.string(TestSupport.record("t", "1", "One")))
        func framed(_ id: Int, typeFirst: Bool = false) -> String {
            let body = #"{"jsonrpc":"2.0","id":\#(id),"method":"stats"}"#
            let length = "Content-Length: \(body.utf8.count)\r\n"
            let type = "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"
            return (typeFirst ? type + length : length + type) + "\r\n" + body
        }
        let input =
            framed(1) + "Content-Length: 12\u{0}34\r\n\r\n" + #"{"jsonrpc":"2.0","id":99}"# + framed(2)
            + #"{"jsonrpc":"2.0","id":3,"method":"stats"}"# + "\n" + framed(4, typeFirst: true)
        let t = monotonic()
        let r = try Binary.run(["--db", db, "pipe"], input: input)
        let took = monotonic() - t
        // Each answer: its headers, a blank line, then Content-Length bytes.
        var answers: [JSONValue] = []
        var rest = Array(r.stdout.utf8)[...]
        while let blank = rest.firstRange(of: Array("\r\n\r\n".utf8)) {
            let header = String(decoding: rest[..<blank.lowerBound], as: UTF8.self)
            guard let length = Int(header.split(separator: " ").last ?? "") else { break }
            let body = rest[blank.upperBound...].prefix(length)
            answers.append((try? JSONParser().parse(Array(body))) ?? .null)
            rest = rest[(blank.upperBound + length)...]
        }
        let shape = answers.map {
            "\($0["id"].map { JSONWriter.string($0) } ?? "?"):\($0["error"]?["data"]?["code"]?.string ?? "result")"
        }
        report(
            "pipe: LSP framing, 5 messages (a header with a NUL, a line-framed one): \(shape) in \(ms(took)) (was: the message after the bad header never answered, the line-framed one neither, Content-Type first read as lines)"
        )
        #expect(shape == ["1:result", "null:parse_error", "2:result", "3:invalid_request", "4:result"])
    }

    /// Case 9, the files: a read on a 0-byte file is `no_index` and leaves it 0 bytes; `--db :memory:` is a usage
    /// error.
    @Test func anEmptyFileAndADatabaseInMemory() throws {
        let db = fresh()
        #expect(FileManager.default.createFile(atPath: db, contents: Data()))
        let read = try Binary.run(["--db", db, "stats", "--json"])
        let size = (try? FileManager.default.attributesOfItem(atPath: db))?[.size] as? Int
        let memory = try Binary.run(["--db", ":memory:", "ingest", "-"], input: "{}")
        report(
            "a read on a 0-byte file: exit \(read.status), \(read.stderr.contains("no_index") ? "no_index" : read.stderr), \(size ?? -1) bytes after (was a 160 KB schema written); --db :memory:: exit \(memory.status) (was \"inserted 1\", nothing kept)"
        )
        #expect(read.status == 1 && size == 0 && memory.status == 64)
    }
}
