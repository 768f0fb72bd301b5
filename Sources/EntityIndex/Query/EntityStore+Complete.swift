import JSON
import SQLite

extension EntityStore {
    /// Completions of the last word of `text` while typing: index terms that start with it, most frequent first.
    ///
    /// Read from FTS5's vocabulary (`fts5vocab`), so they cost a range scan, not a search. Terms are normalized
    /// (`Café` completes as `cafe`); hidden and expired entities count too, since the vocabulary does not know them.
    public func complete(_ text: String, limit: Int) throws(EntityIndexError) -> [Completion] {
        guard limit > 0, let last = TextAnalyzer.tokens(text).last?.text, !last.isEmpty,
            let lastScalar = text.unicodeScalars.last, !lastScalar.properties.isWhitespace
        else { return [] }
        do {
            try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search, 'row')")
            // Scan at most 5,000 terms of the range, so that a one-letter prefix stays cheap.
            return try db.rows(
                """
                SELECT term, doc FROM (SELECT term, doc FROM temp.search_vocab WHERE term >= ? AND term < ? LIMIT 5000)
                WHERE term != ? ORDER BY doc DESC, term LIMIT ?
                """,
                [.text(last), .text(last.prefixUpperBound), .text(last), .integer(Int64(min(limit, Self.maxResults)))]
            ) {
                Completion(term: $0.text(0), documents: Int($0.int(1)))
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "completing")
        }
    }
}
