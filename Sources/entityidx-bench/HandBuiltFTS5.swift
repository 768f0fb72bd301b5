import Foundation
import JSON
import SQLite

/// FTS5 built by hand for the same records: what a developer would write instead of entityidx.
///
/// Each record's JSON line is stored as it came, keyed by type and id; the text entityidx searches (title, keywords,
/// subtitle, description, the string properties, id) goes into one FTS5 table (`unicode61`, FTS5's defaults, no
/// prefix index) whose rowid is the record's; WAL with `synchronous = NORMAL`, the whole file in one transaction. A
/// search quotes each word, makes the last one a prefix, and takes the top 20 by `bm25` (`ORDER BY rank`, which
/// scores every match) with their records. It has no typo tolerance: FTS5 has none (https://sqlite.org/fts5.html).
final class HandBuiltFTS5 {
    let db: Connection

    init(path: String) throws {
        db = try Connection(path: path)
        try db.execute(
            """
            PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
            CREATE TABLE record(
                rowid INTEGER PRIMARY KEY, type TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, UNIQUE(type, id));
            CREATE VIRTUAL TABLE record_text USING fts5(title, keywords, subtitle, description, props, id);
            """)
    }

    /// Reads, parses and stores every record of the NDJSON file in one transaction; returns how many there were.
    func ingest(file: String) throws -> Int {
        let fd = open(file, O_RDONLY)
        guard fd >= 0 else { throw BenchError("cannot read \(file)") }
        defer { close(fd) }
        let reader = JSONStreamReader(fd: fd)
        try db.execute("BEGIN")
        let insertRecord = try db.prepare("INSERT INTO record(type, id, json) VALUES (?, ?, ?)")
        let insertText = try db.prepare(
            "INSERT INTO record_text(rowid, title, keywords, subtitle, description, props, id) VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        var count = 0
        while let element = try reader.next() {
            let r = try JSONParser().parse(element.bytes)
            let id = r["id"]?.string ?? ""
            try insertRecord.bind([
                .text(r["type"]?.string ?? ""), .text(id), .text(String(decoding: element.bytes, as: UTF8.self)),
            ])
            _ = try insertRecord.step()
            let props = (r["properties"]?.object ?? JSONObject()).flatMap { Self.strings($0.value) }
            try insertText.bind([
                .integer(db.lastInsertRowID), .text(r["title"]?.string ?? ""),
                .text((r["keywords"]?.array ?? []).compactMap(\.string).joined(separator: " ")),
                .text(r["subtitle"]?.string ?? ""), .text(r["description"]?.string ?? ""),
                .text(props.joined(separator: " ")), .text(id),
            ])
            _ = try insertText.step()
            count += 1
        }
        try db.execute("COMMIT")
        return count
    }

    /// The strings of a property value: a string, or the strings of an array.
    static func strings(_ value: JSONValue) -> [String] {
        value.string.map { [$0] } ?? (value.array ?? []).compactMap(\.string)
    }

    /// Each whitespace-separated word quoted, the last one a prefix; the top 20 by `bm25` with their records.
    func search(_ query: String) throws -> [String] {
        let words = query.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingAll("\"", "\"\"") + "\"" }
        guard !words.isEmpty else { return [] }
        return try db.rows(
            """
            SELECT record.json FROM record_text JOIN record ON record.rowid = record_text.rowid
            WHERE record_text MATCH ? ORDER BY rank LIMIT 20
            """, [.text(words.joined(separator: " ") + "*")]
        ) { $0.text(0) }
    }
}
