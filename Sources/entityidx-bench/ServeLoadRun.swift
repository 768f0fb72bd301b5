import Foundation
import JSON

/// Reads beside writes through `entityidx serve`: four clients search the query mix in a loop while a fifth
/// ingests the corpus into a new index through the same server, 2,000 records a request; then the same four
/// clients search the finished index alone. What a developer's preview page and scripts see while the app pushes
/// its records.
struct ServeLoadReport {
    var records: Int
    var ingestSeconds: Double
    /// Searches answered while the ingest ran, and the same clients afterwards with no write.
    var during: Latency
    var quiet: Latency

    var text: String {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        return
            "Reads beside writes (`serve`, 4 searching clients, a fifth ingesting \(records) records in \(f(ingestSeconds)) s, 2,000 a request): "
            + "searches during the ingest p50 / p99 / slowest \(f(during.p50)) / \(f(during.p99)) / \(f(during.max)) ms "
            + "(\(during.samples.count) searches); the same clients with no write \(f(quiet.p50)) / \(f(quiet.p99)) / \(f(quiet.max)) ms.\n"
    }

    static func run(binary: String, records: [JSONValue], queries: [String], work: String) throws -> ServeLoadReport {
        let db = "\(work)/serve-load.sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        let token = "bench-token"
        let (process, port) = try ServeClient.start(binary: binary, db: db, extra: ["--allow-writes"], token: token)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let writer = try ServeClient(port: port)
        writer.headers = "Authorization: Bearer \(token)\r\n"
        defer { writer.close() }
        // The first chunk before the readers start, so that their searches have an index to read.
        let chunks = stride(from: 0, to: records.count, by: 2000).map {
            #"{"jsonrpc":"2.0","id":1,"method":"ingest","params":{"records":"#
                + JSONWriter.string(.array(Array(records[$0..<min($0 + 2000, records.count)]))) + "}}"
        }
        guard let first = chunks.first else { throw BenchError("no records to ingest") }
        try writer.call(first)
        let lines = queries.map {
            #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"# + JSONWriter.string(.string($0))
                + #","limit":20}}"#
        }
        let done = Flag()
        let start = now()
        let readers = (0..<4).map { r in SearchLoop(port: port, lines: lines, offset: r * 37, until: done) }
        for chunk in chunks.dropFirst() { try writer.call(chunk) }
        let ingestSeconds = now() - start
        done.set()
        let during = Latency(samples: try readers.flatMap { try $0.finish() })
        // The same clients, the same searches, nothing written.
        let quietDone = Flag()
        let quietReaders = (0..<4).map { r in
            SearchLoop(port: port, lines: lines, offset: r * 37, until: quietDone, count: lines.count)
        }
        let quiet = Latency(samples: try quietReaders.flatMap { try $0.finish() })
        return ServeLoadReport(records: records.count, ingestSeconds: ingestSeconds, during: during, quiet: quiet)
    }
}

/// A flag set by one thread and read by others.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// One client searching on its own connection and thread until a flag is set (or `count` searches are done).
final class SearchLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Double] = []
    private var failure: Error?
    private let finished = DispatchSemaphore(value: 0)

    init(port: Int, lines: [String], offset: Int, until flag: Flag, count: Int? = nil) {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            do {
                let client = try ServeClient(port: port)
                defer { client.close() }
                var i = offset
                while count.map({ i - offset < $0 }) ?? !flag.isSet {
                    let t = now()
                    try client.call(lines[i % lines.count])
                    let ms = (now() - t) * 1000
                    lock.withLock { samples.append(ms) }
                    i += 1
                }
            } catch {
                lock.withLock { failure = error }
            }
        }
    }

    /// Waits for the loop to end: its samples in milliseconds.
    func finish() throws -> [Double] {
        finished.wait()
        return try lock.withLock {
            if let failure { throw failure }
            return samples
        }
    }
}
