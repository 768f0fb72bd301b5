import Foundation

/// Drives `entityidx serve` over one keep-alive connection, the way a browser's fetch would: `POST /rpc` with a
/// JSON-RPC request, its whole response read back.
final class ServeClient {
    /// The server this client started (nil for a client of another one's server).
    let process: Process?
    let port: Int
    let fd: Int32
    /// Sent with each request (`Authorization`, for writes).
    var headers = ""
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)

    /// Starts `entityidx serve` on `db` and connects to it.
    convenience init(binary: String, db: String, extra: [String] = [], token: String? = nil) throws {
        let (process, port) = try Self.start(binary: binary, db: db, extra: extra, token: token)
        try self.init(port: port, process: process)
    }

    /// Starts `entityidx serve` on `db`: the process and its port.
    static func start(binary: String, db: String, extra: [String] = [], token: String? = nil) throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        // The connection waits while the other sides run their loops: longer than serve's default 30 s of silence.
        process.arguments =
            [
                "--db", db, "--now", "2026-06-01T00:00:00Z", "serve", "--port", "0", "--idle-timeout", "86400",
            ] + extra
        if let token {
            process.environment = ProcessInfo.processInfo.environment.merging(["ENTITYIDX_TOKEN": token]) { $1 }
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let piece = stdout.fileHandleForReading.availableData
            if piece.isEmpty { throw BenchError("entityidx serve ended before it listened") }
            text += String(decoding: piece, as: UTF8.self)
        }
        guard let port = text.split(separator: "\n").first?.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw BenchError("entityidx serve printed \(text.debugDescription), not its address")
        }
        return (process, port)
    }

    /// Connects to the server on `port` (started by `process`, stopped by `close`, when given).
    init(port: Int, process: Process? = nil) throws {
        self.process = process
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchError("cannot connect to entityidx serve on port \(port)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    static func request(_ body: String, headers: String = "") -> [UInt8] {
        Array(
            "POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
                .utf8)
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { throw BenchError("entityidx serve closed the connection") }
            offset += n
        }
    }

    /// Sends one request and reads its response's body.
    @discardableResult
    func call(_ body: String) throws -> [UInt8] {
        try write(Self.request(body, headers: headers))
        return try readResponse()
    }

    /// Reads the next response: its head up to the blank line, then `Content-Length` bytes.
    func readResponse() throws -> [UInt8] {
        var scanned = 0
        var headEnd: Int?
        while headEnd == nil {
            if buffer.count >= 4 {
                for i in max(0, scanned - 3)...(buffer.count - 4)
                where buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
                    headEnd = i
                    break
                }
                scanned = buffer.count
            }
            if headEnd == nil { try fill() }
        }
        let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self).lowercased()
        guard head.hasPrefix("http/1.1 200"), let range = head.range(of: "content-length: ") else {
            throw BenchError("entityidx serve answered \(head.prefix(80).debugDescription)")
        }
        let length = Int(head[range.upperBound...].prefix { $0.isNumber }) ?? 0
        let start = headEnd! + 4
        while buffer.count < start + length { try fill() }
        let body = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        return body
    }

    private func fill() throws {
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { throw BenchError("entityidx serve closed the connection") }
        buffer.append(contentsOf: chunk[0..<n])
    }

    /// Requests per second with `count` requests written ahead on the connection (pipelined) by another thread.
    func throughput(count: Int, _ request: @escaping @Sendable (Int) -> String) throws -> Double {
        let fd = self.fd
        let start = now()
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            for i in 0..<count {
                bytes += ServeClient.request(request(i))
                if bytes.count > 1 << 16 || i == count - 1 {
                    var offset = 0
                    while offset < bytes.count {
                        let n = bytes.withUnsafeBytes {
                            send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                        }
                        if n <= 0 { return }
                        offset += n
                    }
                    bytes = []
                }
            }
        }
        for _ in 0..<count { _ = try readResponse() }
        return Double(count) / (now() - start)
    }

    func close() {
        Foundation.close(fd)
        process?.terminate()
        process?.waitUntilExit()
    }
}
