import Foundation
import JSON
import TestSupport
import Testing

/// Runs the built `entityidx` as a user would.
enum Binary {
    /// The build under test: `ENTITYIDX_TEST_BINARY` (`make soak` runs the release build at full size), else the
    /// debug build, else the release build.
    static let path: String = {
        if let given = ProcessInfo.processInfo.environment["ENTITYIDX_TEST_BINARY"], !given.isEmpty {
            return given.hasPrefix("/") ? given : TestSupport.repository + "/" + given
        }
        for config in ["debug", "release"] {
            let p = TestSupport.repository + "/.build/\(config)/entityidx"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return TestSupport.repository + "/.build/debug/entityidx"
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var json: JSONValue { (try? JSONParser().parse(stdout)) ?? .null }
    }

    /// A field of a process's /proc status in KiB (`VmRSS:`, `VmHWM:`, `VmSize:`), 0 when it cannot be read.
    static func statusKiB(_ pid: Int32, _ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    /// An index of 400 items of 8 KB at `db`, for the memory tests.
    static func ingestLargeItems(_ db: String) throws {
        let description = String(repeating: "words about the item and more words ", count: 220)
        let records = (0..<400).map { i in
            JSONWriter.string(
                TestSupport.record(
                    "item", String(format: "%05d", i), "Item \(i)", [("description", .string(description))]))
        }
        _ = try run(["--db", db, "ingest", "-"], input: records.joined(separator: "\n"))
    }

    /// The mapped size (VmSize, KiB) of a pipe (or MCP server) on `db` once it has opened the index and answered.
    static func idlePipeKiB(_ db: String, command: String = "pipe") throws -> Int {
        let idle = try PipeProcess(db: db, command: command)
        defer { idle.close() }
        _ = idle.call(command == "mcp" ? "ping" : "stats")
        return statusKiB(idle.process.processIdentifier, "VmSize:")
    }

    /// Runs `entityidx --db DB pipe` (or `mcp`) under an address-space limit of `kib` (`ulimit -v`), writing
    /// `input` from another thread while its output is read; returns the exit status and the output.
    static func pipe(underAddressSpaceLimit kib: Int, db: String, input: String, command: String = "pipe") throws -> (
        status: Int32, output: Data
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -v \(kib) && exec \"$0\" \"$@\"", path, "--db", db, command]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        ignoreSIGPIPE
        try process.run()
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// Starts `entityidx --db DB ingest -`, its output discarded; the caller writes records to `stdin` and closes it.
    static func startIngest(db: String) throws -> (process: Process, stdin: FileHandle) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--db", db, "ingest", "-"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, stdin.fileHandleForWriting)
    }

    /// Writing to a child that has gone fails with EPIPE instead of killing the test runner.
    static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Ingests the sample shop data (`data/`) into `db`, each file expected to succeed.
    static func ingestSamples(into db: String, now: String) throws {
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let r = try run(["--db", db, "--now", now, "ingest", TestSupport.repository + "/data/" + file])
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    /// What the stock `sqlite3` shell prints for `sql` on `db` (standard output and error), trimmed.
    static func sqlite(_ db: String, _ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [db, sql]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        p.waitUntilExit()
        return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Runs `entityidx ARGS` with `input` on stdin.
    static func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> Result {
        Binary.ignoreSIGPIPE
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "ENTITYIDX_DB")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let inputData = Data(input.utf8)
        Thread.detachNewThread {
            // A child that exits before reading all of its input must not kill the test runner with SIGPIPE.
            try? stdin.fileHandleForWriting.write(contentsOf: inputData)
            try? stdin.fileHandleForWriting.close()
        }
        let errors = ErrorCollector()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errors.data = stderr.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.data, as: UTF8.self))
    }
}

/// Holds what a reader thread collected; the semaphore orders the write before the read.
final class ErrorCollector: @unchecked Sendable {
    var data = Data()
}

/// A pipe (or MCP) process driven line by line.
final class PipeProcess {
    let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    private var buffer = Data()
    private var nextId = 0
    /// Every request sent with `call` and every response read, for checking against the pipe's JSON Schema.
    private(set) var requests: [JSONValue] = []
    private(set) var responses: [JSONValue] = []

    init(
        db: String, now: String? = "2026-03-02T09:00:00Z", extra: [String] = [], command: String = "pipe",
        environment: [String: String] = [:]
    ) throws {
        Binary.ignoreSIGPIPE
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db] + (now.map { ["--now", $0] } ?? []) + [command] + extra
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = stdin
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorPath) ?? FileHandle.nullDevice
        try process.run()
    }

    /// The process's standard error goes to a file, so that a process that ends early says why.
    let errorPath = TestSupport.temporaryDirectory() + "/stderr.txt"

    /// The last lines the process wrote to its standard error, and its exit status once it has ended.
    var whyClosed: String {
        let text = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let status = process.isRunning ? "still running" : "exit status \(process.terminationStatus)"
        return "the pipe closed (\(status)): " + String(text.suffix(400))
    }

    func send(raw line: Data) {
        try? stdin.fileHandleForWriting.write(contentsOf: line + Data([0x0A]))
    }

    func send(_ line: String) { send(raw: Data(line.utf8)) }

    /// Reads one response line.
    func readLine() -> JSONValue? {
        guard let line = readRawLine() else { return nil }
        let response = try? JSONParser().parse(Array(line))
        if let response { responses.append(response) }
        return response
    }

    /// Reads one response line's bytes, without its line end.
    func readRawLine() -> Data? {
        var scanned = 0  // bytes of `buffer` known to hold no line end, so that a long line is scanned once
        while true {
            if let newline = buffer[(buffer.startIndex + scanned)...].firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return line
            }
            scanned = buffer.count
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }

    /// Sends a request and returns (result, error).
    func call(_ method: String, _ params: JSONValue = [:]) -> (result: JSONValue?, error: JSONValue?) {
        nextId += 1
        let request: JSONValue = [
            "jsonrpc": "2.0", "id": JSONValue(nextId), "method": .string(method), "params": params,
        ]
        requests.append(request)
        send(JSONWriter.string(request))
        guard let response = readLine() else { return (nil, ["message": .string(whyClosed)]) }
        return (response["result"], response["error"])
    }

    /// Problems found checking the transcript against schema/pipe.schema.json (empty when it conforms).
    func schemaProblems() -> [String] {
        let schema = TestSupport.json(TestSupport.read(TestSupport.repository + "/schema/pipe.schema.json") ?? "{}")
        let checker = SchemaChecker(schema)
        var problems: [String] = []
        var methodsById: [String: String] = [:]
        for request in requests {
            problems += checker.problems(request, schema["$defs"]?["request"] ?? .null, at: "request")
            let method = request["method"]?.string ?? ""
            methodsById[JSONWriter.string(request["id"] ?? .null)] = method
            problems += checker.problems(
                request["params"] ?? [:], schema["methods"]?[method]?["params"] ?? .null, at: "\(method).params")
        }
        for response in responses.flatMap({ $0.array ?? [$0] }) {
            problems += checker.problems(response, schema["$defs"]?["response"] ?? .null, at: "response")
            if let result = response["result"], let method = methodsById[JSONWriter.string(response["id"] ?? .null)] {
                problems += checker.problems(
                    result, schema["methods"]?[method]?["result"] ?? .null, at: "\(method).result")
            }
        }
        return problems
    }

    func close() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Resident memory of the process, in KiB.
    var residentKiB: Int { Binary.statusKiB(process.processIdentifier, "VmRSS:") }

    /// The most resident memory the process has had (VmHWM), in KiB.
    var peakKiB: Int { Binary.statusKiB(process.processIdentifier, "VmHWM:") }

    /// The CPU time the process has used (user and system), in seconds.
    var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
