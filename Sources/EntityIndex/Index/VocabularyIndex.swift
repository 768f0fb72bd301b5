import SQLite

/// The words of the records (`vocabulary`: terms without digits), which typo tolerance and the Core Spotlight forms
/// that look inside words read. Words are added, never taken away by a change: a word no record holds any more
/// finds nothing, and a rebuild drops it.
struct VocabularyIndex: DerivedIndex {
    var name: String { "vocabulary" }
    var stamp: String { Self.textStamp(1) }
    var tables: [String] { ["vocabulary"] }

    func apply(_ change: Change, _ writer: IndexWriter) throws {
        guard let new = change.new else { return }
        let terms = new.newTermsOnly ? new.terms : new.terms.filter { writer.knownTerms.insert($0).inserted }
        guard !terms.isEmpty else { return }
        let insert = try writer.db.cached("INSERT OR IGNORE INTO vocabulary(term) VALUES (?)")
        for term in terms {
            defer { insert.reset() }
            try insert.bind([.text(term)])
            while try insert.step() {}
        }
    }
}
