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
        #expect(try store.complete("call j", limit: 5).map(\.term).sorted() == ["Jane", "John"])
        #expect(try store.complete("j", limit: 1).map(\.term) == ["Jane"], "most frequent first")
        #expect(
            try !store.complete("j", limit: 10).map(\.term).contains("Jim"), "a word only a hidden entity holds")
        #expect(try store.complete("jones j", limit: 5).map(\.term) == ["Janet", "Jones"])
        #expect(try store.complete("jones jw", limit: 5).isEmpty, "an e-mail part")
        #expect(try store.complete("jones jweiss@", limit: 5).map(\.term) == ["jweiss"], "asked for by the @")
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

    /// Ids, e-mail parts and codes are not words people type: offered only when the word typed asks for them.
    @Test func onlyWordsPeopleType() throws {
        let store = try TestSupport.store()
        var records: [JSONValue] = []
        for i in 0..<40 {
            records.append(
                TestSupport.record(
                    "contact", "cafecreme\(i)", i % 4 == 0 ? "Café Crème \(i)" : "Jürgen Weiß \(i)",
                    [
                        (
                            "properties",
                            ["email": .string("juergen.weiss\(i % 3)@example.com"), "code": .string("CAF-\(1000 + i)")]
                        )
                    ]))
        }
        records.append(TestSupport.record("product", "cafecreme", "Cafetière"))
        _ = try store.ingest(records)
        let caf = try store.complete("caf", limit: 10).map(\.term)
        #expect(caf == ["Café", "Cafetière"], "no id, no code: \(caf)")
        let jue = try store.complete("jue", limit: 10).map(\.term)
        #expect(jue == ["Jürgen"], "no e-mail part: \(jue)")
        let exa = try store.complete("@exa", limit: 10).map(\.term)
        #expect(exa.contains("example") && exa.allSatisfy { $0.hasPrefix("example") }, "an @: addresses \(exa)")
        #expect(try store.complete("exam", limit: 10).isEmpty, "a domain of an address")
        #expect(try store.complete("CAF-10", limit: 10).map(\.term).contains { $0.hasPrefix("10") }, "a digit: codes")
        #expect(try store.complete("cafecreme1", limit: 3).count == 3, "a digit asks for ids")
    }

    /// The word typed comes first when the records hold it whole, then the words it starts.
    @Test func theTypedWordFirst() throws {
        let store = try TestSupport.store()
        var records: [JSONValue] = []
        for i in 0..<10 { records.append(TestSupport.record("note", "\(i)", "Shipshape harbour \(i)")) }
        records.append(TestSupport.record("note", "s1", "Ships in the harbour"))
        records.append(TestSupport.record("note", "s2", "All ships sail"))
        _ = try store.ingest(records)
        #expect(try store.complete("ships", limit: 5).map(\.term) == ["ships", "Shipshape"])
        #expect(try store.complete("ship", limit: 5).map(\.term) == ["Shipshape", "ships"], "most frequent first")
        #expect(try store.complete("shipsh", limit: 5).map(\.term) == ["Shipshape"])
    }

    /// A CJK run is offered whole, never the two characters that index it.
    @Test func cjkRunsWhole() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("fruit", "1", "メロン"), TestSupport.record("fruit", "2", "メロンパン"),
            TestSupport.record("fruit", "3", "アメリカンチェリー"), TestSupport.record("city", "4", "東京タワー"),
            TestSupport.record("city", "5", "東京"),
        ])
        let me = try store.complete("メ", limit: 10).map(\.term)
        #expect(Set(me) == ["メロン", "メロンパン"], "\(me)")
        #expect(!me.contains("メロ") && !me.contains("メリ"))
        #expect(try store.complete("メロンパ", limit: 10).map(\.term) == ["メロンパン"])
        #expect(try store.complete("东京", limit: 10).map(\.term).first == "東京", "the run typed, held whole, first")
        #expect(Set(try store.complete("東", limit: 10).map(\.term)) == ["東京", "東京タワー"])
        #expect(try store.complete("タ", limit: 10).isEmpty, "inside a run")
    }

    /// On Debian's package list: no maintainer's e-mail part, no package name with digits, for a plain prefix.
    @Test func debianWordsPeopleType() throws {
        let store = try Self.debian()
        for prefix in ["a", "b", "d", "li", "pk", "byan", "alio", "deb", "lib", "x"] {
            for completion in try store.complete(prefix, limit: 10) {
                let term = completion.term
                #expect(!term.contains { $0.isNumber } && !term.contains("@"), "\(prefix): \(term)")
            }
        }
        #expect(try store.complete("alio", limit: 5).isEmpty, "alioth is in e-mail addresses only")
        #expect(try store.complete("lists.al", limit: 5).map(\.term).contains("alioth"), "a . asks for addresses")
    }
}
