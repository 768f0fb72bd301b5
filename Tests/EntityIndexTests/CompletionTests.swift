import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// `complete` offers words as the records write them, most frequent first, among the entities that match the words
/// typed before the last; on Debian's package list (Tests/Fixtures/debian-sample.ndjson, every 80th package of
/// scripts/debian-corpus.py's list) and on German product names.
@Suite struct CompletionTests {
    static func debian() throws -> EntityStore {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        _ = try store.ingest(text.split(separator: "\n").map { TestSupport.json(String($0)) })
        return store
    }

    @Test func wordsAsWrittenNotFolded() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("product", "1", "Kaffeemühle Classic", [("subtitle", "Handmühle aus Holz")]),
            TestSupport.record("product", "2", "Elektrische Kaffeemühle"),
            TestSupport.record("product", "3", "Kaffeemaschine"), TestSupport.record("product", "4", "Straßenkarte"),
            TestSupport.record("product", "5", "e-mail Vorlage"),
        ])
        #expect(try store.complete("kaff", limit: 5).map(\.term) == ["Kaffeemühle", "Kaffeemaschine"])
        #expect(try store.complete("kaff", limit: 5).map(\.documents) == [2, 1])
        #expect(try store.complete("kaffeemue", limit: 5).map(\.term) == ["Kaffeemühle"], "the spelled-out umlaut")
        #expect(try store.complete("strass", limit: 5).map(\.term) == ["Straßenkarte"])
        #expect(try store.complete("ema", limit: 5).map(\.term) == ["e-mail"], "a compound typed joined")
        #expect(try store.complete("hand", limit: 5).map(\.term) == ["Handmühle"])
    }

    @Test func onlyAmongEntitiesMatchingTheWordsBefore() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "1", "Jane Call", [("properties", ["email": "jweiss@example.com"])]),
            TestSupport.record("contact", "2", "Janet Jones", [("properties", ["email": "jweiss@example.com"])]),
            TestSupport.record("note", "3", "Call John back"),
            TestSupport.record("note", "4", "Call Jim", [("hidden", true)]),
        ])
        #expect(try store.complete("call j", limit: 5).map(\.term).sorted() == ["Jane", "John", "jweiss"])
        #expect(try store.complete("j", limit: 1).map(\.term) == ["jweiss"], "most frequent first")
        #expect(
            try !store.complete("j", limit: 10).map(\.term).contains("Jim"), "a word only a hidden entity holds")
        #expect(try store.complete("jones j", limit: 5).map(\.term) == ["Janet", "Jones", "jweiss"])
    }

    @Test func debianPackages() throws {
        let store = try Self.debian()
        let library = try store.complete("libr", limit: 3)
        #expect(library.first?.term == "library" && (library.first?.documents ?? 0) > 200)
        #expect(try store.complete("perl mod", limit: 1).map(\.term) == ["module"])
        let game = try store.complete("game str", limit: 3).map(\.term)
        #expect(game == ["strategy"], "only packages matching game")
        for completion in try store.complete("gno", limit: 8) {
            let term = completion.term
            #expect(
                TextAnalyzer.tokens(term).first?.text.hasPrefix("gno") == true, "\(term) is written as in a record")
            let found = try store.search(SearchRequest(query: term + " ", limit: 1))
            #expect(!found.isEmpty, "\(term) finds an entity")
        }
    }
}
