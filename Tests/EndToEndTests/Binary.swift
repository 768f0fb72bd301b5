import Foundation
import JSON
import TestSupport

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

    /// Writing to a child that has gone fails with EPIPE instead of killing the test runner.
    static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

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

/// A pipe process driven line by line.
final class PipeProcess {
    let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    private var buffer = Data()
    private var nextId = 0
    /// Every request sent with `call` and every response read, for checking against the pipe's JSON Schema.
    private(set) var requests: [JSONValue] = []
    private(set) var responses: [JSONValue] = []

    init(db: String, now: String? = "2026-03-02T09:00:00Z", extra: [String] = []) throws {
        Binary.ignoreSIGPIPE
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db] + (now.map { ["--now", $0] } ?? []) + ["pipe"] + extra
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(raw line: Data) {
        try? stdin.fileHandleForWriting.write(contentsOf: line + Data([0x0A]))
    }

    func send(_ line: String) { send(raw: Data(line.utf8)) }

    /// Reads one response line.
    func readLine() -> JSONValue? {
        var scanned = 0  // bytes of `buffer` known to hold no line end, so that a long line is scanned once
        while true {
            if let newline = buffer[(buffer.startIndex + scanned)...].firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                let response = try? JSONParser().parse(Array(line))
                if let response { responses.append(response) }
                return response
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
        guard let response = readLine() else { return (nil, ["message": "the pipe closed"]) }
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
    var residentKiB: Int { status("VmRSS:") }

    /// The most resident memory the process has had (VmHWM), in KiB.
    var peakKiB: Int { status("VmHWM:") }

    private func status(_ field: String) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
}
