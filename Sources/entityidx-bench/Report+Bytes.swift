import Foundation

/// Where the bytes of each database go, on each variant of the package list.
extension Report {
    static func bytesSection(_ reports: [RealReport]) -> String {
        guard !reports.isEmpty else { return "" }
        var md = "## Where the bytes go: Debian's package list\n\n"
        md +=
            "The pages of every table and index of each database after its ingest, from SQLite's `dbstat` "
        md +=
            "(`SELECT name, SUM(pgsize) FROM dbstat GROUP BY name`): each FTS5 table with its shadow tables (`_data`, "
        md +=
            "`_idx`, `_content`, `_docsize`, `_config`), each table with its indexes, listed under it when it has any; "
        md += "tantivy's index folder by kind of file. MB are 10⁶ bytes.\n\n"
        let variants = reports.map { $0.withDescriptions ? "long descriptions" : "no long descriptions" }
        md += table("entityidx", variants: variants, reports.map(\.tables))
        md += table("raw FTS5 baseline", variants: variants, reports.map(\.baselineTables))
        md += table("FTS5 by hand", variants: variants, reports.map(\.handBuilt.tables))
        if reports.allSatisfy({ $0.tantivy != nil }) {
            let files = reports.map { r in
                r.tantivy!.files.map { file in
                    TableBytes(
                        name: ".\(file.kind): \(PeerReport.kinds[file.kind] ?? "other")", kind: "file",
                        bytes: file.bytes, parts: [])
                }
            }
            md += table("tantivy", variants: variants, files)
        }
        return md
    }

    /// One database's table: a row a table (its parts beneath it), a column pair a variant, the whole at the foot.
    static func table(_ title: String, variants: [String], _ columns: [[TableBytes]]) -> String {
        func mb(_ v: Int64) -> String { String(format: "%.2f", Double(v) / 1e6) }
        var md = "| \(title) |" + variants.map { " \($0), MB | share |" }.joined() + "\n"
        md += "|---|" + String(repeating: "---|---|", count: variants.count) + "\n"
        var names: [String] = []
        for tables in columns { for t in tables where !names.contains(t.name) { names.append(t.name) } }
        let totals = columns.map { $0.reduce(Int64(0)) { $0 + $1.bytes } }
        // Tables under 100 kB in every variant share one row.
        let small = names.filter { name in columns.allSatisfy { ($0.first { $0.name == name }?.bytes ?? 0) < 100_000 } }
        for name in names where !small.contains(name) {
            let row = columns.map { $0.first { $0.name == name } }
            let kind = row.compactMap { $0?.kind }.first ?? ""
            md += "| **\(name)**\(kind == "FTS5" ? " (FTS5)" : "") |"
            for (i, t) in row.enumerated() {
                md +=
                    t.map {
                        " \(mb($0.bytes)) | \(String(format: "%.1f", Double($0.bytes) * 100 / Double(max(totals[i], 1)))) % |"
                    }
                    ?? " | |"
            }
            md += "\n"
            var parts: [String] = []
            for t in row { for p in t?.parts ?? [] where !parts.contains(p.name) { parts.append(p.name) } }
            guard parts.count > 1 || (parts.first.map { $0 != name } ?? false) else { continue }
            for part in parts {
                md += "| · \(part) |"
                for t in row { md += (t?.parts.first { $0.name == part }).map { " \(mb($0.bytes)) | |" } ?? " | |" }
                md += "\n"
            }
        }
        if small.count > 1 {
            md += "| \(small.count) small tables: \(small.joined(separator: ", ")) |"
            for (i, tables) in columns.enumerated() {
                let bytes = tables.filter { small.contains($0.name) }.reduce(Int64(0)) { $0 + $1.bytes }
                md += " \(mb(bytes)) | \(String(format: "%.1f", Double(bytes) * 100 / Double(max(totals[i], 1)))) % |"
            }
            md += "\n"
        } else if let name = small.first {
            md +=
                "| **\(name)** |" + columns.map { t in " \(mb(t.first { $0.name == name }?.bytes ?? 0)) | |" }.joined()
                + "\n"
        }
        md += "| whole |" + totals.map { " \(mb($0)) | 100 % |" }.joined() + "\n\n"
        return md
    }
}
