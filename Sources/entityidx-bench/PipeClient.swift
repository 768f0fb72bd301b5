import Foundation

/// Drives `entityidx pipe` as a child process, the way a tool would.
final class PipeClient {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    private var buffer = Data()
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 1 << 20)

    init(binary: String, db: String) throws {
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--db", db, "--now", "2026-06-01T00:00:00Z", "pipe"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends one request line and waits for its response line.
    @discardableResult
    func call(_ line: String) throws -> Data {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return try readLine()
    }

    /// Reads the next response line: POSIX reads into a buffer kept across calls, each new piece searched once for
    /// the line end (Foundation's `availableData` and re-scanning the whole buffer cost about a millisecond a
    /// 20 KB response, more than the search itself).
    func readLine() throws -> Data {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                scanned = buffer.startIndex
                return Data(line)
            }
            scanned = buffer.endIndex
            let n = chunk.withUnsafeMutableBytes { raw in
                Foundation.read(output.fileHandleForReading.fileDescriptor, raw.baseAddress, raw.count)
            }
            if n <= 0 { throw BenchError("the pipe closed") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Requests per second with `count` requests written ahead by another thread.
    func throughput(count: Int, _ request: @escaping @Sendable (Int) -> String) throws -> Double {
        let handle = input.fileHandleForWriting
        let start = now()
        Thread.detachNewThread {
            var chunk = ""
            for i in 0..<count {
                chunk += request(i) + "\n"
                if chunk.utf8.count > 1 << 16 { handle.write(Data(chunk.utf8)); chunk = "" }
            }
            handle.write(Data(chunk.utf8))
        }
        for _ in 0..<count { _ = try readLine() }
        return Double(count) / (now() - start)
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
