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
    /// Index terms read further when some are not offered (ids, codes, addresses, CJK fragments), so that those do
    /// not leave the page short.
    static let filteredCompletionTerms = 24

    /// Completions of the last word of `text` while typing, as the records write them (`Kaffeemühle`): the word
    /// itself first when the records hold it whole (`ships`, then `shipshape`), then the others, most frequent first.
    ///
    /// With one word, the index terms that start with it come from FTS5's vocabulary (`fts5vocab`: a range scan of
    /// at most 5,000 terms, not a search), ordered by how many documents hold them. With words before the last, only
    /// entities that match them count: the `maxCompletionCandidates` terms that start with the last word in most
    /// documents, each counted among the first `maxCompletionEntities` matching visible entities that hold it. Each
    /// term is then shown as written in up to `writtenFormRecords` visible entities that hold it (its most frequent
    /// spelling there), until `limit` completions and at least `limit + extraCompletionTerms` terms were read;
    /// terms written the same way merge, keeping the larger count, and a term that no visible, unexpired entity
    /// holds is left out.
    ///
    /// Only words people type are offered (`WrittenForms.Scope`): not ids, codes or other words with digits unless
    /// the word being typed has a digit; not the parts of e-mail or web addresses unless it has an `@` or a `.`;
    /// and a CJK run whole, never a fragment of it.
    public func complete(_ text: String, limit: Int) throws(EntityIndexError) -> [Completion] {
        guard limit > 0, let lastToken = TextAnalyzer.tokens(text).last, !lastToken.text.isEmpty,
            let lastScalar = text.unicodeScalars.last, !lastScalar.properties.isWhitespace
        else { return [] }
        var last = lastToken.text
        let limit = min(limit, Self.maxResults)
        // The word being typed as typed: from the start of its whitespace-separated run (`juergen.w`, `#10`).
        var typed = String.UnicodeScalarView()
        typed.append(contentsOf: text.unicodeScalars.reversed().prefix { !$0.properties.isWhitespace }.reversed())
        var scope = WrittenForms.Scope(typed: String(typed))
        if case .cjk(let chars) = TextAnalyzer.words(text).last, chars.count > 1 {
            // A CJK run is indexed by its bigrams: the runs that start with its first two characters, then with all.
            last = chars[0].text + chars[1].text
            scope.run = chars.map(\.text)
        }
        do {
            var query = SearchQuery(text)
            if try anyTypeStemmed() { query.addStems() }
            if try anyTypeTransliterated() { query.addTransliterations() }
            let reading = limit + Self.extraCompletionTerms + Self.filteredCompletionTerms
            let candidates =
                query.terms.count > 1
                ? try termsAmongMatches(&query, last: last, count: reading, codes: scope.codes)
                : try termsFromVocabulary(last, count: reading, codes: scope.codes)
            var completions: [Completion] = []
            var index: [String: Int] = [:]
            var exact: Int?
            for (read, candidate) in candidates.enumerated() {
                if completions.count >= limit && read >= limit + Self.extraCompletionTerms { break }
                let records = try writtenFormRecords(candidate)
                guard !records.isEmpty else { continue }
                var forms = WrittenForms.allWritten(candidate.term, in: records, scope: scope)
                if forms.isEmpty && scope.codes { forms = [candidate.term] }
                // A CJK term starts several runs (`メロン`, `メロンパン`): each is offered, counted by its own phrase.
                let runs = TextAnalyzer.tokens(candidate.term).first?.isCJK == true
                for written in runs ? forms : Array(forms.prefix(1)) {
                    let documents = runs ? try runDocuments(written, candidate) : candidate.documents
                    if let i = index[written] {
                        completions[i].documents = max(completions[i].documents, documents)
                    } else {
                        index[written] = completions.count
                        completions.append(Completion(term: written, documents: documents))
                    }
                    if exact == nil, Self.folded(written) == Self.folded(String(typed)) { exact = index[written] }
                }
            }
            // Stable: equal counts keep the terms' order; the word as typed, held whole, first.
            let ordered = completions.enumerated().sorted {
                if ($0.offset == exact) != ($1.offset == exact) { return $0.offset == exact }
                return $0.element.documents != $1.element.documents
                    ? $0.element.documents > $1.element.documents : $0.offset < $1.offset
            }
            return ordered.prefix(limit).map(\.element)
        } catch {
            throw EntityIndexError.wrap(error, doing: "completing")
        }
    }

    /// How many visible, unexpired entities hold the CJK run `written` (at most the candidate's documents, at most
    /// `maxCompletionEntities`).
    private func runDocuments(_ written: String, _ candidate: CandidateTerm) throws -> Int {
        guard case .cjk(let chars) = TextAnalyzer.words(written).first else { return candidate.documents }
        let phrase = QueryTerm(kind: .cjk(chars.map(\.text)), prefix: false).expression()
        let n =
            try db.rows(
                """
                SELECT count(*) FROM (SELECT 1 FROM search JOIN search_doc d ON d.doc = search.rowid
                JOIN entity e ON e.rowid = d.rowid WHERE search MATCH ? AND e.hidden = 0 AND e.expires_at > ?
                LIMIT \(Self.maxCompletionEntities))
                """, [.text(phrase), .integer(now)]
            ) { Int($0.int(0)) }.first ?? 0
        return min(max(n, 1), max(candidate.documents, 1))
    }

    /// A word's normalized tokens side by side, to compare a completion with the word as typed.
    private static func folded(_ word: String) -> String { TextAnalyzer.tokens(word).map(\.text).joined() }

    /// An index term that completes the word, how many entities hold it, and (when known) which.
    private struct CandidateTerm {
        var term: String
        var documents: Int
        var docids: [Int64] = []
    }

    /// The terms of the full-text index that start with `prefix`, the prefix itself first when it is one, then most
    /// documents first (hidden and expired entities count, as the vocabulary does not know them).
    private func termsFromVocabulary(_ prefix: String, count: Int, codes: Bool) throws -> [CandidateTerm] {
        try db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search, 'row')")
        // Scan at most 5,000 terms of the range, so that a one-letter prefix stays cheap.
        return try db.rows(
            """
            SELECT term, doc FROM (SELECT term, doc FROM temp.search_vocab WHERE term >= ? AND term < ? LIMIT 5000)
            WHERE (? OR term NOT GLOB '*[0-9]*') ORDER BY term = ? DESC, doc DESC, term LIMIT ?
            """,
            [
                .text(prefix), .text(prefix.prefixUpperBound), .integer(codes ? 1 : 0), .text(prefix),
                .integer(Int64(count)),
            ]
        ) { CandidateTerm(term: $0.text(0), documents: Int($0.int(1))) }
    }

    /// The terms starting with `last` that the visible entities matching the words before it hold, most entities
    /// first: the index keeps no text to read terms from, so the candidates are the `maxCompletionCandidates` index
    /// terms that start with `last` in most documents (`termsFromVocabulary`), and each is counted among the first
    /// `maxCompletionEntities` visible entities that match the words before the last and hold it.
    private func termsAmongMatches(_ query: inout SearchQuery, last: String, count: Int, codes: Bool) throws
        -> [CandidateTerm]
    {
        let before = query.terms.dropLast().map { $0.expression(wholeWords: true) }.joined(separator: " AND ")
        let counting = try db.cached(
            """
            SELECT search.rowid FROM search JOIN search_doc d ON d.doc = search.rowid JOIN entity e ON e.rowid = d.rowid
            WHERE search MATCH ? AND e.hidden = 0 AND e.expires_at > ? ORDER BY search.rowid DESC
            LIMIT \(Self.maxCompletionEntities)
            """)
        defer { counting.reset() }
        var found: [CandidateTerm] = []
        for candidate in try termsFromVocabulary(last, count: Self.maxCompletionCandidates, codes: codes) {
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
