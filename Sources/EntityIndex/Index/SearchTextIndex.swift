import SQLite

/// The search text: each entity's `search_doc` row (its document id, title, id and a hash of what was indexed), its
/// entries in the contentless full-text indexes `search`, `search_title` and `search_code`, its `name_key` rows,
/// and `entity.id_key`.
///
/// The full-text indexes store no text (schema/012): an entry is deleted by giving FTS5 the text it was made from,
/// re-derived from the stored record. The hash in `search_doc.text_hash` checks that derivation: when it gives
/// other text than was indexed (the text pipeline, ICU or the declarations changed and the index was not rebuilt),
/// deleting would leave wrong postings behind, so the index is rebuilt from the records as they are when the write
/// finishes instead.
///
/// Rows are written by single-row statements rather than triggers (schema/004), and held back to be written in
/// document order (`write(_:)`).
struct SearchTextIndex: DerivedIndex {
    var name: String { "search_text" }
    var stamp: String { Self.textStamp(1) }
    var tables: [String] { ["search", "search_title", "search_code", "name_key", "search_doc"] }
    var fullTextTables: Set<String> { ["search", "search_title", "search_code"] }

    func apply(_ change: Change, _ writer: IndexWriter) throws {
        if let old = change.old { try delete(rowid: change.rowid, old.document, writer) }
        guard let new = change.new, let document = new.document else { return }
        try write(document, rowid: change.rowid, writer)
    }

    func finish(_ writer: IndexWriter) throws {
        try writeHeldRows(writer)
        try optimize(written: writer.isRebuild ? Int.max : writer.documentsWritten, writer.db)
    }

    /// Writes an entity's search document (`search_doc`, inserted or replaced), its full-text rows and name keys.
    /// The entity must have no entries: it is new, or `delete` removed them.
    private func write(_ doc: SearchDocument, rowid: Int64, _ writer: IndexWriter) throws {
        let db = writer.db
        let docid = try doc.rank.docid(rowid: rowid)
        let columns = doc.columns.map { SQLValue.text($0) }
        let upsert = try db.cached(
            """
            INSERT INTO search_doc(rowid, doc, title, ident, title_plain, text_hash) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(rowid) DO UPDATE SET doc = excluded.doc, title = excluded.title, ident = excluded.ident,
                title_plain = excluded.title_plain, text_hash = excluded.text_hash
            """)
        try run(
            upsert,
            [.integer(rowid), .integer(docid), columns[0], columns[5], .text(doc.titlePlain), .integer(doc.textHash)])
        if writer.isRebuild {
            // The row was written with the key of the text pipeline that stored it.
            try run(
                try db.cached("UPDATE entity SET id_key = ? WHERE rowid = ? AND id_key IS NOT ?"),
                [.text(doc.idKey), .integer(rowid), .text(doc.idKey)])
        }
        writer.heldRows.append(DeferredIndexRow(docid: docid, columns: columns, codes: doc.codes))
        writer.heldBytes += writer.heldRows[writer.heldRows.count - 1].bytes
        writer.documentsWritten += 1
        if writer.heldRows.count >= Self.heldRowLimit || writer.heldBytes >= Self.heldByteLimit {
            try writeHeldRows(writer)
        }
        let nameKey = try db.cached("INSERT OR IGNORE INTO name_key(hash, doc) VALUES (?, ?)")
        for key in doc.nameKeys { try run(nameKey, [.integer(key), .integer(docid)]) }
    }

    /// Deletes an entity's full-text entries and name keys, given the document they were made from (`doc`,
    /// re-derived from its stored record). When that is not what was indexed, nothing is deleted and the index is
    /// rebuilt from the records when the write finishes (`IndexWriter.foundStale`).
    private func delete(rowid: Int64, _ doc: SearchDocument?, _ writer: IndexWriter) throws {
        let db = writer.db
        let stored = try db.rows("SELECT doc, text_hash FROM search_doc WHERE rowid = ?", [.integer(rowid)]) {
            ($0.int(0), $0.int(1))
        }
        guard let (docid, hash) = stored.first, !writer.foundStale.contains(name) else { return }
        guard let doc, hash == doc.textHash else {
            writer.foundStale.insert(name)
            return
        }
        // A row still held would be written after its delete.
        try writeHeldRows(writer)
        let columns = doc.columns.map { SQLValue.text($0) }
        try run(
            try db.cached(
                """
                INSERT INTO search(search, rowid, title, names, subtitle, description, props, ident)
                VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)
                """), [.integer(docid)] + columns)
        try run(
            try db.cached("INSERT INTO search_title(search_title, rowid, title, ident) VALUES ('delete', ?, ?, ?)"),
            [.integer(docid), columns[0], columns[5]])
        try run(
            try db.cached("INSERT INTO search_code(search_code, rowid, codes) VALUES ('delete', ?, ?)"),
            [.integer(docid), .text(doc.codes)])
        let nameKey = try db.cached("DELETE FROM name_key WHERE hash = ? AND doc = ?")
        for key in doc.nameKeys { try run(nameKey, [.integer(key), .integer(docid)]) }
    }

    private func run(_ statement: Statement, _ values: [SQLValue]) throws {
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
    }

    // MARK: - Rows in document order

    /// At most this many rows, or this many bytes of their text, wait before they are written.
    static let heldRowLimit = 8_192
    static let heldByteLimit = 16 << 20

    /// Writes the held full-text rows, sorted by document id.
    ///
    /// FTS5 writes the terms it holds in memory out as a new segment whenever it is given a row whose id is not
    /// above the last one (and at each commit). Document ids follow the rank (`DocumentRank`), not the order records
    /// arrive in: written as they came, a quarter of Debian's packages each started a segment, and merging those
    /// segments took most of an ingest's time. Whatever deletes entries writes the held rows first; an error drops
    /// them with the transaction they belong to.
    func writeHeldRows(_ writer: IndexWriter) throws {
        guard !writer.heldRows.isEmpty else { return }
        var rows = writer.heldRows
        writer.heldRows = []
        writer.heldBytes = 0
        rows.sort { $0.docid < $1.docid }
        let db = writer.db
        let search = try db.cached(
            "INSERT INTO search(rowid, title, names, subtitle, description, props, ident) VALUES (?, ?, ?, ?, ?, ?, ?)")
        let titles = try db.cached("INSERT INTO search_title(rowid, title, ident) VALUES (?, ?, ?)")
        let codes = try db.cached("INSERT INTO search_code(rowid, codes) VALUES (?, ?)")
        for row in rows { try run(search, [.integer(row.docid)] + row.columns) }
        for row in rows { try run(titles, [.integer(row.docid), row.columns[0], row.columns[5]]) }
        for row in rows { try run(codes, [.integer(row.docid), .text(row.codes)]) }
    }

    /// Merges each full-text index into one segment (FTS5's `optimize`) after a write that made a large share of
    /// it, so that a term is looked up once instead of once per segment. An ingest writes its rows in runs, each
    /// run one or more segments, which FTS5 merges only four of a level at a time: Debian's package list ends an
    /// ingest in 8 segments, and a query opens every term of a completed prefix in each (the 1,000 real queries:
    /// 25 % fewer instructions in one segment, a 47-word completion's bucket query 1.0 -> 0.3 ms). Merging costs
    /// about 1.3 s for those 64,000 documents, so it is made only when this transaction wrote at least a quarter
    /// of the documents (and 1,000): its cost is bounded by four times what was written, and smaller writes leave
    /// FTS5's own merging as it is.
    private func optimize(written: Int, _ db: Connection) throws {
        guard written >= Self.optimizeMinimumWritten else { return }
        let documents = Int(try db.scalar("SELECT count(*) FROM search_doc")?.int ?? 0)
        guard written >= (documents + 3) / 4 else { return }
        for table in fullTextTables.sorted() {
            try db.run("INSERT INTO \(table)(\(table)) VALUES ('optimize')")
        }
    }

    static let optimizeMinimumWritten = 1_000
}

/// A document's rows of the full-text indexes (`search`, `search_title`, `search_code`), held to be written in
/// document order.
struct DeferredIndexRow {
    let docid: Int64
    /// The six columns of `search`, as `SearchDocument.columns`.
    let columns: [SQLValue]
    let codes: String
    var bytes: Int { columns.reduce(codes.utf8.count) { $0 + ($1.string?.utf8.count ?? 0) } }
}
