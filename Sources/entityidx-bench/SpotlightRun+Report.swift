import Foundation

extension SpotlightRun {
    static let begin = "<!-- spotlight: written by entityidx-bench spotlight -->"
    static let end = "<!-- /spotlight -->"

    /// The section as markdown, between markers so that `make bench` keeps it when it rewrites the file.
    static func section(_ r: Report) -> String {
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        var md = begin + "\n## Core Spotlight queries (`spotlight`) on Debian's package list\n\n"
        md +=
            "Produced by `make bench-spotlight` on \(EntityIdxBenchReport.machine()): \(r.records) packages from `scripts/debian-corpus.py`, each given a "
        md += "`lastUsedAt` in the year before `--now` (the corpus has no dates), ingested by `entityidx ingest` in "
        func mib(_ b: Int) -> String { f(Double(b) / 1_048_576, 1) }
        let total = r.tables.reduce(0) { $0 + $1.bytes }
        md += "\(f(r.ingestSeconds, 1)) s. The database holds \(mib(total)) MiB; by table, with its indexes: "
        md += r.tables.filter { $0.bytes >= 1 << 20 }.map { "`\($0.name)` \(mib($0.bytes))" }.joined(separator: ", ")
        md += " MiB (smaller ones left out); `spotlight_key` has \(r.spotlightRows) rows. "
        md += "Each form ran 300 times in process with values drawn from the corpus (fixed seed), "
        md +=
            "default limit (\(100)); the bound we hold the conformance forms to is a p99 of 20 ms. The plan is SQLite's for the first "
        md +=
            "query. The machine is shared: other builds and tests ran beside this one, which shows in the p99 and max columns.\n\n"
        md += "| form | example | p50 ms | p99 ms | max ms | matches (mean) | plan |\n|---|---|---|---|---|---|---|\n"
        for form in r.forms {
            let example = form.example.replacingOccurrences(of: "|", with: "\\|")
            let plan = form.plan.replacingOccurrences(of: "|", with: "\\|")
            md +=
                "| \(form.name) | `\(example)` | \(f(form.latency.p50, 3)) | \(f(form.latency.p99, 3)) | \(f(form.latency.max, 2)) | \(f(form.matches, 1)) | \(plan) |\n"
        }
        md +=
            "\nEquality and prefixes read `spotlight_key` (a lookup of head and hash, a range of heads), `t` the full-text "
        md +=
            "index's column of the attribute; each candidate is then checked on the stored value (the title on the entity, "
        md +=
            "other attributes on the stored record). A leading wildcard and `w` ask the full-text index for the words of "
        md +=
            "`vocabulary` that hold the pattern's longest ASCII run (up to 512 of them); past that, or for a run with a "
        md +=
            "digit, they read the titles' tokens or the search text of the attribute's column before checking the "
        md += "records that hold the run. Common words (`the`, `for`) have more words than that: the slow cases.\n"
        return md + end + "\n"
    }

    /// Replaces (or appends) the section in DIR/benchmarks.md.
    static func write(_ r: Report, to dir: String) throws {
        let path = dir + "/benchmarks.md"
        var text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        if let a = text.range(of: begin), let b = text.range(of: end, range: a.upperBound..<text.endIndex) {
            let after = text[b.upperBound...].drop(while: { $0 == "\n" })
            text = String(text[..<a.lowerBound]) + section(r) + (after.isEmpty ? "" : "\n" + after)
        } else {
            text += (text.hasSuffix("\n") ? "\n" : "\n\n") + section(r)
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(path)")
    }

    /// The section as it stands in a benchmarks.md text, for `make bench` to carry over.
    static func existingSection(in text: String) -> String? {
        guard let a = text.range(of: begin), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[a.lowerBound..<b.upperBound]) + "\n"
    }
}

/// The bench's report writer, named apart from `SpotlightRun.Report`.
typealias EntityIdxBenchReport = Report
