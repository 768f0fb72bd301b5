import Foundation

/// Drives `entityidx pipe` as a child process, the way a tool would.
final class PipeClient {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    /// Bytes read and not yet returned: `storage[start..<filled]`, searched for a line end up to `scanned`.
    private var storage = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0, filled = 0, scanned = 0

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

    /// Reads the next response line: POSIX reads into a byte buffer kept across calls, each new piece searched once
    /// for the line end with `memchr` (Foundation's `availableData`, and `Data`'s generic search and appends, cost
    /// about a millisecond a 20 KB response, more than the search itself).
    func readLine() throws -> Data {
        while true {
            let newline = storage.withUnsafeBufferPointer { p -> Int? in
                guard scanned < filled, let hit = memchr(p.baseAddress! + scanned, 0x0A, filled - scanned) else {
                    return nil
                }
                return p.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            if let newline {
                let line = Data(storage[start..<newline])
                start = newline + 1
                scanned = start
                if start == filled { (start, filled, scanned) = (0, 0, 0) }
                return line
            }
            scanned = filled
            if storage.count - filled < 1 << 16 {
                // Move what is left to the front, and grow the buffer when a line needs more room.
                storage.withUnsafeMutableBufferPointer { p in
                    _ = memmove(p.baseAddress!, p.baseAddress! + start, filled - start)
                }
                (filled, scanned, start) = (filled - start, scanned - start, 0)
                if storage.count - filled < 1 << 16 { storage += [UInt8](repeating: 0, count: storage.count) }
            }
            let n = storage.withUnsafeMutableBufferPointer { p in
                Foundation.read(output.fileHandleForReading.fileDescriptor, p.baseAddress! + filled, p.count - filled)
            }
            if n <= 0 { throw BenchError("the pipe closed") }
            filled += n
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
