import EntityIndex
import JSON
import TestSupport
import Testing

/// `userQuery`: items are the search for the text as typed; suggestions complete the whole typed string.
@Suite struct UserQueryTests {
    static func store() throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.json(#"{"type":"city","id":"1","title":"New York","keywords":["big apple"]}"#),
            TestSupport.json(#"{"type":"city","id":"2","title":"New York"}"#),
            TestSupport.json(#"{"type":"city","id":"3","title":"New Delhi"}"#),
            TestSupport.json(#"{"type":"city","id":"4","title":"Newark","synonyms":["Brick City"]}"#),
            TestSupport.json(#"{"type":"city","id":"5","title":"York"}"#),
            TestSupport.json(#"{"type":"city","id":"6","title":"New Yorker Hotel","hidden":true}"#),
            TestSupport.json(#"{"type":"city","id":"7","title":"Straße nach Ålesund"}"#),
        ])
        return store
    }

    @Test func suggestionsCompleteTheWholeTypedString() throws {
        let result = try Self.store().userQuery(UserQueryRequest(query: "new y"))
        #expect(result.suggestions.map(\.text) == ["New York"])
        #expect(result.suggestions.first?.matchedRanges == [0..<5])
        // Items: those matching both words first, then (matching frequency) New Delhi without the later of two
        // words as frequent.
        #expect(Set(result.items.prefix(2).map(\.key.id)) == ["1", "2"])
        #expect(result.items.dropFirst(2).map(\.key.id) == ["3"])
        var every = UserQueryRequest(query: "new y")
        every.matching = .all
        #expect(Set(try Self.store().userQuery(every).items.map(\.key.id)) == ["1", "2"])
    }

    @Test func startsFirstThenMoreEntitiesThenShorter() throws {
        let store = try Self.store()
        #expect(
            try store.userQuery(UserQueryRequest(query: "new")).suggestions.map(\.text) == [
                "New York", "Newark", "New Delhi",
            ])
        #expect(try store.userQuery(UserQueryRequest(query: "york")).suggestions.map(\.text) == ["York", "New York"])
        #expect(try store.userQuery(UserQueryRequest(query: "york")).suggestions.last?.matchedRanges == [4..<8])
        #expect(
            try store.userQuery(UserQueryRequest(query: "city", maxSuggestions: 1)).suggestions.map(\.text) == [
                "Brick City"
            ])
        #expect(try store.userQuery(UserQueryRequest(query: "new", maxSuggestions: 0)).suggestions.isEmpty)
        #expect(try store.userQuery(UserQueryRequest(query: "  ")).suggestions.isEmpty)
    }

    @Test func foldsCaseAndAccentsAndRangesAreUTF16() throws {
        let store = try Self.store()
        let s = try store.userQuery(UserQueryRequest(query: "ALES")).suggestions
        #expect(s.map(\.text) == ["Straße nach Ålesund"])
        #expect(s.first?.matchedRanges == [12..<16])
        #expect(try store.userQuery(UserQueryRequest(query: "strasse")).suggestions.first?.matchedRanges == [0..<6])
    }
}
