import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Split and joined words (`WordRewrites`): a word typed fused finds its two indexed words, two words typed apart
/// find their compound, only when the words as typed match nothing, and the lookups stay bounded.
@Suite struct WordRewriteTests {
    static func store(_ titles: [String]) throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest(
            titles.enumerated().map { i, title in
                .object(JSONObject([("type", "item"), ("id", .string("i\(i)")), ("title", .string(title))]))
            })
        return store
    }

    static let titles = [
        "Oat Milk Cappuccino", "Kaffeemaschine", "Kaffee aus Bohnen", "Maschine für Brot", "Milk frother",
        "Oat cookies", "Kaffee Maschine Set",
    ]

    @Test func aFusedWordFindsItsTwoWords() throws {
        let store = try Self.store(Self.titles)
        for query in ["oatmilk", "oatmilk ", "Oatmilk cappuccino"] {
            let found = try store.search(SearchRequest(query: query, explain: true))
            #expect(found.first?.key.id == "i0", "query \(query)")
            #expect(found.first?.matchedBy == ["split"], "query \(query)")
            #expect(found.first?.explanation?["split"] == .string("oatmilk → oat milk"), "query \(query)")
        }
    }

    @Test func twoWordsFindTheirCompound() throws {
        let store = try Self.store(Self.titles.filter { $0 != "Kaffee Maschine Set" })
        let found = try store.search(SearchRequest(query: "kaffee maschine", explain: true, highlight: true))
        #expect(found.map(\.key.id) == ["i1"])
        #expect(found.first?.matchedBy == ["joined"])
        #expect(found.first?.explanation?["joined"] == .string("kaffee maschine → kaffeemaschine"))
        #expect(found.first?.highlights?.first?.text == "Kaffeemaschine")
    }

    /// A rewrite is a fallback, as typos are: when the words as typed match, they are the answer, unchanged.
    @Test func wordsAsTypedComeFirstAndAlone() throws {
        let store = try Self.store(Self.titles)
        let found = try store.search(SearchRequest(query: "kaffee maschine", explain: true))
        #expect(found.map(\.key.id) == ["i6"])
        #expect(found.first?.matchedBy == nil)
        #expect(found.first?.explanation?["joined"] == nil)
        // A word the vocabulary holds is never split, nor is one being typed that starts a vocabulary word.
        #expect(try store.search(SearchRequest(query: "oat")).map(\.key.id).sorted() == ["i0", "i5"])
        #expect(try store.search(SearchRequest(query: "oatmi")).isEmpty)
    }

    @Test func totalsAndPagesCountTheRewrites() throws {
        let store = try Self.store(["Oat Milk", "Oat Milk Latte", "Oat Milk Tea", "Oat Bar"])
        let first = try store.searchPage(SearchRequest(query: "oatmilk ", limit: 2))
        #expect(first.total == 3)
        let next = try store.searchPage(SearchRequest(query: "oatmilk ", limit: 2, cursor: first.nextCursor))
        let all = try store.search(SearchRequest(query: "oatmilk ", limit: 3))
        #expect((first.entities + next.entities).map(\.key) == all.map(\.key))
    }

    /// With optional words, a pass whose words match only split ranks before a pass of fewer words.
    @Test func aSplitWordCountsAsItsWordForOptionalWords() throws {
        let store = try Self.store(["Oat Milk Cappuccino", "Cappuccino cup"])
        let found = try store.search(SearchRequest(query: "oatmilk cappuccino ", explain: true, matching: .frequency))
        #expect(found.map(\.key.id) == ["i0", "i1"])
        #expect(found.first?.explanation?["words"] == "2/2")
    }

    /// A long word whose every cut is two vocabulary words: its cuts are each looked up once, and at most
    /// `maxSplitsPerWord` kept; a word past `maxSplitLength` is not cut at all.
    @Test func splitsStayBounded() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyzabcdef")
        let vocabulary = (1..<letters.count).flatMap { [String(letters[..<$0]), String(letters[$0...])] }
        let store = try Self.store(vocabulary)
        let word = String(letters)  // 32 letters, no vocabulary word itself
        var finder = WordRewrites(db: store.db)
        let splits = try finder.splits(QueryTerm(kind: .plain(word), prefix: false))
        #expect(splits.count == WordRewrites.maxSplitsPerWord)
        #expect(finder.splitsTried == WordRewrites.maxSplitsPerWord)
        #expect(splits.first.map { $0.0 + " " + $0.1 } == "abcdefghijklmnop qrstuvwxyzabcdef")
        // Every cut looked up when none fits: a word of n letters tries at most n - 2 × minPart + 1 cuts.
        var none = WordRewrites(db: store.db)
        let odd = String(repeating: "q", count: WordRewrites.maxSplitLength)
        #expect(try none.splits(QueryTerm(kind: .plain(odd), prefix: false)).isEmpty)
        #expect(none.splitsTried == WordRewrites.maxSplitLength - 2 * WordRewrites.minPart + 1)
        #expect(none.lookups <= 1 + 2 * none.splitsTried)
        var long = WordRewrites(db: store.db)
        let longer = String(letters) + "gh"
        #expect(try long.splits(QueryTerm(kind: .plain(longer), prefix: false)).isEmpty)
        #expect(long.splitsTried == 0 && long.lookups == 0)
        // A query of many fused words: at most `maxRewrites` rewrites and `maxLookups` lookups.
        var query = WordRewrites(db: store.db)
        let rewrites = try query.rewrites(SearchQuery(Array(repeating: word, count: 20).joined(separator: " ")))
        #expect(rewrites.count == WordRewrites.maxRewrites)
        #expect(query.lookups <= WordRewrites.maxLookups)
    }
}
