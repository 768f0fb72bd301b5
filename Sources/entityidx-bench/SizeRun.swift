import EntityIndex
import Foundation
import JSON
import SQLite

/// One corpus size: build both indexes, then time ingest, queries, the pipe and a cold start.
struct SizeRun {
    let size: Int
    let binary: String
    let work: String
    let queriesPerClass: Int

    func run() throws -> SizeReport {
        let corpus = Corpus(count: size)
        let file = "\(work)/corpus-\(size).ndjson"
        try writeCorpus(corpus, to: file)

        // Ingest: the real user path (the CLI on the NDJSON file) against parse + insert into plain FTS5.
        let ours = "\(work)/ours-\(size).sqlite"
        let (status, peakKiB, seconds) = spawn([binary, "--db", ours, "--now", "2026-06-01T00:00:00Z", "ingest", file])
        guard status == 0 else { throw BenchError("entityidx ingest failed with status \(status)") }
        let basePath = "\(work)/base-\(size).sqlite"
        let baseline = try Baseline(path: basePath)
        let (records, parseSeconds) = try readRecords(file)
        let t0 = now()
        try baseline.ingest(records)
        let baseSeconds = now() - t0 + parseSeconds
        try baseline.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        let store = try EntityStore(path: ours, now: Timestamp.parse("2026-06-01T00:00:00Z")!)
        // A connection of the bench's own reads the database (the store keeps its connection to itself).
        let inspect = try Connection(path: ours)
        try inspect.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let ourBytes = fileSize(ours), baseBytes = fileSize(basePath)

        // Queries, in process, through the pipe, and on the baseline.
        var classes: [ClassReport] = []
        let pipe = try PipeClient(binary: binary, db: ours)
        defer { pipe.close() }
        for qc in corpus.queries(perClass: queriesPerClass) {
            for q in qc.queries.prefix(5) { _ = try store.search(SearchRequest(query: q)); _ = try baseline.search(q) }
            // Each system runs the class in its own loop, so that neither evicts the other's caches between queries.
            let mine = try Latency(timing: qc.queries) { _ = try store.search(SearchRequest(query: $0)) }
            let piped = try Latency(timing: qc.queries) {
                _ = try pipe.call(
                    #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"# + JSONWriter.string(.string($0))
                        + "}}")
            }
            let base = try Latency(timing: qc.queries) { _ = try baseline.search($0) }
            classes.append(ClassReport(name: qc.name, inProcess: mine, pipe: piped, baseline: base))
        }
        classes.append(try filterClass(store: store, baseline: baseline, pipe: pipe))

        // Pipe throughput: requests written ahead, answers read as they come.
        let getRate = try pipe.throughput(count: 20_000) { i in
            #"{"jsonrpc":"2.0","id":\#(i),"method":"get","params":{"type":"order","ids":["\#(1000 + (i * 4) % size)"]}}"#
        }
        let words = Corpus.latin
        let searchRate = try pipe.throughput(count: 5_000) { i in
            #"{"jsonrpc":"2.0","id":\#(i),"method":"search","params":{"query":"\#(words[i % words.count]) \#(words[(i * 7) % words.count])"}}"#
        }

        // Cold start: one `get`, whole process.
        var starts: [Double] = []
        for _ in 0..<15 {
            let (_, _, s) = spawn([binary, "--db", ours, "get", "--type", "order", "1000"])
            starts.append(s * 1000)
        }
        return SizeReport(
            size: size, ingestRate: Double(size) / seconds, baselineIngestRate: Double(size) / baseSeconds,
            bytesPerRecord: Double(ourBytes) / Double(size), baselineBytesPerRecord: Double(baseBytes) / Double(size),
            peakMemoryMB: Double(peakKiB) / 1024, coldStartMs: Latency(samples: starts).p50,
            pipeGetRate: getRate, pipeSearchRate: searchRate, classes: classes)
    }

    /// Property queries: orders with a status and a minimum total, sorted by total.
    func filterClass(store: EntityStore, baseline: Baseline, pipe: PipeClient) throws -> ClassReport {
        let parameters = (0..<queriesPerClass).map { i in
            (status: Corpus.statuses[i % Corpus.statuses.count], minTotal: Double(100 + (i * 37) % 400))
        }
        let mine = try Latency(timing: parameters) { p in
            _ = try store.query(
                PropertyQueryRequest(
                    type: "order",
                    filters: [
                        PropertyFilter(property: "status", op: .eq, value: .string(p.status)),
                        PropertyFilter(property: "total", op: .ge, value: .number(JSONNumber(p.minTotal))),
                    ],
                    sort: [PropertySort(property: "total", descending: true)], limit: 20))
        }
        let piped = try Latency(timing: parameters) { p in
            _ = try pipe.call(
                #"{"jsonrpc":"2.0","id":1,"method":"query","params":{"type":"order","filters":[{"property":"status","op":"eq","value":"\#(p.status)"},{"property":"total","op":"ge","value":\#(p.minTotal)}],"sort":[{"property":"total","order":"desc"}],"limit":20}}"#
            )
        }
        let base = try Latency(timing: parameters) { p in
            _ = try baseline.filter(status: p.status, minTotal: p.minTotal)
        }
        return ClassReport(name: "filter", inProcess: mine, pipe: piped, baseline: base)
    }

    func writeCorpus(_ corpus: Corpus, to path: String) throws {
        guard let handle = fopen(path, "wb") else { throw BenchError("cannot write \(path)") }
        defer { fclose(handle) }
        var writer = JSONWriter(capacity: 1 << 20)
        for i in 0..<corpus.count {
            writer.write(corpus.record(i))
            writer.appendRaw([0x0A])
            if writer.bytes.count > 1 << 20 {
                _ = writer.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
                writer.clear()
            }
        }
        _ = writer.bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
    }
}

/// Reads and parses the corpus; the parsing time counts in the baseline's ingest, as it does in ours.
func readRecords(_ path: String) throws -> ([JSONValue], Double) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw BenchError("cannot read \(path)") }
    defer { close(fd) }
    let reader = JSONStreamReader(fd: fd)
    var records: [JSONValue] = []
    let t = now()
    while let e = try reader.next() { records.append(try JSONParser().parse(e.bytes)) }
    return (records, now() - t)
}

func fileSize(_ path: String) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64) ?? 0
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Runs a command to completion; returns its status, peak resident memory (KiB) and wall time (s).
///
/// The peak is the child's own `VmHWM`, read from /proc while it runs: `wait4`'s `ru_maxrss` would also count this
/// process's memory, which the child inherits at exec when it is spawned with vfork (glibc's posix_spawn).
func spawn(_ argv: [String]) -> (Int32, Int, Double) {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let t = now()
    guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else { return (-1, 0, 0) }
    var peakKiB = 0
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) == 0 {
        peakKiB = max(peakKiB, highWaterMarkKiB(pid))
        usleep(2_000)
    }
    return ((status >> 8) & 0xFF, peakKiB, now() - t)
}

/// `VmHWM` of a running process, in KiB (0 once it has exited).
func highWaterMarkKiB(_ pid: pid_t) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}
