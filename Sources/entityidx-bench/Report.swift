import Foundation

/// Writes docs/benchmarks.md and the charts.
enum Report {
    /// `corpus`: both, real or synthetic. A run of one corpus keeps the other's sections of the file as they were.
    /// `startLoad`: the load average when the run began (`loadAverage()`).
    static func write(
        _ reports: [SizeReport], real: [RealReport], to dir: String, quick: Bool, corpus: String, startLoad: String
    ) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let old = try? String(contentsOfFile: dir + "/benchmarks.md", encoding: .utf8)
        // One variant of the package list alone: say which (make bench runs both by default).
        let variants = Set(real.map(\.withDescriptions))
        let variant = variants.count == 1 ? " DEBIAN_VARIANTS=\(variants.first! ? "long" : "short")" : ""
        let command =
            "make bench" + (quick ? " QUICK=1" : "") + (corpus == "both" ? "" : " BENCH_CORPUS=\(corpus)") + variant
        var md = "# Benchmarks\n\n"
        md +=
            "Produced by `\(command)` on \(machine()). Each figure is shown beside a baseline run in the same process: "
        md +=
            "the same records and queries against plain FTS5 (`unicode61`, no ICU, no ranking tiers) through the SQLite C API. "
        if !real.isEmpty {
            md += "On the real corpus, two peers built as their users build them run the same records and queries too, "
            md +=
                real.contains(where: { $0.tantivy != nil })
                ? "in the same run: FTS5 by hand and tantivy. " : "in the same run: FTS5 by hand. "
        }
        md += "Ratios are the primary figures; absolute times vary from run to run, with the machine's load: "
        md +=
            "the load average (1, 5 and 15 minutes) was \(startLoad) when the run began and \(loadAverage()) at its end.\n\n"
        let kept = "_Kept from an earlier run: `\(command)` did not measure this corpus._\n\n"
        for (i, r) in real.enumerated() { md += try realSection(r, dir: dir, first: i == 0) }
        md += bytesSection(real)
        md += previewSection(real)
        /// An earlier run's section, its heading followed by the note that says so (this run's note alone: the notes
        /// of the runs before, which named other commands, are dropped).
        func keep(_ section: String) -> String {
            var lines: [Substring] = []
            var skipBlank = false
            for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("_Kept from an earlier run: ") {
                    skipBlank = true
                } else if skipBlank && line.isEmpty {
                    skipBlank = false
                } else {
                    lines.append(line)
                    skipBlank = false
                }
            }
            let text = lines.joined(separator: "\n")
            guard let heading = text.range(of: "\n\n") else { return text }
            return String(text[..<heading.upperBound]) + kept + String(text[heading.upperBound...])
        }
        let stops = ["## Synthetic corpus", "## Reading the ratios", "<!-- spotlight", "<!-- kept: "]
        if real.isEmpty, let section = old.flatMap({ existing($0, from: "## Real corpus", to: stops) }) {
            md += keep(section) + "\n"
        }
        if !reports.isEmpty { md += try syntheticSection(reports, dir: dir) }
        if reports.isEmpty, let section = old.flatMap({ existing($0, from: "## Synthetic corpus", to: stops) }) {
            md += keep(section)
        }
        md += notes
        // The Core Spotlight section is written by `entityidx-bench spotlight` (make bench-spotlight): kept as it is.
        if let old, let spotlight = SpotlightRun.existingSection(in: old) {
            md += "\n" + spotlight
        }
        // Sections written by other scripts (scripts/facet-check.py, scripts/tier-cost.py), between `<!-- kept: `
        // and `<!-- /kept -->`: kept as they are.
        if let old { md += keptSections(in: old) }
        try md.write(toFile: dir + "/benchmarks.md", atomically: true, encoding: .utf8)
        print("\nwrote \(dir)/benchmarks.md")
    }

    /// Every section of `text` between `<!-- kept: NAME -->` and `<!-- /kept -->`, each after a blank line.
    static func keptSections(in text: String) -> String {
        var md = "", rest = text[...]
        while let a = rest.range(of: "<!-- kept: "),
            let b = rest.range(of: "<!-- /kept -->", range: a.upperBound..<rest.endIndex)
        {
            md += "\n" + rest[a.lowerBound..<b.upperBound] + "\n"
            rest = rest[b.upperBound...]
        }
        return md
    }

    /// The text of an earlier report from the heading `from` up to the first of the headings `to` after it (or its
    /// end), if it has that heading.
    static func existing(_ text: String, from: String, to: [String]) -> String? {
        guard let a = text.range(of: "\n" + from) else { return nil }
        let end =
            to.compactMap { text.range(of: "\n" + $0, range: a.upperBound..<text.endIndex)?.lowerBound }.min()
            ?? text.endIndex
        return String(text[text.index(after: a.lowerBound)..<end])
    }

    /// The synthetic corpus at each size: ingest and size, latency per query class, and the p99 chart.
    static func syntheticSection(_ reports: [SizeReport], dir: String) throws -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        var md = "## Synthetic corpus\n\n"
        md +=
            "| records | ingest rec/s | baseline rec/s | ratio | bytes/record | baseline | ratio | peak MB (ingest) | cold get ms | pipe get req/s | pipe search req/s |\n"
        md += "|---|---|---|---|---|---|---|---|---|---|---|\n"
        for r in reports {
            md +=
                "| \(r.size) | \(f(r.ingestRate, 0)) | \(f(r.baselineIngestRate, 0)) | \(f(r.ingestRate / r.baselineIngestRate))× | \(f(r.bytesPerRecord, 0)) | \(f(r.baselineBytesPerRecord, 0)) | \(f(r.bytesPerRecord / r.baselineBytesPerRecord))× | \(f(r.peakMemoryMB, 1)) | \(f(r.coldStartMs, 1)) | \(f(r.pipeGetRate, 0)) | \(f(r.pipeSearchRate, 0)) |\n"
        }
        for r in reports {
            md += "\n### Query latency at \(r.size) records (ms)\n\n"
            md +=
                "| class | p50 | p99 | max | pipe p50 | pipe p99 | baseline p50 | baseline p99 | p50 ratio |\n|---|---|---|---|---|---|---|---|---|\n"
            for c in r.classes {
                md +=
                    "| \(c.name) | \(f(c.inProcess.p50, 3)) | \(f(c.inProcess.p99, 3)) | \(f(c.inProcess.max, 2)) | \(f(c.pipe.p50, 3)) | \(f(c.pipe.p99, 3)) | \(f(c.baseline.p50, 3)) | \(f(c.baseline.p99, 3)) | \(f(c.inProcess.p50 / max(c.baseline.p50, 0.0001), 1))× |\n"
            }
        }
        // Chart data: p99 of each class against corpus size.
        var dat =
            "# records " + (reports.first?.classes.map { "\"\($0.name) p99\"" }.joined(separator: " ") ?? "") + "\n"
        for r in reports {
            dat += "\(r.size) " + r.classes.map { f($0.inProcess.p99, 4) }.joined(separator: " ") + "\n"
        }
        try dat.write(toFile: dir + "/latency.dat", atomically: true, encoding: .utf8)
        let n = reports.first?.classes.count ?? 0
        let plots = (0..<n).map { i in
            "'\(dir)/latency.dat' using 1:\(i + 2) with linespoints title '\(reports[0].classes[i].name)'"
        }
        let gp = """
            set terminal pngcairo size 900,560
            set output '\(dir)/latency.png'
            set logscale x
            set xlabel 'entities'
            set ylabel 'p99 search latency, ms (in process)'
            set key left top
            set grid
            plot \(plots.joined(separator: ", "))
            """
        try gp.write(toFile: dir + "/latency.gp", atomically: true, encoding: .utf8)
        if runGnuplot(dir + "/latency.gp") { md += "\n![p99 latency against corpus size](latency.png)\n" }
        return md
    }

    /// What the two sides do, so that the ratios can be read.
    static let notes = """

        ## Reading the ratios

        - **Ingest.** The baseline parses the NDJSON file in process and inserts each record as two rows: four text
          columns into one FTS5 table and three columns into a plain table. `entityidx ingest` is the whole command
          on the same file: strict validation, the record kept as ingested, ICU normalization, six FTS5 columns with
          1–3 character prefix indexes, the normalized text, a trigram index of ids and codes, one row per property
          value with two indexes, relations and the vocabulary, all in one transaction. It runs on two threads
          (reading, parsing, validation and text analysis on one; SQLite writes on the other); the writing thread is
          the busier. Both are timed as whole runs on a disk shared with other machines: the same build varies by
          20–30 % from one run to the next, so compare builds by alternating runs, not across tables.
        - **Size.** The record as ingested (returned by `get`, `all` and every result) is on its own larger than a
          baseline record; the prefix indexes are two thirds of the FTS5 index; property values are stored once per
          value and once per index; the trigram index of codes adds 10–30 bytes a record.
        - **Search.** The baseline orders every match by `bm25` (`ORDER BY rank`), so its cost grows with the number of
          matches; entityidx returns the exact top k too, but reads its tiers best first (documents keyed by rank) and
          stops when it has k, so its cost grows with what precedes the k-th result, not with the matches. Two common
          words are the slowest class: when few entities have both in the title, the buckets before the k-th result
          read both words' lists far.
        - **Pipe.** The pipe figures include the round trip through two OS pipes to another process.
        - **FTS5 by hand.** What a developer would write instead of entityidx, and the fair SQLite peer: the records'
          JSON kept by type and id, the same texts as entityidx in one FTS5 table, `bm25` top 20 with the records
          fetched. The raw baseline differs from it in leaving out the string properties and the records (its search
          returns rowids). Neither has typos, so the misspelt class costs them one empty lookup, where entityidx
          then searches the vocabulary for words within one or two edits.
        - **Tantivy.** The peer a search engineer would compare with: a Rust library with its own index format
          (compressed stored fields, block-encoded postings, an FST term dictionary), here from Python. Its build
          runs on one thread a core; its times include the binding's calls from Python (a few µs a query) and the
          fetching of 20 stored documents. Its prefix is the automaton its users write (`fuzzy_term_query` with
          `prefix=True`), never a regex compiled per query, which costs far more for the same matches (the
          comparison is in each real-corpus section). Like FTS5 it visits every match of the required words to take
          its top 20 (tantivy's block-max pruning is for unions of optional terms), a prefix being the union of
          every term that starts with it, so its one- and two-letter prefixes, which match most packages, are its
          slow classes. Its typo queries (a Levenshtein automaton a field) run only when nothing matched as typed,
          as entityidx's do.

        """

    /// The 1, 5 and 15 minute load averages of /proc/loadavg, as "a / b / c".
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        let fields = text.split(separator: " ").prefix(3)
        return fields.count == 3 ? fields.joined(separator: " / ") : "unknown"
    }

    static func machine() -> String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last?
            .trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return
            "\(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpu)), \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, Linux"
    }
}
