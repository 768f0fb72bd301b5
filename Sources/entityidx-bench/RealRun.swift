import EntityIndex
import Foundation
import JSON
import SQLite

/// The real corpus: Debian's package list, ingested by `entityidx ingest`, by the raw FTS5 baseline and by FTS5 built by
/// hand, then searched with a query mix drawn from it, through the pipe, in process, and on both FTS5 databases; then
/// by tantivy, when given.
struct RealRun {
    let file: String
    let binary: String
    let work: String
    let queriesPerClass: Int
    /// Lines of the converter's report that name records it had to cut (shown in the report, never hidden).
    let cuts: [String]
    /// Tells this file's databases from another variant's in the same work folder.
    var tag = "real"
    /// Tantivy on the same records and queries, after the other two.
    var tantivy: TantivyPeer? = nil

    func run() throws -> RealReport {
        let (records, parseSeconds) = try readRecords(file)
        guard !records.isEmpty else { throw BenchError("\(file) holds no records") }

        // Ingest: the whole CLI on the NDJSON file, then the same file again (every record unchanged).
        let ours = "\(work)/\(tag).sqlite"
        let clock = "2026-06-01T00:00:00Z"
        let (status, peakKiB, seconds) = spawn([binary, "--db", ours, "--now", clock, "ingest", file])
        guard status == 0 else {
            throw BenchError(
                "entityidx ingest of \(file) failed with status \(status) (run it by hand to see which records)")
        }
        let (again, _, reSeconds) = spawn([binary, "--db", ours, "--now", clock, "ingest", file])
        guard again == 0 else { throw BenchError("entityidx re-ingest of \(file) failed with status \(again)") }

        let basePath = "\(work)/\(tag)-base.sqlite"
        let baseline = try RealBaseline(path: basePath)
        let t0 = now()
        try baseline.ingest(records)
        let baseSeconds = now() - t0 + parseSeconds
        try baseline.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        let handPath = "\(work)/\(tag)-hand.sqlite"
        let handBuilt = try HandBuiltFTS5(path: handPath)
        let t1 = now()
        _ = try handBuilt.ingest(file: file)
        let handSeconds = now() - t1
        try handBuilt.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

        let store = try EntityStore(path: ours, now: Timestamp.parse(clock)!)
        // A connection of the bench's own reads the database (the store keeps its connection to itself).
        let inspect = try Connection(path: ours)
        try inspect.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let ourBytes = fileSize(ours), baseBytes = fileSize(basePath), handBytes = fileSize(handPath)

        let corpus = RealCorpus(records: records)
        let pipe = try PipeClient(binary: binary, db: ours)
        defer { pipe.close() }
        let http = try ServeClient(binary: binary, db: ours)
        defer { http.close() }
        var classes: [ClassReport] = []
        let queries = corpus.queries(perClass: queriesPerClass)
        for qc in queries {
            for q in qc.queries.prefix(5) {
                _ = try store.search(SearchRequest(query: q))
                _ = try baseline.search(q)
                _ = try handBuilt.search(q)
                _ = try pipe.call(searchLine(q))
                try http.call(searchLine(q))
            }
            // Each side runs the class in its own loop, so that neither evicts the other's caches between queries.
            let piped = try Latency(timing: qc.queries) { _ = try pipe.call(searchLine($0)) }
            let served = try Latency(timing: qc.queries) { try http.call(searchLine($0)) }
            let mine = try Latency(timing: qc.queries) { _ = try store.search(SearchRequest(query: $0)) }
            let base = try Latency(timing: qc.queries) { _ = try baseline.search($0) }
            let hand = try Latency(timing: qc.queries) { _ = try handBuilt.search($0) }
            classes.append(
                ClassReport(
                    name: qc.name, inProcess: mine, pipe: piped, baseline: base, handBuilt: hand, serve: served))
        }
        // Throughput of the query mix, requests written ahead (pipelined) on the pipe and on the connection.
        let mix = queries.flatMap(\.queries)
        let lines = mix.map(searchLine)
        // The same mix with optional words (`matching: frequency`, `userQuery`'s default): the words as typed first,
        // then fewer while fewer than the page match them all.
        let frequencyLines = mix.map { searchLine($0, matching: "frequency") }
        for line in frequencyLines.prefix(5) { _ = try pipe.call(line) }
        let frequencyPipe = try Latency(timing: frequencyLines) { _ = try pipe.call($0) }
        let frequencyInProcess = try Latency(timing: mix) {
            _ = try store.search(SearchRequest(query: $0, matching: .frequency))
        }
        let pipeRate = try pipe.throughput(count: lines.count) { lines[$0] }
        let serveRate = try http.throughput(count: lines.count) { lines[$0] }
        let serveLoad = try ServeLoadReport.run(binary: binary, records: records, queries: mix, work: work)
        let sections = sectionQueries(corpus)
        classes.append(try filterClass(sections, store: store, baseline: baseline, pipe: pipe))
        let preview = try PreviewRun(pipe: pipe, queries: mix).run()
        // Read after the searches: dbstat's walk of every page would otherwise leave the page caches warmed.
        let tables = try TableBytes.read(inspect, fileBytes: ourBytes)
        let baseTables = try TableBytes.read(baseline.db, fileBytes: baseBytes)
        let handTables = try TableBytes.read(handBuilt.db, fileBytes: handBytes)
        var peer: PeerReport?
        if let tantivy {
            let report = try tantivy.run(
                records: file, classes: queries, sections: sections, sectionClass: classes.last!.name, work: work)
            for i in classes.indices { classes[i].tantivy = report.classes[classes[i].name] }
            peer = report
        }
        let searches = classes.dropLast()
        var all = ClassReport(
            name: "all searches", inProcess: Latency(samples: searches.flatMap(\.inProcess.samples)),
            pipe: Latency(samples: searches.flatMap(\.pipe.samples)),
            baseline: Latency(samples: searches.flatMap(\.baseline.samples)),
            handBuilt: Latency(samples: searches.flatMap { $0.handBuilt?.samples ?? [] }),
            serve: Latency(samples: searches.flatMap { $0.serve?.samples ?? [] }))
        if peer != nil { all.tantivy = Latency(samples: searches.flatMap { $0.tantivy?.samples ?? [] }) }
        return RealReport(
            records: records.count, described: records.filter { ($0["description"]?.string ?? "") != "" }.count,
            megabytesIn: Double(fileSize(file)) / 1e6, ingestSeconds: seconds, reingestSeconds: reSeconds,
            baselineSeconds: baseSeconds, bytes: ourBytes, baselineBytes: baseBytes,
            peakMemoryMB: Double(peakKiB) / 1024, classes: classes + [all], cuts: cuts, tables: tables,
            baselineTables: baseTables, handBuilt: (seconds: handSeconds, bytes: handBytes, tables: handTables),
            tantivy: peer,
            searchRates: (pipe: pipeRate, serve: serveRate, count: lines.count),
            frequency: (pipe: frequencyPipe, inProcess: frequencyInProcess), serveLoad: serveLoad, preview: preview)
    }

    /// The sections of the property query, one per query.
    func sectionQueries(_ corpus: RealCorpus) -> [String] {
        let sections = corpus.sections(minimum: 100)
        return (0..<queriesPerClass).map { sections[($0 * 7) % sections.count] }
    }

    func searchLine(_ q: String) -> String { searchLine(q, matching: nil) }

    func searchLine(_ q: String, matching: String?) -> String {
        #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"# + JSONWriter.string(.string(q))
            + (matching.map { #","matching":"\#($0)""# } ?? "") + #","limit":20}}"#
    }

    /// The property query: packages of one section, largest installed size first (an `eq` filter with a sort).
    func filterClass(_ chosen: [String], store: EntityStore, baseline: RealBaseline, pipe: PipeClient) throws
        -> ClassReport
    {
        func line(_ s: String) -> String {
            #"{"jsonrpc":"2.0","id":1,"method":"query","params":{"type":"package","filters":[{"property":"section","op":"eq","value":"#
                + JSONWriter.string(.string(s))
                + #"}],"sort":[{"property":"installedSize","order":"desc"}],"limit":20}}"#
        }
        for s in chosen.prefix(5) { _ = try pipe.call(line(s)) }
        let piped = try Latency(timing: chosen) { _ = try pipe.call(line($0)) }
        let mine = try Latency(timing: chosen) { s in
            _ = try store.query(
                PropertyQueryRequest(
                    type: "package", filters: [PropertyFilter(property: "section", op: .eq, value: .string(s))],
                    sort: [PropertySort(property: "installedSize", descending: true)], limit: 20))
        }
        let base = try Latency(timing: chosen) { _ = try baseline.filter(section: $0) }
        return ClassReport(name: "section eq, sort", inProcess: mine, pipe: piped, baseline: base)
    }
}

struct RealReport {
    var records: Int
    /// Records with a long description (none in the variant without them).
    var described: Int
    var megabytesIn: Double
    var ingestSeconds: Double, reingestSeconds: Double, baselineSeconds: Double
    var bytes: Int64, baselineBytes: Int64
    var peakMemoryMB: Double
    var classes: [ClassReport]
    var cuts: [String]
    var tables: [TableBytes], baselineTables: [TableBytes]
    /// FTS5 built by hand (`HandBuiltFTS5`): its ingest (reading and parsing the file included), its bytes on disk
    /// and where they go.
    var handBuilt: (seconds: Double, bytes: Int64, tables: [TableBytes])
    var tantivy: PeerReport?
    /// Searches per second of the query mix, written ahead, through the pipe and through `serve`'s `POST /rpc`.
    var searchRates: (pipe: Double, serve: Double, count: Int)? = nil
    /// The searches of every class again with `matching: frequency`: through the pipe and in process.
    var frequency: (pipe: Latency, inProcess: Latency)? = nil
    /// Searches through serve while another client ingests through it.
    var serveLoad: ServeLoadReport? = nil
    /// What the preview page of `serve` asks of the index.
    var preview: PreviewReport? = nil

    /// The variant of the package list: with long descriptions, or the short one alone.
    var withDescriptions: Bool { described > 0 }

    var bytesPerRecord: Double { Double(bytes) / Double(records) }
    var baselineBytesPerRecord: Double { Double(baselineBytes) / Double(records) }

    var text: String {
        func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
        var t =
            "\n== Debian packages\(withDescriptions ? "" : " without long descriptions"): \(records) records, \(f(megabytesIn, 1)) MB of NDJSON\n"
        t +=
            "ingest            \(f(ingestSeconds)) s, \(f(Double(records) / ingestSeconds, 0)) records/s   baseline \(f(baselineSeconds)) s   ratio \(f(ingestSeconds / baselineSeconds))×\n"
        t +=
            "re-ingest         \(f(reingestSeconds)) s (every record unchanged)   ratio to the baseline's ingest \(f(reingestSeconds / baselineSeconds))×\n"
        t +=
            "database          \(f(bytesPerRecord, 0)) B/record (\(f(Double(bytes) / 1e6, 1)) MB)   baseline \(f(baselineBytesPerRecord, 0)) (\(f(Double(baselineBytes) / 1e6, 1)) MB)   ratio \(f(bytesPerRecord / baselineBytesPerRecord))×\n"
        t += "peak memory       \(f(peakMemoryMB, 1)) MB (entityidx ingest)\n"
        t +=
            "FTS5 by hand      ingest \(f(handBuilt.seconds)) s, \(f(Double(handBuilt.bytes) / Double(records), 0)) B/record (\(f(Double(handBuilt.bytes) / 1e6, 1)) MB)\n"
        if let tantivy {
            t +=
                "tantivy           \(tantivy.version): build \(f(tantivy.ingestSeconds)) s, index \(f(Double(tantivy.bytes) / 1e6, 1)) MB in \(tantivy.segments) segments\n"
        }
        for c in cuts { t += "cut by converter  \(c)\n" }
        t += "latency, ms        pipe p50 / p99     baseline p50 / p99   ratio p50 / p99   in process p50 / p99"
        t += "   by hand p50 / p99" + (tantivy == nil ? "\n" : "   tantivy p50 / p99\n")
        for c in classes {
            let name = c.name.padding(toLength: 17, withPad: " ", startingAt: 0)
            t +=
                "  \(name) \(f(c.pipe.p50, 3)) / \(f(c.pipe.p99, 3))      \(f(c.baseline.p50, 3)) / \(f(c.baseline.p99, 3))"
            t += "     \(f(c.pipe.p50 / max(c.baseline.p50, 0.0001))) / \(f(c.pipe.p99 / max(c.baseline.p99, 0.0001)))"
            t += "      \(f(c.inProcess.p50, 3)) / \(f(c.inProcess.p99, 3))"
            t += c.handBuilt.map { "      \(f($0.p50, 3)) / \(f($0.p99, 3))" } ?? "      -"
            t += c.tantivy.map { "      \(f($0.p50, 3)) / \(f($0.p99, 3))\n" } ?? "\n"
        }
        if let frequency {
            t +=
                "  matching frequency \(f(frequency.pipe.p50, 3)) / \(f(frequency.pipe.p99, 3))   in process \(f(frequency.inProcess.p50, 3)) / \(f(frequency.inProcess.p99, 3))   (every search above, optional words)\n"
        }
        t += "through serve     POST /rpc, one keep-alive connection: latency p50 / p99, ms\n"
        for c in classes {
            guard let serve = c.serve else { continue }
            let name = c.name.padding(toLength: 17, withPad: " ", startingAt: 0)
            t +=
                "  \(name) \(f(serve.p50, 3)) / \(f(serve.p99, 3))   (pipe \(f(c.pipe.p50, 3)) / \(f(c.pipe.p99, 3)))\n"
        }
        if let rates = searchRates {
            t +=
                "search throughput \(rates.count) searches written ahead: pipe \(f(rates.pipe, 0)) req/s, serve \(f(rates.serve, 0)) req/s\n"
        }
        if let preview { t += preview.text }
        t += TableBytes.text(tables, title: "entityidx's database")
        t += TableBytes.text(baselineTables, title: "the baseline's database")
        if let check = tantivy?.regex {
            t +=
                "tantivy's prefix  regex and automaton match the same documents on \(check.identical) of \(check.checked) queries (\(check.matches) matches)\n"
            for c in classes {
                guard let times = check.classes[c.name] else { continue }
                let name = c.name.padding(toLength: 17, withPad: " ", startingAt: 0)
                t +=
                    "  \(name) regex \(f(times.regex.p50, 3)) / \(f(times.regex.p99, 3))   automaton \(f(times.automaton.p50, 3)) / \(f(times.automaton.p99, 3))\n"
            }
        }
        t += TableBytes.text(handBuilt.tables, title: "FTS5 by hand's database")
        if let tantivy {
            t += "bytes of tantivy's index, \(tantivy.bytes) in all\n"
            for file in tantivy.files {
                t +=
                    "  .\(file.kind.padding(toLength: 33, withPad: " ", startingAt: 0)) \(TableBytes.pad(file.bytes))\n"
            }
        }
        return t
    }
}
