import JSON
import SQLite

/// The raw FTS5 baseline for the real corpus: the same searchable text (id, title, subtitle, keywords, description)
/// in one FTS5 table (`unicode61`, no prefix index), searched with exact `bm25` ordering, plus a plain table and index
/// for the property query (section, installed size).
final class RealBaseline {
    let db: Connection

    init(path: String) throws {
        db = try Connection(path: path)
        try db.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            CREATE VIRTUAL TABLE base USING fts5(id, title, subtitle, keywords, description);
            CREATE TABLE base_props(rowid INTEGER PRIMARY KEY, section TEXT, installed_size INTEGER);
            CREATE INDEX base_props_section ON base_props(section, installed_size);
            """)
    }

    /// Inserts the records in one transaction.
    func ingest(_ records: [JSONValue]) throws {
        try db.execute("BEGIN")
        let fts = try db.prepare(
            "INSERT INTO base(rowid, id, title, subtitle, keywords, description) VALUES (?, ?, ?, ?, ?, ?)")
        let props = try db.prepare("INSERT INTO base_props(rowid, section, installed_size) VALUES (?, ?, ?)")
        for (i, r) in records.enumerated() {
            let keywords = (r["keywords"]?.array ?? []).compactMap(\.string).joined(separator: " ")
            try fts.bind([
                .integer(Int64(i + 1)), .text(r["id"]?.string ?? ""), .text(r["title"]?.string ?? ""),
                .text(r["subtitle"]?.string ?? ""), .text(keywords), .text(r["description"]?.string ?? ""),
            ])
            _ = try fts.step()
            let p = r["properties"]
            try props.bind([
                .integer(Int64(i + 1)), .text(p?["section"]?.string ?? ""),
                .integer(Int64(p?["installedSize"]?.number?.double ?? 0)),
            ])
            _ = try props.step()
        }
        try db.execute("COMMIT")
    }

    /// Each whitespace-separated word quoted, the last one a prefix; the top 20 by `bm25` over every match.
    func search(_ query: String) throws -> Int {
        let words = query.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingAll("\"", "\"\"") + "\"" }
        guard !words.isEmpty else { return 0 }
        let expression = words.joined(separator: " ") + "*"
        return try db.rows("SELECT rowid FROM base WHERE base MATCH ? ORDER BY rank LIMIT 20", [.text(expression)]) {
            $0.int(0)
        }.count
    }

    /// Packages of a section, largest installed size first.
    func filter(section: String) throws -> Int {
        try db.rows(
            "SELECT rowid FROM base_props WHERE section = ? ORDER BY installed_size DESC LIMIT 20", [.text(section)]
        ) { $0.int(0) }.count
    }
}
