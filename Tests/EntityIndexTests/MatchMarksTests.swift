import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Every match is marked: highlights for numbers found by their joined digits or national form, and `matchedBy` says
/// how a result matched beyond the words as typed.
@Suite struct MatchMarksTests {
    func first(_ store: EntityStore, _ query: String) throws -> EntityResult? {
        try store.search(SearchRequest(query: query, type: nil, highlight: true)).first
    }

    @Test func phoneNumberByItsJoinedDigits() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "1", "Claire", [("subtitle", "+33 6 12 34 56 78")])
        ])
        for query in ["0612345678", "+33612345678", "612345678"] {
            let found = try #require(try first(store, query), "\(query)")
            #expect(found.highlights?.map(\.text) == ["+33 6 12 34 56 78"], "\(query): \(found.highlights ?? [])")
            #expect(found.matchedBy == ["phone"], "\(query)")
        }
        let typed = try #require(try first(store, "claire"))
        #expect(typed.matchedBy == nil, "matched as typed")
    }

    @Test func synonymTypoAndStem() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("city", "1", "New York City", [("synonyms", ["Big Apple", "NYC"])]),
            TestSupport.record("recipe", "2", "Candied walnuts"),
            TestSupport.record("city", "3", "Amsterdam"),
        ])
        try store.declare(type: "recipe", [], stemming: .english)
        let synonym = try #require(try first(store, "nyc"))
        #expect(synonym.matchedBy == ["synonym"])
        #expect(synonym.highlights?.map(\.field) == ["synonyms[1]"])
        let typo = try #require(try first(store, "amsterdm"))
        #expect(typo.matchedBy == ["typo"])
        #expect(typo.highlights?.map(\.text) == ["Amsterdam"])
        let stem = try #require(try first(store, "candy "))
        #expect(stem.matchedBy == ["stem"])
        #expect(stem.highlights?.map(\.text) == ["Candied"])
        #expect(try first(store, "new york")?.matchedBy == nil)
    }
}
