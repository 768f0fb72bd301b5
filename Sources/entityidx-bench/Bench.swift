import EntityIndex
import Foundation
import JSON
import System

/// `make bench`: entityidx against plain FTS5 on the same corpus and queries, at several sizes.
///
/// Usage: entityidx-bench [--quick] [--sizes N,N…] [--real FILE]… [--tantivy SCRIPT [--python PATH]]
/// [--corpus both|real|synthetic] [--binary PATH] [--out DIR], or entityidx-bench generate N. The real corpus is
/// Debian's package list as NDJSON, made by scripts/debian-corpus.py (--real once per variant: with long
/// descriptions, without), where FTS5 built by hand (`HandBuiltFTS5`) runs beside the baseline; --tantivy runs
/// scripts/tantivy-peer.py with that Python on the same records and queries.
/// Prints the tables and writes DIR/benchmarks.md (docs by default) and the charts (gnuplot, when installed).
@main struct Bench {
    static func main() throws {
        let args = CommandLine.arguments
        // `entityidx-bench generate N`: the corpus as NDJSON on stdout, for trying things by hand.
        if args.count == 3, args[1] == "generate", let n = Int(args[2]) {
            let corpus = Corpus(count: n)
            var writer = JSONWriter(capacity: 1 << 20)
            for i in 0..<n {
                writer.write(corpus.record(i))
                writer.appendRaw([0x0A])
                if writer.bytes.count > 1 << 20 { FileHandle.standardOutput.write(Data(writer.bytes)); writer.clear() }
            }
            FileHandle.standardOutput.write(Data(writer.bytes))
            return
        }
        // `entityidx-bench typos N [DB]`: misspelt queries with a vocabulary of about N words (see TypoRun).
        if args.count >= 3, args[1] == "typos", let n = Int(args[2]) {
            try TypoRun(
                size: n, path: args.count > 3 ? args[3] : NSTemporaryDirectory() + "entityidx-typos-\(n).sqlite"
            ).run()
            return
        }
        // `entityidx-bench spotlight FILE [--queries N] [--db PATH] [--binary PATH] [--out DIR]`: the Core Spotlight query
        // forms on the real corpus (--db: a database that already holds FILE, ingested with the dates this adds).
        if args.count >= 3, args[1] == "spotlight" {
            func value(_ name: String) -> String? {
                args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
            }
            let binary =
                value("--binary")
                ?? URL(fileURLWithPath: args[0]).deletingLastPathComponent().appendingPathComponent("entityidx").path
            let work = NSTemporaryDirectory() + "entityidx-bench-\(getpid())"
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let report = try SpotlightRun(
                file: args[2], binary: binary, work: work,
                queriesPerForm: value("--queries").flatMap { Int($0) } ?? 300, database: value("--db")
            ).run()
            try SpotlightRun.write(report, to: value("--out") ?? "docs")
            return
        }
        let usage =
            "usage: entityidx-bench [--quick] [--sizes N,N…] [--real FILE]… [--tantivy SCRIPT [--python PATH]] [--corpus both|real|synthetic] [--binary PATH] [--out DIR] | generate N | typos N [DB] | spotlight FILE [--queries N] [--db PATH] [--binary PATH] [--out DIR]"
        var i = 1
        while i < args.count {
            switch args[i] {
            case "--quick": i += 1
            case let name
            where ["--sizes", "--binary", "--out", "--real", "--corpus", "--tantivy", "--python"].contains(name)
                && i + 1 < args.count:
                i += 2
            case "-h", "--help": print(usage); return
            default:
                FileHandle.standardError.write(Data("entityidx-bench: unexpected \"\(args[i])\"\n\(usage)\n".utf8))
                exit(2)
            }
        }
        let quick = args.contains("--quick")
        let startLoad = Report.loadAverage()
        func option(_ name: String) -> String? {
            args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
        }
        let binary =
            option("--binary")
            ?? URL(fileURLWithPath: args[0]).deletingLastPathComponent().appendingPathComponent("entityidx").path
        let out = option("--out") ?? "docs"
        let corpus = option("--corpus") ?? "both"
        guard ["both", "real", "synthetic"].contains(corpus) else {
            FileHandle.standardError.write(
                Data("entityidx-bench: --corpus must be both, real or synthetic, got \"\(corpus)\"\n\(usage)\n".utf8))
            exit(2)
        }
        let realFiles = args.indices.dropLast().filter { args[$0] == "--real" }.map { args[$0 + 1] }
        if corpus != "synthetic", realFiles.isEmpty {
            FileHandle.standardError.write(
                Data(
                    "entityidx-bench: the real corpus needs --real FILE (made by scripts/debian-corpus.py), or use --corpus synthetic\n\(usage)\n"
                        .utf8))
            exit(2)
        }
        let sizes =
            corpus == "real"
            ? []
            : option("--sizes")?.split(separator: ",").compactMap { Int($0) }
                ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000])
        let work = NSTemporaryDirectory() + "entityidx-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }

        let tantivy = option("--tantivy").map { TantivyPeer(python: option("--python") ?? "python3", script: $0) }
        var real: [RealReport] = []
        for (n, realFile) in realFiles.enumerated() where corpus != "synthetic" {
            // Lines of the converter's log that name a record it cut (the converter writes FILE.log beside FILE).
            let log = (try? String(contentsOfFile: realFile + ".log", encoding: .utf8)) ?? ""
            let cuts = log.split(separator: "\n").filter { $0.contains(" cut from ") }.map(String.init)
            let report = try RealRun(
                file: realFile, binary: binary, work: work, queriesPerClass: quick ? 60 : 300, cuts: cuts,
                tag: "real-\(n)", tantivy: tantivy
            ).run()
            print(report.text)
            real.append(report)
        }
        var reports: [SizeReport] = []
        for size in sizes {
            let report = try SizeRun(size: size, binary: binary, work: work, queriesPerClass: quick ? 60 : 200).run()
            print(report.text)
            reports.append(report)
        }
        try Report.write(reports, real: real, to: out, quick: quick, corpus: corpus, startLoad: startLoad)
    }
}

/// Monotonic seconds.
func now() -> Double { SystemClock.monotonicSeconds() }

/// Latency figures of one query class, in milliseconds.
struct Latency {
    var samples: [Double]

    init(samples: [Double]) { self.samples = samples }

    /// Times `body` once per item, in milliseconds.
    init<T>(timing items: [T], _ body: (T) throws -> Void) rethrows {
        samples = try items.map { item in
            let t = now()
            try body(item)
            return (now() - t) * 1000
        }
    }

    func percentile(_ p: Double) -> Double {
        let s = samples.sorted()
        guard !s.isEmpty else { return 0 }
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }
    var p50: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
    var max: Double { samples.max() ?? 0 }
}

struct ClassReport {
    var name: String
    var inProcess: Latency
    var pipe: Latency
    var baseline: Latency
    /// FTS5 built by hand (`HandBuiltFTS5`) on the real corpus: its searches (it has no property query).
    var handBuilt: Latency? = nil
    /// Tantivy's figures on the real corpus, when it ran.
    var tantivy: Latency? = nil
    /// `POST /rpc` of `entityidx serve` on one keep-alive connection, on the real corpus.
    var serve: Latency? = nil
}

struct SizeReport {
    var size: Int
    var ingestRate: Double, baselineIngestRate: Double
    var bytesPerRecord: Double, baselineBytesPerRecord: Double
    var peakMemoryMB: Double
    var coldStartMs: Double
    var pipeGetRate: Double, pipeSearchRate: Double
    var classes: [ClassReport]

    var text: String {
        func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
        var t = "\n== \(size) records\n"
        t +=
            "ingest            \(f(ingestRate, 0)) records/s   baseline \(f(baselineIngestRate, 0))   ratio \(f(ingestRate / baselineIngestRate))×\n"
        t +=
            "index size        \(f(bytesPerRecord, 0)) B/record     baseline \(f(baselineBytesPerRecord, 0))   ratio \(f(bytesPerRecord / baselineBytesPerRecord))×\n"
        t += "peak memory       \(f(peakMemoryMB, 1)) MB (entityidx ingest of the NDJSON file)\n"
        t += "cold start        \(f(coldStartMs, 1)) ms (entityidx get, whole process)\n"
        t += "pipe throughput   get \(f(pipeGetRate, 0)) req/s, search \(f(pipeSearchRate, 0)) req/s\n"
        t += "query latency, ms      in process p50 / p99 / max   pipe p50 / p99   baseline p50 / p99   ratio p50\n"
        for c in classes {
            let name = c.name.padding(toLength: 12, withPad: " ", startingAt: 0)
            t += "  \(name)        \(f(c.inProcess.p50, 3)) / \(f(c.inProcess.p99, 3)) / \(f(c.inProcess.max, 2))"
            t +=
                "       \(f(c.pipe.p50, 3)) / \(f(c.pipe.p99, 3))       \(f(c.baseline.p50, 3)) / \(f(c.baseline.p99, 3))"
            t += "       \(f(c.inProcess.p50 / max(c.baseline.p50, 0.0001), 1))×\n"
        }
        return t
    }
}
