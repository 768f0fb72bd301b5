import JSON
import TestSupport
import Testing

@testable import EntityIndex

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

    @Test func laterWordsInsideAWordAndLongPrefixes() throws {
        let store = try TestSupport.store()
        var records = [
            TestSupport.json(#"{"type":"product","id":"1","title":"MacBook Pro"}"#),
            TestSupport.json(#"{"type":"product","id":"2","title":"Notebook"}"#),
            TestSupport.json(#"{"type":"package","id":"zmq","title":"python3-zmq"}"#),
        ]
        for n in 0..<50 {
            records.append(TestSupport.json(#"{"type":"package","id":"r\#(n)","title":"python3-requests\#(n)"}"#))
        }
        _ = try store.ingest(records)
        // `book` starts a word of MacBook (a lower case letter, then a capital), not of Notebook.
        let book = try store.userQuery(UserQueryRequest(query: "book"))
        #expect(book.suggestions.map(\.text) == ["MacBook Pro"])
        #expect(book.suggestions.first?.matchedRanges == [3..<7])
        // Past the 8 bytes a name's key holds, the names that share them are narrowed by the full-text index: only
        // python3-zmq is read (once for each kind of suggestion), not the 50 python3-requests.
        let zmq = try store.userQuery(UserQueryRequest(query: "python3-z"))
        #expect(zmq.suggestions.map(\.text) == ["python3-zmq"])
        #expect(zmq.rowsRead == 2)
    }
}

/// The suggestions of `userQuery` read a bounded number of entities, and none when no name holds the typed text.
@Suite struct UserQueryBoundTests {
    /// 2,500 entities, each with the keywords `tag::alpha` and `beta`.
    static func store() throws -> EntityStore {
        let store = try TestSupport.store()
        let records = (0..<2500).map { n in
            TestSupport.json(#"{"type":"item","id":"\#(n)","title":"Item \#(n)","keywords":["tag::alpha","beta"]}"#)
        }
        _ = try store.ingest(records)
        return store
    }

    @Test func textNoNameHoldsReadsNoEntity() throws {
        let store = try Self.store()
        for query in ["zzqx", "item zzqx", "alpha zzqx", "tag::alpah"] {
            let result = try store.userQuery(UserQueryRequest(query: query, maxItems: 0))
            #expect(result.suggestions.isEmpty, "\(query)")
            #expect(result.rowsRead == 0, "\(query)")
        }
        // Words of several names: the one entity that holds them all is read.
        let apart = try store.userQuery(UserQueryRequest(query: "Item 12 beta", maxItems: 0))
        #expect(apart.suggestions.isEmpty)
        #expect(apart.rowsRead == 1)
    }

    @Test func entitiesReadStopAtTheBound() throws {
        let store = try Self.store()
        #expect(EntityStore.suggestionRows < 2500)
        // Every entity has a name with a later word `alpha`: the names of the first `suggestionRows` are read.
        let alpha = try store.userQuery(UserQueryRequest(query: "alpha", maxItems: 0))
        #expect(alpha.suggestions.map(\.text) == ["tag::alpha"])
        #expect(alpha.rowsRead == EntityStore.suggestionRows)
        // Every entity holds both words, none as one name: the bound stops the reading with nothing found.
        let both = try store.userQuery(UserQueryRequest(query: "alpha beta", maxItems: 0))
        #expect(both.suggestions.isEmpty)
        #expect(both.rowsRead == EntityStore.suggestionRows)
        // Every entity has a name that starts with `tag`, and the word again after the start in none: the bound
        // stops each kind.
        let tag = try store.userQuery(UserQueryRequest(query: "tag", maxItems: 0))
        #expect(tag.suggestions.map(\.text) == ["tag::alpha"])
        #expect(tag.rowsRead == 2 * EntityStore.suggestionRows)
    }
}
