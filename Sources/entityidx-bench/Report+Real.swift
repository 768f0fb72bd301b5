import Foundation

/// The real corpus's part of docs/benchmarks.md and its two charts.
extension Report {
    static func realSection(_ r: RealReport, dir: String) throws -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        var md = "## Real corpus: Debian's package list\n\n"
        md +=
            "\(r.records) packages (\(f(r.megabytesIn, 1)) MB of NDJSON), built on the machine by `scripts/debian-corpus.py` from "
        md +=
            "Debian's package indexes: name as id and title, short description as subtitle, long description as description, "
        md +=
            "Provides, Tags, Section and Source as keywords, nine properties, Depends as related ids. The baseline is raw FTS5 "
        md +=
            "(`unicode61`, no prefix index) over id, title, subtitle, keywords and description, searched with exact `bm25` "
        md += "ordering (`ORDER BY rank LIMIT 20`), plus a plain table with an index on (section, installed size).\n\n"
        for c in r.cuts { md += "- The converter cut a record to fit the record limits: `\(c)`.\n" }
        if !r.cuts.isEmpty { md += "\n" }
        md += "| | entityidx | baseline | ratio |\n|---|---|---|---|\n"
        md +=
            "| ingest, s | \(f(r.ingestSeconds)) | \(f(r.baselineSeconds)) | \(f(r.ingestSeconds / r.baselineSeconds))× |\n"
        md +=
            "| ingest, records/s | \(f(Double(r.records) / r.ingestSeconds, 0)) | \(f(Double(r.records) / r.baselineSeconds, 0)) | |\n"
        md +=
            "| re-ingest unchanged, s (ratio to the baseline's ingest) | \(f(r.reingestSeconds)) | | \(f(r.reingestSeconds / r.baselineSeconds))× |\n"
        md +=
            "| database, bytes/record | \(f(r.bytesPerRecord, 0)) | \(f(r.baselineBytesPerRecord, 0)) | \(f(r.bytesPerRecord / r.baselineBytesPerRecord))× |\n"
        md += "| database, MB | \(f(Double(r.bytes) / 1e6, 1)) | \(f(Double(r.baselineBytes) / 1e6, 1)) | |\n"
        md += "| peak memory of the ingest, MB | \(f(r.peakMemoryMB, 1)) | | |\n\n"
        md +=
            "Search latency in ms, \(r.classes.first?.pipe.samples.count ?? 0) queries per class drawn from the corpus. "
        md +=
            "entityidx is measured through the pipe (a request line to `entityidx pipe` and its whole response read back, 20 "
        md += "results) and in process; the baseline in process.\n\n"
        md +=
            "| class | pipe p50 | pipe p99 | baseline p50 | baseline p99 | ratio p50 | ratio p99 | in process p50 | in process p99 |\n"
        md += "|---|---|---|---|---|---|---|---|---|\n"
        for c in r.classes {
            md +=
                "| \(c.name) | \(f(c.pipe.p50, 3)) | \(f(c.pipe.p99, 3)) | \(f(c.baseline.p50, 3)) | \(f(c.baseline.p99, 3)) "
            md += "| \(f(c.pipe.p50 / max(c.baseline.p50, 0.0001)))× | \(f(c.pipe.p99 / max(c.baseline.p99, 0.0001)))× "
            md += "| \(f(c.inProcess.p50, 3)) | \(f(c.inProcess.p99, 3)) |\n"
        }
        var dat = "# class pipe_p50 pipe_p99 baseline_p50 baseline_p99\n"
        for c in r.classes {
            dat +=
                "\"\(c.name)\" \(f(c.pipe.p50, 4)) \(f(c.pipe.p99, 4)) \(f(c.baseline.p50, 4)) \(f(c.baseline.p99, 4))\n"
        }
        try dat.write(toFile: dir + "/real-latency.dat", atomically: true, encoding: .utf8)
        let ingest = """
            "ingest, s" \(f(r.ingestSeconds, 3)) \(f(r.baselineSeconds, 3))
            "re-ingest, s" \(f(r.reingestSeconds, 3)) 0
            "database, 10 MB" \(f(Double(r.bytes) / 1e7, 3)) \(f(Double(r.baselineBytes) / 1e7, 3))

            """
        try ingest.write(toFile: dir + "/real-ingest.dat", atomically: true, encoding: .utf8)
        let gp = """
            set terminal pngcairo size 1000,760
            set output '\(dir)/real.png'
            set multiplot layout 2,1 title 'Debian packages (\(r.records)): entityidx beside raw FTS5 with bm25'
            set style data histogram
            set style histogram cluster gap 1
            set style fill solid 0.8 border -1
            set boxwidth 0.9
            set grid ytics
            set key outside right top vertical
            set logscale y
            set ylabel 'ms'
            set xtics rotate by -25 font ',9'
            plot '\(dir)/real-latency.dat' using 2:xtic(1) title 'entityidx p50 (pipe)', '' using 3 title 'entityidx p99 (pipe)', \\
                 '' using 4 title 'FTS5 bm25 p50', '' using 5 title 'FTS5 bm25 p99'
            unset logscale y
            set ylabel ''
            set yrange [0:*]
            set xtics norotate font ',10'
            plot '\(dir)/real-ingest.dat' using 2:xtic(1) title 'entityidx', '' using 3 title 'FTS5 baseline'
            unset multiplot
            """
        try gp.write(toFile: dir + "/real.gp", atomically: true, encoding: .utf8)
        if runGnuplot(dir + "/real.gp") {
            md += "\n![Debian packages: latency, ingest and size beside the baseline](real.png)\n"
        }
        return md + "\n"
    }

    /// Runs gnuplot on a script; false when gnuplot is not installed or fails.
    static func runGnuplot(_ script: String) -> Bool {
        let gnuplot = Process()
        gnuplot.executableURL = URL(fileURLWithPath: "/usr/bin/gnuplot")
        gnuplot.arguments = [script]
        guard (try? gnuplot.run()) != nil else { return false }
        gnuplot.waitUntilExit()
        return gnuplot.terminationStatus == 0
    }
}
