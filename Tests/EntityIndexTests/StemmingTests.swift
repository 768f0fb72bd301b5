import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Opt-in stemming (`declare --stemming english`): a stemmed type's text matches regular English inflections, other
/// types' text does not, and the index stays exact through updates, deletes and a change of the setting.
@Suite struct StemmingTests {
    static func ids(_ store: EntityStore, _ query: String, type: String? = nil, limit: Int = 50) throws -> [String] {
        try store.search(SearchRequest(query: query, type: type, limit: limit)).map(\.key.id)
    }

    static func integrityHolds(_ store: EntityStore) throws -> Bool {
        for table in ["search", "search_title", "search_code"] {
            guard try store.db.scalar("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)") == nil
            else { return false }
        }
        return true
    }

    @Test func inflectionsFindEachOtherInAStemmedTypeOnly() throws {
        let store = try TestSupport.store()
        try store.declare(type: "recipe", [], stemming: .english)
        _ = try store.ingest([
            TestSupport.record("recipe", "r1", "Candies for the holidays"),
            TestSupport.record("recipe", "r2", "Candy apples", [("description", "Boxes of running shoes")]),
            TestSupport.record("recipe", "r3", "Candied ginger"),
            TestSupport.record("note", "n1", "Candies on the shelf"),
            TestSupport.record("note", "n2", "Boxes and boxing"),
        ])
        // Whole words (a trailing space): the word as typed, or its stem in a stemmed type.
        #expect(Set(try Self.ids(store, "candy ")) == ["r1", "r2", "r3"])
        #expect(Set(try Self.ids(store, "candies ")) == ["r1", "r2", "r3", "n1"])
        #expect(try Self.ids(store, "box ") == ["r2"])
        #expect(try Self.ids(store, "run ") == ["r2"])
        #expect(Set(try Self.ids(store, "boxes ")) == ["r2", "n2"])
        // The title equal to the word, or starting with it, comes first; a stem alone ranks as a whole word.
        #expect(try Self.ids(store, "candy ").first == "r2")
        // While typing, the word is still a prefix: `cand` finds every candy of both types.
        #expect(Set(try Self.ids(store, "cand")) == ["r1", "r2", "r3", "n1"])
        // A word that is not stemmed (digits, two letters) matches as written.
        #expect(try Self.ids(store, "x1 ") == [])
        // Highlights mark the word found by its stem, in the stemmed type only.
        let highlighted = try store.search(SearchRequest(query: "candy ", limit: 10, highlight: true))
        for result in highlighted {
            let marked = result.highlights?.map(\.text) ?? []
            switch result.key.id {
            case "r1": #expect(marked == ["Candies"])
            case "r2": #expect(marked == ["Candy"])
            case "r3": #expect(marked == ["Candied"])
            default: Issue.record("unexpected \(result.key.id)")
            }
        }
        #expect(try Self.integrityHolds(store))
    }

    @Test func updatesDeletesAndTheSettingKeepTheIndexExact() throws {
        let store = try TestSupport.store()
        try store.declare(type: "recipe", [], stemming: .english)
        _ = try store.ingest([
            TestSupport.record("recipe", "r1", "Candies"), TestSupport.record("recipe", "r2", "Boxes"),
        ])
        // An update re-derives the old text with its stems to delete it.
        _ = try store.ingest([TestSupport.record("recipe", "r1", "Walnuts in cups")])
        #expect(try Self.ids(store, "candy ") == [])
        #expect(try Self.ids(store, "walnut ") == ["r1"])
        #expect(try Self.integrityHolds(store))
        _ = try store.delete(DeleteRequest(type: "recipe", ids: ["r2"]))
        #expect(try Self.ids(store, "box ") == [])
        #expect(try Self.integrityHolds(store))
        // Declaring properties leaves the stemming as it was; `none` turns it off and reindexes the type.
        try store.declare(type: "recipe", [PropertyDeclaration(name: "servings", kind: .integer)])
        #expect(try Self.ids(store, "cup ") == ["r1"])
        #expect(try store.allDeclarations().first { $0.type == "recipe" }?.stemming == .english)
        try store.declare(type: "recipe", [], stemming: Stemming.none)
        #expect(try Self.ids(store, "cup ") == [])  // (three letters: no typo either)
        #expect(try Self.ids(store, "cups ") == ["r1"])
        #expect(try store.allDeclarations().first { $0.type == "recipe" }?.stemming == Stemming.none)
        #expect(try Self.integrityHolds(store))
        // On again: the type's entities are indexed again with their stems.
        try store.declare(type: "recipe", [], stemming: .english)
        #expect(try Self.ids(store, "cup ") == ["r1"])
        #expect(try store.entityTypes().contains("recipe"))
        #expect(try Self.integrityHolds(store))
    }

    /// On Debian's package sample with the type stemmed: every whole word of a query finds exactly the packages one
    /// of whose searchable texts has the word, or a word with the same stem (a brute force over every package's
    /// index terms); the exact forms rank first where the title decides.
    @Test(arguments: ["libraries ", "files ", "using ", "tools ", "manager ", "game ", "provides ", "services "])
    func debianPackagesMatchByStemAsABruteForceSays(_ query: String) throws {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        let records = text.split(separator: "\n").map { TestSupport.json(String($0)) }
        _ = try store.ingest(records)
        let before = Set(try Self.ids(store, query, limit: 1000))
        try store.declare(type: "package", [], stemming: .english)
        let word = String(query.dropLast())
        let stem = EnglishStemmer.stem(word)
        var expected = Set<String>(), exact = Set<String>()
        for record in records {
            guard case .object(let o) = record else { continue }
            var texts = [o["title"]?.string, o["subtitle"]?.string, o["description"]?.string, o["id"]?.string]
                .compactMap { $0 }
            texts += (o["synonyms"]?.array ?? []).compactMap(\.string)
            texts += (o["keywords"]?.array ?? []).compactMap(\.string)
            for (_, value) in o["properties"]?.object ?? JSONObject() {
                if let s = value.string, Timestamp.parse(s) == nil { texts.append(s) }
                texts += (value.array ?? []).compactMap(\.string)
            }
            let terms = texts.flatMap { TextAnalyzer.indexTerms($0) }
            let id = o["id"]!.string!
            if terms.contains(word) { exact.insert(id) }
            if terms.contains(where: { $0 == word || (Stemming.stems($0) && EnglishStemmer.stem($0) == stem) }) {
                expected.insert(id)
            }
        }
        let found = try Self.ids(store, query, limit: 1000)
        #expect(Set(found) == expected, "\(query): \(Set(found).symmetricDifference(expected).sorted().prefix(10))")
        #expect(before == exact, "\(query): without stemming, the word as written")
        #expect(expected.count > exact.count, "\(query): the sample has other forms of the word")
        #expect(try Self.integrityHolds(store))
    }
}
