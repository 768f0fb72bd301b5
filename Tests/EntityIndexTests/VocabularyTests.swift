import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// `vocabulary` must hold every word (term without digits) of the FTS index: a long prefix is expanded into the
/// words it lists, so a missing word would be a missed match.
@Suite struct VocabularyTests {
    /// Every record of the sample data and of the acceptance cases, in one index.
    func multilingualStore() throws -> EntityStore {
        let store = try TestSupport.store()
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let text = try #require(TestSupport.read(TestSupport.repository + "/data/" + file))
            let records =
                file.hasSuffix(".ndjson")
                ? text.split(separator: "\n").map { TestSupport.json(String($0)) } : TestSupport.json(text).array ?? []
            _ = try store.ingest(records)
        }
        var seen = Set<String>()
        for c in AcceptanceTests.cases {
            let records = (c.json["records"]?.array ?? []).filter { r in
                seen.insert("\(r["type"]?.string ?? "")/\(r["id"].map { JSONWriter.string($0) } ?? "")").inserted
            }
            _ = try store.ingest(records)
        }
        return store
    }

    func ftsWords(_ store: EntityStore) throws -> Set<String> {
        try store.db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING fts5vocab(main, search, 'row')")
        return Set(try store.db.rows("SELECT term FROM temp.v WHERE term NOT GLOB '*[0-9]*'") { $0.text(0) })
    }

    @Test func holdsEveryWordOfTheIndex() throws {
        let store = try multilingualStore()
        let vocabulary = Set(try store.db.rows("SELECT term FROM vocabulary") { $0.text(0) })
        let words = try ftsWords(store)
        #expect(words.count > 250)
        #expect(words.subtracting(vocabulary).sorted() == [])
    }

    @Test func migrationFillsItFromAnExistingIndex() throws {
        let store = try multilingualStore()
        try store.db.execute(
            "DELETE FROM vocabulary; DROP TABLE vocabulary; DELETE FROM schema_migrations WHERE version >= 5")
        _ = try Migrator(Schema.migrator.migrations.filter { $0.version <= 5 }).migrate(
            store.db, now: "2026-03-02T09:00:00Z")
        let vocabulary = Set(try store.db.rows("SELECT term FROM vocabulary") { $0.text(0) })
        #expect(vocabulary == (try ftsWords(store)))
    }

    @Test func aLongPrefixFindsTheSameAsThePlainPrefixQuery() throws {
        let store = try multilingualStore()
        let words = try store.db.rows("SELECT term FROM vocabulary WHERE length(term) >= 5 ORDER BY term") {
            $0.text(0)
        }
        var checked = 0
        for word in words.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
            for length in 4...min(word.count, 6) {
                let prefix = String(word.prefix(length))
                var query = SearchQuery(prefix)
                guard query.terms.count == 1, case .plain = query.terms[0].kind else { continue }
                let plain = try store.db.rows(
                    "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid", [.text(query.expression)]
                ) { $0.int(0) }
                try PrefixExpansion.expand(&query.terms, db: store.db)
                let expanded = try store.db.rows(
                    "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rowid", [.text(query.expression)]
                ) { $0.int(0) }
                #expect(expanded == plain, "\(prefix): \(query.expression)")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func deletingEverythingEmptiesIt() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("task", "1", "Lantern")])
        #expect(try store.db.scalar("SELECT count(*) FROM vocabulary")?.int == 1)  // "lantern"; the id "1" has digits
        _ = try store.delete(DeleteRequest(all: true))
        #expect(try store.db.scalar("SELECT count(*) FROM vocabulary")?.int == 0)
    }
}

/// The typo walk reads the vocabulary from its copy in memory from a store's second walk on: the copy must give
/// the same variants as the table, for every word, and follow the table as records are written.
@Suite struct VocabularyCopyTests {
    @Test func typoWalksAgreeWithTheTable() throws {
        let store = try TestSupport.store()
        let text = try #require(TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson"))
        _ = try store.ingest(text.split(separator: "\n").map { TestSupport.json(String($0)) })
        let copy = VocabularyCopy()
        try copy.refresh(store)
        let words = try store.db.rows("SELECT term FROM vocabulary") { $0.text(0) }
        #expect(copy.count == words.count && words.count > 2_000)
        var rng = TestSupport.SeededGenerator(seed: 41)
        var compared = 0, withVariants = 0
        for word in words where word.unicodeScalars.count >= 5 && Int.random(in: 0..<16, using: &rng) == 0 {
            // The word itself, one letter dropped, and one doubled, each typed whole and as a prefix.
            var scalars = Array(word.unicodeScalars)
            let i = Int.random(in: 1..<scalars.count, using: &rng)
            let dropped = String(String.UnicodeScalarView(scalars[..<i] + scalars[(i + 1)...]))
            scalars.insert(scalars[i], at: i)
            for query in [word, dropped, String(String.UnicodeScalarView(scalars))] {
                let budget = QueryTerm.typoBudget(query)
                guard budget > 0 else { continue }
                for prefix in [false, true] {
                    let fromTable = try TypoTolerance.variants(
                        of: query, budget: budget, prefix: prefix, TypoTolerance.Vocabulary(store.db))
                    let fromCopy = try TypoTolerance.variants(
                        of: query, budget: budget, prefix: prefix, TypoTolerance.Vocabulary(store.db, copy: copy))
                    #expect(fromTable == fromCopy, "\(query), prefix \(prefix)")
                    compared += 1
                    if !fromTable.isEmpty { withVariants += 1 }
                }
            }
        }
        #expect(compared > 300 && withVariants > compared / 4)
    }

    @Test func followsWrites() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.json(#"{"type":"note","id":"1","title":"Kaffeemaschine"}"#)])
        // The first typo search reads the table, the second the copy; a word written after the copy was made is
        // found with typos too.
        #expect(try store.search(SearchRequest(query: "kafeemaschine ")).map(\.key.id) == ["1"])
        #expect(try store.search(SearchRequest(query: "kafeemaschine ")).map(\.key.id) == ["1"])
        _ = try store.ingest([TestSupport.json(#"{"type":"note","id":"2","title":"Teekanne Porzellan"}"#)])
        #expect(try store.search(SearchRequest(query: "porzelan ")).map(\.key.id) == ["2"])
        #expect(store.vocabularyCopy.walks == 3)
    }
}
