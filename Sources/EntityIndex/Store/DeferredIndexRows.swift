import SQLite

/// A document's rows of the full-text indexes (`search`, `search_title`, `search_code`), held to be written in
/// document order.
struct DeferredIndexRow {
    let docid: Int64
    /// The six columns of `search`, as `SearchDocument.columns`.
    let columns: [SQLValue]
    let codes: String
    var bytes: Int { columns.reduce(codes.utf8.count) { $0 + ($1.string?.utf8.count ?? 0) } }
}

extension EntityStore {
    /// At most this many rows, or this many bytes of their text, wait before they are written.
    static let deferredIndexRowLimit = 8_192
    static let deferredIndexByteLimit = 16 << 20

    /// Runs `body` with the full-text rows it writes held and written sorted by document id (nested calls join the
    /// outer one): FTS5 writes the terms it holds in memory out as a new segment whenever it is given a row whose id
    /// is not above the last one (and at each commit). Document ids follow the rank (`DocumentRank`), not the order
    /// records arrive in: written as they came, a quarter of Debian's packages each started a segment, and merging
    /// those segments took most of an ingest's time. Whatever deletes entries, empties the indexes or commits writes
    /// the held rows first; an error drops them with the transaction they belong to.
    func writingIndexRowsInOrder<T>(_ body: () throws -> T) throws -> T {
        guard deferredIndexRows == nil else { return try body() }
        deferredIndexRows = []
        defer { deferredIndexRows = nil }
        let result = try body()
        try writeDeferredIndexRows()
        return result
    }

    /// Merges each full-text index into one segment (FTS5's `optimize`) after a write that made a large share of
    /// it, so that a term is looked up once instead of once per segment. An ingest writes its rows in runs, each
    /// run one or more segments, which FTS5 merges only four of a level at a time: Debian's package list ends an
    /// ingest in 8 segments, and a query opens every term of a completed prefix in each (the 1,000 real queries:
    /// 25 % fewer instructions in one segment, a 47-word completion's bucket query 1.0 -> 0.3 ms). Merging costs
    /// about 1.3 s for those 64,000 documents, so it is made only when this transaction wrote at least a quarter
    /// of the documents (and 1,000): its cost is bounded by four times what was written, and smaller writes leave
    /// FTS5's own merging as it is.
    func optimizeFullTextIndexes(written: Int) throws {
        guard written >= Self.optimizeMinimumWritten else { return }
        let documents = Int(try db.scalar("SELECT count(*) FROM search_doc")?.int ?? 0)
        guard written >= (documents + 3) / 4 else { return }
        for table in ["search", "search_title", "search_code"] {
            try db.run("INSERT INTO \(table)(\(table)) VALUES ('optimize')")
        }
    }

    static let optimizeMinimumWritten = 1_000

    /// Writes the held full-text rows, sorted by document id.
    func writeDeferredIndexRows() throws {
        guard var rows = deferredIndexRows, !rows.isEmpty else { return }
        deferredIndexRows = []
        deferredIndexBytes = 0
        rows.sort { $0.docid < $1.docid }
        let search = try db.cached(
            "INSERT INTO search(rowid, title, names, subtitle, description, props, ident) VALUES (?, ?, ?, ?, ?, ?, ?)")
        let titles = try db.cached("INSERT INTO search_title(rowid, title, ident) VALUES (?, ?, ?)")
        let codes = try db.cached("INSERT INTO search_code(rowid, codes) VALUES (?, ?)")
        func run(_ statement: Statement, _ values: [SQLValue]) throws {
            defer { statement.reset() }
            try statement.bind(values)
            while try statement.step() {}
        }
        for row in rows { try run(search, [.integer(row.docid)] + row.columns) }
        for row in rows { try run(titles, [.integer(row.docid), row.columns[0], row.columns[5]]) }
        for row in rows { try run(codes, [.integer(row.docid), .text(row.codes)]) }
    }

    /// Writes a document's full-text rows now, or holds them inside `writingIndexRowsInOrder`.
    func writeIndexRows(_ row: DeferredIndexRow) throws {
        guard deferredIndexRows != nil else {
            deferredIndexRows = [row]
            defer { deferredIndexRows = nil }
            return try writeDeferredIndexRows()
        }
        deferredIndexRows!.append(row)
        deferredIndexBytes += row.bytes
        if deferredIndexRows!.count >= Self.deferredIndexRowLimit || deferredIndexBytes >= Self.deferredIndexByteLimit {
            try writeDeferredIndexRows()
        }
    }
}
