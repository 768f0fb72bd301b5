import Foundation
import JSON
import TestSupport

/// `entityidx serve --port 0` on a temporary or given index, its port and token read from its first lines.
final class ServeProcess {
    let process = Process()
    let port: Int
    let token: String?
    let errorPath = TestSupport.temporaryDirectory() + "/serve-stderr.txt"

    init(db: String, extra: [String] = [], environment: [String: String] = [:]) throws {
        Binary.ignoreSIGPIPE
        process.executableURL = URL(fileURLWithPath: Binary.path)
        process.arguments = ["--db", db, "--now", "2026-03-02T09:00:00Z", "serve", "--port", "0"] + extra
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "ENTITYIDX_TOKEN")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let stdout = Pipe()
        process.standardOutput = stdout
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorPath) ?? FileHandle.nullDevice
        try process.run()
        var text = ""
        let wantsToken = extra.contains("--allow-writes") && environment["ENTITYIDX_TOKEN"] == nil
        while !(text.contains("listening on") && (!wantsToken || text.contains("token: ")) && text.hasSuffix("\n")) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n").map(String.init)
        port =
            lines.first { $0.hasPrefix("listening on http://127.0.0.1:") }.flatMap {
                Int($0.split(separator: ":").last!)
            } ?? 0
        token = lines.first { $0.hasPrefix("token: ") }.map { String($0.dropFirst(7)) }
    }

    var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Whether `text` appears on stderr within `seconds` (a generous bound: it only catches a hang).
    func waitForLog(_ text: String, seconds: Double = 60) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        while Date() < until {
            if stderr.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    func connect() -> HTTPConnection { HTTPConnection(port: port) }

    /// One request on a new connection.
    func request(_ raw: String) -> HTTPReply? {
        let connection = connect()
        defer { connection.close() }
        connection.send(raw)
        return connection.read()
    }

    /// `POST /rpc` with a JSON body.
    func rpc(_ body: String, headers: [String] = []) -> HTTPReply? {
        request(Self.post("/rpc", body, headers: headers))
    }

    static func post(_ path: String, _ body: String, headers: [String] = []) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    }

    /// Sends SIGTERM and returns the exit status.
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { _ = stop() } }
}

/// A response read off a connection.
struct HTTPReply {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSONValue { (try? JSONParser().parse(body)) ?? .null }
}

/// A raw TCP connection to the server, for requests the usual clients would not send.
final class HTTPConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // A read waits as long as a loaded machine may take to answer; only a hang runs into it.
        var timeout = timeval(tv_sec: Int(TestSupport.hangSeconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Foundation.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Whether the server has closed (or reset) the connection: a read sees its end within `milliseconds`, by default
    /// as long as only a hang takes (a connection the server closes is seen closed as soon as it is).
    func closedByServer(within milliseconds: Int32 = Int32(TestSupport.hangSeconds * 1000)) -> Bool {
        guard buffer.isEmpty else { return false }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, milliseconds) == 1 else { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
        return n == 0 || (n < 0 && errno == ECONNRESET)  // closed, or reset
    }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// The next response (a `Content-Length` or chunked body; none for a HEAD), nil when the connection closes first.
    func read(head isHead: Bool = false) -> HTTPReply? {
        var end: Int?
        while end == nil {
            if let i = findHeadEnd() { end = i } else if !fill() { return nil }
        }
        let head = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var reply = HTTPReply(status: status, headers: headers, body: [])
        if isHead { return reply }
        if reply.header("Transfer-Encoding") == "chunked" {
            while true {
                guard let line = readLine(), let size = Int(line, radix: 16) else { return nil }
                while buffer.count < size + 2 { if !fill() { return nil } }
                reply.body += buffer[0..<size]
                buffer.removeFirst(size + 2)
                if size == 0 { return reply }
            }
        }
        let length = Int(reply.header("Content-Length") ?? "0") ?? 0
        while buffer.count < length { if !fill() { return nil } }
        reply.body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return reply
    }

    private func readLine() -> String? {
        while true {
            if let i = buffer.indices.dropLast().first(where: { buffer[$0] == 0x0D && buffer[$0 + 1] == 0x0A }) {
                let line = String(decoding: buffer[0..<i], as: UTF8.self)
                buffer.removeFirst(i + 2)
                return line
            }
            if !fill() { return nil }
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
            return i
        }
        return nil
    }

    func close() { Foundation.close(fd) }
}
