import JSON
import SQLite

extension EntityStore {
    /// `complete` counts the words of at most this many entities matching the words typed before the last.
    public static let maxCompletionEntities = 1_000
    /// With words before the last, the index terms that start with it (in most documents) counted among their matches.
    static let maxCompletionCandidates = 32
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
    /// entities that match them count: the `maxCompletionCandidates` terms that start with the last word in most
    /// documents, each counted among the first `maxCompletionEntities` matching visible entities that hold it. Each of the first `limit + extraCompletionTerms` terms is then shown as written in up to
    /// `writtenFormRecords` visible entities that hold it (its most frequent spelling there); terms written the same
    /// way merge, keeping the larger count, and a term that no visible, unexpired entity holds is left out.
    public func complete(_ text: String, limit: Int) throws(EntityIndexError) -> [Completion] {
        guard limit > 0, let last = TextAnalyzer.tokens(text).last?.text, !last.isEmpty,
            let lastScalar = text.unicodeScalars.last, !lastScalar.properties.isWhitespace
        else { return [] }
        let limit = min(limit, Self.maxResults)
        do {
            var query = SearchQuery(text)
            if try anyTypeStemmed() { query.addStems() }
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

    /// The terms starting with `last` that the visible entities matching the words before it hold, most entities
    /// first: the index keeps no text to read terms from, so the candidates are the `maxCompletionCandidates` index
    /// terms that start with `last` in most documents (`termsFromVocabulary`), and each is counted among the first
    /// `maxCompletionEntities` visible entities that match the words before the last and hold it.
    private func termsAmongMatches(_ query: inout SearchQuery, last: String, count: Int) throws -> [CandidateTerm] {
        let before = query.terms.dropLast().map { $0.expression(wholeWords: true) }.joined(separator: " AND ")
        let counting = try db.cached(
            """
            SELECT search.rowid FROM search JOIN search_doc d ON d.doc = search.rowid JOIN entity e ON e.rowid = d.rowid
            WHERE search MATCH ? AND e.hidden = 0 AND e.expires_at > ? ORDER BY search.rowid DESC
            LIMIT \(Self.maxCompletionEntities)
            """)
        defer { counting.reset() }
        var found: [CandidateTerm] = []
        for candidate in try termsFromVocabulary(last, count: Self.maxCompletionCandidates) {
            try counting.bind([
                .text(before + " AND \"" + candidate.term.replacingAll("\"", "\"\"") + "\""), .integer(now),
            ])
            var term = CandidateTerm(term: candidate.term, documents: 0)
            while try counting.step() {
                term.documents += 1
                if term.docids.count < Self.writtenFormRecords { term.docids.append(counting.int(0)) }
            }
            counting.reset()
            if term.documents > 0 { found.append(term) }
        }
        return Array(
            found.sorted { $0.documents != $1.documents ? $0.documents > $1.documents : $0.term < $1.term }
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
