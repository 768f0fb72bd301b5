import SQLite

/// Turns a typed prefix longer than the FTS5 prefix indexes into the words it completes.
///
/// FTS5 answers `amber*` without a prefix index by merging the doclists of every word starting with `amber` before
/// returning the first row: the cost grows with the index (0.3 ms at 100k entities, 5 ms at 1M for one common word).
/// `("amber" OR "ambers")` is read lazily in rowid order and stops when the search has enough. The words come from
/// `vocabulary` by a range scan. Prefixes with digits keep the plain prefix query (ids and codes are not in the
/// vocabulary, and their doclists are short), as do prefixes that complete too many words.
enum PrefixExpansion {
    /// Prefixes of up to this many characters are served by FTS5's prefix indexes (`prefix = '1 2 3'`).
    static let indexedPrefixLength = 3
    /// In the index of titles and ids (`search_title`, `prefix = '1 2 3 4 5'`), prefixes of up to this many.
    static let indexedTitlePrefixLength = 5
    /// A prefix completing more words than this stays a prefix query.
    static let maxCompletions = 64

    static func expand(_ terms: inout [QueryTerm], db: Connection) throws {
        guard let last = terms.indices.last, terms[last].prefix, case .plain(let word) = terms[last].kind,
            word.unicodeScalars.count > indexedPrefixLength, SearchDocument.isVocabularyWord(word)
        else { return }
        let words = try db.rows(
            "SELECT term FROM vocabulary WHERE term >= ? AND term < ? LIMIT \(maxCompletions + 1)",
            [.text(word), .text(word.prefixUpperBound)]
        ) { $0.text(0) }
        if !words.isEmpty && words.count <= maxCompletions { terms[last].completions = words }
    }
}

extension QueryTerm {
    /// The term as the index of titles and ids reads it: a prefix its prefix indexes cover (4 or 5 characters)
    /// streams one list there, where its completions would each be opened.
    var forTitles: QueryTerm {
        guard completions != nil, case .plain(let word) = kind,
            word.unicodeScalars.count <= PrefixExpansion.indexedTitlePrefixLength
        else { return self }
        var term = self
        term.completions = nil
        return term
    }
}

extension String {
    /// The end of the range of strings that start with this one, for `x >= prefix AND x < prefixUpperBound`: the
    /// last scalar incremented (past the surrogate gap), which orders after every longer string in UTF-8 byte order.
    var prefixUpperBound: String {
        var scalars = Array(unicodeScalars)
        guard let last = scalars.last else { return self }
        scalars[scalars.count - 1] = Unicode.Scalar(last.value + 1) ?? Unicode.Scalar(last.value + 0x801) ?? last
        return String(String.UnicodeScalarView(scalars))
    }
}
