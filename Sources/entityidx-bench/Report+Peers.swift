import Foundation

/// The peers of the real corpus in docs/benchmarks.md: FTS5 built by hand and tantivy, each built as its users build
/// it, beside entityidx in process; and tantivy's prefix automaton beside the regex it replaced.
extension Report {
    /// What each peer indexes and how it queries (in full for the first variant of the run; the second refers to it).
    static func peersText(_ r: RealReport, first: Bool) -> String {
        let peer = r.tantivy
        guard first else {
            var md = "FTS5 by hand\(peer == nil ? "" : " and tantivy") as above"
            if let peer { md += "; tantivy's index ends in \(peer.segments) segments" }
            return md + ".\n\n"
        }
        var md =
            "**FTS5 by hand** (`HandBuiltFTS5.swift`, in process, through the project's SQLite wrapper) is what a developer "
        md +=
            "would write instead of entityidx: each record's JSON line stored as it came, keyed by type and id; the text "
        md +=
            "entityidx searches (title, keywords, subtitle, description, the string properties, id) in one FTS5 table "
        md +=
            "(`unicode61`, FTS5's defaults, no prefix index) sharing the record's rowid; WAL with `synchronous = NORMAL`; "
        md +=
            "the whole file read, parsed and inserted in one transaction (its ingest time includes the reading and parsing). "
        md +=
            "A search quotes each word and makes the last one a prefix, as the baseline does, and takes the top 20 by "
        md +=
            "`bm25` with their records (`… JOIN record … WHERE record_text MATCH ? ORDER BY rank LIMIT 20`). It has no "
        md += "typo tolerance (FTS5 has none) and no property query.\n\n"
        guard let peer else { return md }
        md +=
            "**Tantivy** (\(peer.version), Python's `tantivy` package, run by `scripts/tantivy-peer.py` after the others) "
        md +=
            "indexes the same six texts as entityidx, one positioned text field each (split as `unicode61` splits, "
        md +=
            "lower-cased, accents folded), and stores each record's JSON line as its document, plus the section and the "
        md +=
            "installed size (a fast field) for the property query; its index is built in process from the same NDJSON "
        md +=
            "file (parsing included) on the threads tantivy chooses (one a core, up to 8), and ends in \(peer.segments) "
        md +=
            "segments. A search is built as tantivy's users build one: every word required, in any field (a boolean "
        md +=
            "query of one query a field), a term or, for a word of several tokens, a phrase; the last word through "
        md +=
            "tantivy's prefix automaton (`fuzzy_term_query(field, word, distance=0, prefix=True)`; a phrase prefix for "
        md +=
            "several tokens), with the whole word as an optional clause so that it ranks by `bm25`; the top 20 without "
        md +=
            "a count, their 20 stored documents fetched. When nothing matches, words of five letters or more match with "
        md +=
            "typos, as entityidx's do (one edit from 5 letters, two from 9; `fuzzy_term_query` with `distance` 1 or 2, "
        md +=
            "the last word a prefix). Timed in Python around the binding's calls; the script's head names where its "
        md += "scores and typos differ from entityidx's.\n\n"
        return md
    }

    /// entityidx in process beside the peers by class, then tantivy's regex prefix beside its automaton.
    static func peersTables(_ r: RealReport) -> String {
        func f(_ v: Double, _ d: Int = 3) -> String { String(format: "%.\(d)f", v) }
        func ratio(_ a: Double, _ b: Double) -> String { f(a / max(b, 0.0001), 2) + "×" }
        let peer = r.tantivy
        var md = "\nBeside the peers built as their users build them, all in process (ms; ratios of the p50s): "
        md +=
            "bm25 scores every match before it takes the top 20, in FTS5 and tantivy alike (tantivy's block-max pruning "
        md +=
            "is for unions of optional terms, and every word here is required); entityidx reads its tiers best first "
        md += "and stops at k.\n\n"
        md += "| class | entityidx p50 | entityidx p99 | FTS5 by hand p50 | FTS5 by hand p99 | entityidx / by hand |"
        md += peer == nil ? "\n" : " tantivy p50 | tantivy p99 | entityidx / tantivy |\n"
        md += "|---|---|---|---|---|---|\(peer == nil ? "" : "---|---|---|")\n"
        for c in r.classes {
            md += "| \(c.name) | \(f(c.inProcess.p50)) | \(f(c.inProcess.p99)) |"
            md +=
                c.handBuilt.map { " \(f($0.p50)) | \(f($0.p99)) | \(ratio(c.inProcess.p50, $0.p50)) |" }
                ?? " | | |"
            if peer != nil {
                md +=
                    c.tantivy.map { " \(f($0.p50)) | \(f($0.p99)) | \(ratio(c.inProcess.p50, $0.p50)) |" }
                    ?? " | | |"
            }
            md += "\n"
        }
        guard let check = peer?.regex else { return md }
        md +=
            "\nTantivy's prefix, the automaton beside a regex (`word.*` compiled for each field of each query, as this "
        md +=
            "bench once built it), on the same index and queries: of the \(check.checked) queries that end in a one-token "
        md +=
            "word, \(check.identical) match the same documents both ways (\(check.matches) matches in all)"
        md +=
            check.different.isEmpty
            ? ". " : "; these differ: \(check.different.map { "`\($0)`" }.joined(separator: ", ")). "
        md += "The whole search each way, ms:\n\n"
        md += "| class | regex p50 | regex p99 | automaton p50 | automaton p99 | regex / automaton p50 |\n"
        md += "|---|---|---|---|---|---|\n"
        for c in r.classes {
            guard let t = check.classes[c.name] else { continue }
            md += "| \(c.name) | \(f(t.regex.p50)) | \(f(t.regex.p99)) | \(f(t.automaton.p50)) | \(f(t.automaton.p99)) "
            md += "| \(ratio(t.regex.p50, t.automaton.p50)) |\n"
        }
        let searches = r.classes.compactMap { check.classes[$0.name] }
        if !searches.isEmpty {
            let regex = Latency(samples: searches.flatMap(\.regex.samples))
            let automaton = Latency(samples: searches.flatMap(\.automaton.samples))
            md += "| all searches | \(f(regex.p50)) | \(f(regex.p99)) | \(f(automaton.p50)) | \(f(automaton.p99)) "
            md += "| \(ratio(regex.p50, automaton.p50)) |\n"
        }
        return md
    }
}
