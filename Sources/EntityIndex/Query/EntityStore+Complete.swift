import JSON
import SQLite

extension EntityStore {
    /// `complete` counts the words of at most this many entities matching the words typed before the last.
    public static let maxCompletionEntities = 1_000
    /// The records read to find how each completion is written.
    static let writtenFormRecords = 4
    /// Index terms considered beyond the limit, for those that show as the same written word (`kaffeemuehle` and
    /// `kaffeemuhle` are both `Kaffeemühle`).
    static let extraCompletionTerms = 8

    /// Completions of the last word of `text` while typing, as the records write them (`Kaffeemühle`), most
    /// frequent first.
    ///
    /// With one word, the index terms that start with it come from FTS5's vocabulary (`fts5vocab`: a range scan of
    /// at most 5,000 terms, not a search), ordered by how many documents hold them. With words before the last, only
    /// entities that match them (and the last as a prefix, as `search` would) count: the first
    /// `maxCompletionEntities` of them in document order, counting each term that starts with the last word once
    /// per entity. Each of the first `limit + extraCompletionTerms` terms is then shown as written in up to
    /// `writtenFormRecords` visible entities that hold it (its most frequent spelling there); terms written the same
    /// way merge, keeping the larger count, and a term that no visible, unexpired entity holds is left out.
    public func complete(_ text: String, limit: Int) throws(EntityIndexError) -> [Completion] {
        guard limit > 0, let last = TextAnalyzer.tokens(text).last?.text, !last.isEmpty,
            let lastScalar = text.unicodeScalars.last, !lastScalar.properties.isWhitespace
        else { return [] }
        let limit = min(limit, Self.maxResults)
        do {
            var query = SearchQuery(text)
            let candidates =
                query.terms.count > 1
                ? try termsAmongMatches(&query, last: last, count: limit + Self.extraCompletionTerms)
                : try termsFromVocabulary(last, count: limit + Self.extraCompletionTerms)
            var completions: [Completion] = []
            var index: [String: Int] = [:]
            for candidate in candidates {
                let records = try writtenFormRecords(candidate)
                guard !records.isEmpty else { continue }
                let written = WrittenForms.mostWritten(candidate.term, in: records) ?? candidate.term
                if let i = index[written] {
                    completions[i].documents = max(completions[i].documents, candidate.documents)
                } else {
                    index[written] = completions.count
                    completions.append(Completion(term: written, documents: candidate.documents))
                }
            }
            // Stable: equal counts keep the terms' order.
            let ordered = completions.enumerated().sorted {
                $0.element.documents != $1.element.documents
                    ? $0.element.documents > $1.element.documents : $0.offset < $1.offset
            }
            return ordered.prefix(limit).map(\.element)
        } catch {
            throw EntityIndexError.wrap(error, doing: "completing")
        }
    }

    /// An index term that completes the word, how many entities hold it, and (when known) which.
    private struct CandidateTerm {
        var term: String
        var documents: Int
        var docids: [Int64] = []
    }

    /// The terms of the full-text index that start with `prefix`, most documents first (hidden and expired
    /// entities count, as the vocabulary does not know them).
    private func termsFromVocabulary(_ prefix: String, count: Int) throws -> [CandidateTerm] {
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search, 'row')")
        // Scan at most 5,000 terms of the range, so that a one-letter prefix stays cheap.
        return try db.rows(
            """
            SELECT term, doc FROM (SELECT term, doc FROM temp.search_vocab WHERE term >= ? AND term < ? LIMIT 5000)
            WHERE term != ? ORDER BY doc DESC, term LIMIT ?
            """,
            [.text(prefix), .text(prefix.prefixUpperBound), .text(prefix), .integer(Int64(count))]
        ) { CandidateTerm(term: $0.text(0), documents: Int($0.int(1))) }
    }

    /// The terms starting with `last` in the first `maxCompletionEntities` visible entities that match `query`,
    /// each counted once per entity, most entities first.
    private func termsAmongMatches(_ query: inout SearchQuery, last: String, count: Int) throws -> [CandidateTerm] {
        try PrefixExpansion.expand(&query.terms, db: db)
        let rows = try db.cached(
            """
            SELECT search.rowid, d.title, d.names, d.subtitle, d.description, d.props, d.ident FROM search
            JOIN search_doc d ON d.doc = search.rowid JOIN entity e ON e.rowid = d.rowid
            WHERE search MATCH ? AND e.hidden = 0 AND e.expires_at > ? ORDER BY search.rowid DESC
            LIMIT \(Self.maxCompletionEntities)
            """)
        defer { rows.reset() }
        try rows.bind([.text(query.expression), .integer(now)])
        let prefix = Array(last.utf8)
        var found: [String: CandidateTerm] = [:]
        while try rows.step() {
            let docid = rows.int(0)
            var seen = Set<String>()
            for column in 1...6 {
                let terms = TermList(rows.borrowedBytes(Int32(column)))
                terms.forEachTerm { range in
                    if terms.term(range, is: prefix, prefix: true) && range.count > prefix.count {
                        seen.insert(String(decoding: UnsafeBufferPointer(rebasing: terms.bytes[range]), as: UTF8.self))
                    }
                    return true
                }
            }
            for term in seen {
                found[term, default: CandidateTerm(term: term, documents: 0)].documents += 1
                if found[term]!.docids.count < Self.writtenFormRecords { found[term]!.docids.append(docid) }
            }
        }
        return Array(
            found.values.sorted { $0.documents != $1.documents ? $0.documents > $1.documents : $0.term < $1.term }
                .prefix(count))
    }

    /// Up to `writtenFormRecords` records of visible, unexpired entities that hold the candidate's term.
    private func writtenFormRecords(_ candidate: CandidateTerm) throws -> [JSONObject] {
        if !candidate.docids.isEmpty {
            return try candidate.docids.flatMap { docid in
                try db.rows(
                    "SELECT e.record FROM search_doc d JOIN entity e ON e.rowid = d.rowid WHERE d.doc = ?",
                    [.integer(docid)]
                ) { $0.record(0) }
            }
        }
        return try db.rows(
            """
            SELECT e.record FROM search JOIN search_doc d ON d.doc = search.rowid JOIN entity e ON e.rowid = d.rowid
            WHERE search MATCH ? AND e.hidden = 0 AND e.expires_at > ? ORDER BY search.rowid DESC
            LIMIT \(Self.writtenFormRecords)
            """, [.text("\"" + candidate.term.replacingAll("\"", "\"\"") + "\""), .integer(now)]
        ) { $0.record(0) }
    }
}
