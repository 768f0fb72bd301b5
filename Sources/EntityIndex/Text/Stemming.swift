/// How a type's text also matches other forms of its words (`declare --stemming`): off by default.
///
/// A stemmed type's text is indexed with each word's stem beside it, marked so that it never meets a word as written
/// (`candies` also yields `\u{E000}candi`); a search also looks for the stem of each word it is given, marked the same
/// way, so that `candy`, `candies` and `candied` find each other in a stemmed type's entities, never in another
/// type's. A match by the stem alone ranks as a whole word: in the same tiers as the word as typed, and after it
/// where the title's words decide (exactness: a title equal to the query, or starting with it, comes first).
public enum Stemming: String, CaseIterable, Sendable {
    /// Words only as written (the default).
    case none
    /// Regular English inflections, by the Porter2 (Snowball English) rules: `candies` ↔ `candy`, `boxes` ↔ `box`,
    /// `running` ↔ `run`.
    case english

    /// The names, as the parameter's errors list them (`none, english`).
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What starts an index term that is a stem: a private-use character, which the tokenizer keeps in a term and
    /// the text pipeline never makes of a word.
    static let marker = "\u{E000}"

    /// A word a stemmer reads: ASCII letters only, at least three (words with digits are ids and codes; shorter
    /// words have no suffix to take off).
    static func stems(_ term: String) -> Bool {
        term.utf8.count >= 3 && term.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A }
    }

    /// The marked stem of a normalized word, or nil when the word is not stemmed.
    static func stemTerm(_ word: String) -> String? {
        stems(word) ? marker + EnglishStemmer.stem(word) : nil
    }

    /// The marked stems of a column's terms, each once, in the order they first appear: appended after the column's
    /// terms, so that the positions of the words as written (phrases, compounds) are those of a type without
    /// stemming.
    static func stemTerms(_ terms: [String]) -> [String] {
        var seen = Set<String>()
        return terms.compactMap { term in stemTerm(term).flatMap { seen.insert($0).inserted ? $0 : nil } }
    }
}

extension SearchQuery {
    /// The query with each plain word's marked stem (`QueryTerm.stem`), for an index that has a stemmed type.
    mutating func addStems() {
        for i in terms.indices {
            guard case .plain(let word) = terms[i].kind, let stem = Stemming.stemTerm(word) else { continue }
            terms[i].stem = Array(stem.utf8)
        }
    }
}
