import Foundation

/// The real corpus's part of docs/benchmarks.md and its two charts, once per variant of the package list.
extension Report {
    /// `first`: the first variant of the run, which says what tantivy does (the second refers to it).
    static func realSection(_ r: RealReport, dir: String, first: Bool) throws -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        let chart = r.withDescriptions ? "real" : "real-short"
        let peer = r.tantivy
        var md = "## Real corpus: Debian's package list\(r.withDescriptions ? "" : " without long descriptions")\n\n"
        md +=
            "\(r.records) packages (\(f(r.megabytesIn, 1)) MB of NDJSON), built on the machine by `scripts/debian-corpus.py` from "
        md += "Debian's package indexes: name as id and title, short description as subtitle, "
        md +=
            r.withDescriptions
            ? "long description as description, " : "no description (`--no-long-descriptions`), "
        md +=
            "Provides, Tags, Section and Source as keywords, nine properties, Depends as related ids. The baseline is raw FTS5 "
        md +=
            "(`unicode61`, no prefix index) over id, title, subtitle, keywords and description, searched with exact `bm25` "
        md += "ordering (`ORDER BY rank LIMIT 20`), plus a plain table with an index on (section, installed size).\n\n"
        md += peersText(r, first: first)
        for c in r.cuts { md += "- The converter cut a record to fit the record limits: `\(c)`.\n" }
        if !r.cuts.isEmpty { md += "\n" }
        md += "| | entityidx | baseline | ratio | FTS5 by hand | entityidx / by hand |"
        md += "\(peer == nil ? "" : " tantivy | entityidx / tantivy |")\n"
        md += "|---|---|---|---|---|---|\(peer == nil ? "" : "---|---|")\n"
        /// Tantivy's value and entityidx's ratio to it (none when `ours` is nil).
        func peerColumns(_ value: Double?, _ ours: Double?, digits: Int = 2) -> String {
            guard peer != nil else { return "" }
            guard let value else { return " | |" }
            return " \(f(value, digits)) | \(ours.map { f($0 / value) + "×" } ?? "") |"
        }
        /// FTS5 by hand's value and entityidx's ratio to it.
        func handColumns(_ value: Double?, _ ours: Double?, digits: Int = 2) -> String {
            guard let value else { return " | |" }
            return " \(f(value, digits)) | \(ours.map { f($0 / value) + "×" } ?? "") |"
        }
        let hand = r.handBuilt
        md +=
            "| ingest, s | \(f(r.ingestSeconds)) | \(f(r.baselineSeconds)) | \(f(r.ingestSeconds / r.baselineSeconds))× |"
        md += handColumns(hand.seconds, r.ingestSeconds) + peerColumns(peer?.ingestSeconds, r.ingestSeconds) + "\n"
        md +=
            "| ingest, records/s | \(f(Double(r.records) / r.ingestSeconds, 0)) | \(f(Double(r.records) / r.baselineSeconds, 0)) | |"
        md += handColumns(Double(r.records) / hand.seconds, nil, digits: 0)
        md += peerColumns(peer.map { Double(r.records) / $0.ingestSeconds }, nil, digits: 0)
        md += "\n"
        md +=
            "| re-ingest unchanged, s (ratio to the baseline's ingest) | \(f(r.reingestSeconds)) | | \(f(r.reingestSeconds / r.baselineSeconds))× |"
        md += handColumns(nil, nil) + peerColumns(nil, 0) + "\n"
        md +=
            "| database, bytes/record | \(f(r.bytesPerRecord, 0)) | \(f(r.baselineBytesPerRecord, 0)) | \(f(r.bytesPerRecord / r.baselineBytesPerRecord))× |"
        md += handColumns(Double(hand.bytes) / Double(r.records), r.bytesPerRecord, digits: 0)
        md += peerColumns(peer.map { Double($0.bytes) / Double(r.records) }, r.bytesPerRecord, digits: 0) + "\n"
        md += "| database, MB | \(f(Double(r.bytes) / 1e6, 1)) | \(f(Double(r.baselineBytes) / 1e6, 1)) | |"
        md += handColumns(Double(hand.bytes) / 1e6, nil, digits: 1)
        md += peerColumns(peer.map { Double($0.bytes) / 1e6 }, nil, digits: 1) + "\n"
        md +=
            "| peak memory of the ingest, MB | \(f(r.peakMemoryMB, 1)) | | |\(handColumns(nil, nil))\(peerColumns(nil, 0))\n\n"
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
        md += peersTables(r)
        if r.classes.contains(where: { $0.serve != nil }) {
            md +=
                "\nThrough `entityidx serve`: the same searches as `POST /rpc` requests on one keep-alive connection (the "
            md += "request written, the whole response read back), beside the pipe's figures above. "
            md += "Its loop runs right after the pipe's on the same queries, on the caches that loop warmed, "
            md += "which favours it: read the ratio as the cost of HTTP's framing being no more than the pipe's, "
            md += "not as serve being faster.\n\n"
            md +=
                "| class | serve p50 | serve p99 | pipe p50 | pipe p99 | serve / pipe p50 |\n|---|---|---|---|---|---|\n"
            for c in r.classes {
                guard let serve = c.serve else { continue }
                md +=
                    "| \(c.name) | \(f(serve.p50, 3)) | \(f(serve.p99, 3)) | \(f(c.pipe.p50, 3)) | \(f(c.pipe.p99, 3)) "
                md += "| \(f(serve.p50 / max(c.pipe.p50, 0.0001)))× |\n"
            }
            if let frequency = r.frequency {
                md +=
                    "\nThe same searches with optional words (`matching: frequency`): the pipe p50 / p99 \(f(frequency.pipe.p50, 3)) / "
                md +=
                    "\(f(frequency.pipe.p99, 3)) ms, in process \(f(frequency.inProcess.p50, 3)) / \(f(frequency.inProcess.p99, 3)) ms.\n"
            }
            if let rates = r.searchRates {
                md +=
                    "\nThroughput of the \(rates.count) searches, written ahead and answered in order: the pipe \(f(rates.pipe, 0)) "
                md += "requests/s, serve \(f(rates.serve, 0)) requests/s (one connection, pipelined).\n"
            }
            if let load = r.serveLoad { md += "\n" + load.text }
        }
        var dat = "# class pipe_p50 pipe_p99 baseline_p50 baseline_p99 tantivy_p50 tantivy_p99 hand_p50 hand_p99\n"
        for c in r.classes {
            dat +=
                "\"\(c.name)\" \(f(c.pipe.p50, 4)) \(f(c.pipe.p99, 4)) \(f(c.baseline.p50, 4)) \(f(c.baseline.p99, 4))"
            dat += c.tantivy.map { " \(f($0.p50, 4)) \(f($0.p99, 4))" } ?? " NaN NaN"
            dat += c.handBuilt.map { " \(f($0.p50, 4)) \(f($0.p99, 4))\n" } ?? " NaN NaN\n"
        }
        try dat.write(toFile: dir + "/\(chart)-latency.dat", atomically: true, encoding: .utf8)
        let peerSeconds = peer.map { f($0.ingestSeconds, 3) } ?? "NaN"
        let peerSize = peer.map { f(Double($0.bytes) / 1e7, 3) } ?? "NaN"
        let ingest = """
            "ingest, s" \(f(r.ingestSeconds, 3)) \(f(r.baselineSeconds, 3)) \(peerSeconds) \(f(r.handBuilt.seconds, 3))
            "re-ingest, s" \(f(r.reingestSeconds, 3)) 0 0 0
            "database, 10 MB" \(f(Double(r.bytes) / 1e7, 3)) \(f(Double(r.baselineBytes) / 1e7, 3)) \(peerSize) \(f(Double(r.handBuilt.bytes) / 1e7, 3))

            """
        try ingest.write(toFile: dir + "/\(chart)-ingest.dat", atomically: true, encoding: .utf8)
        let peerLatency = peer == nil ? "" : ", \\\n     '' using 6 title 'tantivy p50', '' using 7 title 'tantivy p99'"
        let peerIngest = peer == nil ? "" : ", '' using 4 title 'tantivy'"
        let gp = """
            set terminal pngcairo size 1000,760
            set output '\(dir)/\(chart).png'
            set multiplot layout 2,1 title 'Debian packages (\(r.records)\(r.withDescriptions ? "" : ", no long descriptions")): entityidx beside raw FTS5 with bm25, FTS5 by hand\(peer == nil ? "" : " and tantivy")'
            set style data histogram
            set style histogram cluster gap 1
            set style fill solid 0.8 border -1
            set boxwidth 0.9
            set grid ytics
            set key outside right top vertical
            set logscale y
            set ylabel 'ms'
            set xtics rotate by -25 font ',9'
            plot '\(dir)/\(chart)-latency.dat' using 2:xtic(1) title 'entityidx p50 (pipe)', '' using 3 title 'entityidx p99 (pipe)', \\
                 '' using 4 title 'FTS5 bm25 p50', '' using 5 title 'FTS5 bm25 p99'\(peerLatency), \\
                 '' using 8 title 'FTS5 by hand p50', '' using 9 title 'FTS5 by hand p99'
            unset logscale y
            set ylabel ''
            set yrange [0:*]
            set xtics norotate font ',10'
            plot '\(dir)/\(chart)-ingest.dat' using 2:xtic(1) title 'entityidx', '' using 3 title 'FTS5 baseline'\(peerIngest), \\
                 '' using 5 title 'FTS5 by hand'
            unset multiplot
            """
        try gp.write(toFile: dir + "/\(chart).gp", atomically: true, encoding: .utf8)
        if runGnuplot(dir + "/\(chart).gp") {
            md += "\n![Debian packages: latency, ingest and size beside the baseline and the peers](\(chart).png)\n"
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
