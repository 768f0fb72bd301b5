import JSON
import SQLite

/// The baseline: the same records and queries against plain FTS5 (`unicode61`, no ICU, no ranking tiers), through
/// the SQLite C API, so every entityidx figure can be read as a ratio to what SQLite itself costs.
final class Baseline {
    let db: Connection

    init(path: String) throws {
        db = try Connection(path: path)
        try db.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            CREATE VIRTUAL TABLE base USING fts5(title, subtitle, keywords, description);
            CREATE TABLE base_props(rowid INTEGER PRIMARY KEY, type TEXT, status TEXT, total REAL);
            CREATE INDEX base_props_status ON base_props(type, status, total);
            """)
    }

    /// Inserts the records in one transaction.
    func ingest(_ records: [JSONValue]) throws {
        try db.execute("BEGIN")
        let fts = try db.prepare(
            "INSERT INTO base(rowid, title, subtitle, keywords, description) VALUES (?, ?, ?, ?, ?)")
        let props = try db.prepare("INSERT INTO base_props(rowid, type, status, total) VALUES (?, ?, ?, ?)")
        for (i, r) in records.enumerated() {
            let keywords = (r["keywords"]?.array ?? []).compactMap(\.string).joined(separator: " ")
            try fts.bind([
                .integer(Int64(i + 1)), .text(r["title"]?.string ?? ""), .text(r["subtitle"]?.string ?? ""),
                .text(keywords), .text(r["description"]?.string ?? ""),
            ])
            _ = try fts.step()
            try props.bind([
                .integer(Int64(i + 1)), .text(r["type"]?.string ?? ""), .text(r["properties"]?["status"]?.string ?? ""),
                .real(r["properties"]?["total"]?.number?.double ?? 0),
            ])
            _ = try props.step()
        }
        try db.execute("COMMIT")
    }

    /// Each whitespace-separated word quoted, the last one a prefix.
    func search(_ query: String) throws -> Int {
        let words = query.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingAll("\"", "\"\"") + "\"" }
        guard !words.isEmpty else { return 0 }
        let expression = words.joined(separator: " ") + "*"
        return try db.rows("SELECT rowid FROM base WHERE base MATCH ? ORDER BY rank LIMIT 20", [.text(expression)]) {
            $0.int(0)
        }.count
    }

    func filter(status: String, minTotal: Double) throws -> Int {
        try db.rows(
            "SELECT rowid FROM base_props WHERE type = 'order' AND status = ? AND total >= ? ORDER BY total DESC LIMIT 20",
            [.text(status), .real(minTotal)]
        ) { $0.int(0) }.count
    }
}

extension Substring {
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
