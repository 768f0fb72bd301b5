import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Optional words (`matching`) on the sample shop (`data/`) and Debian's package sample: what the issue's queries
/// find, that what matches every word comes first as before, and how typos compose with leaving words out.
@Suite struct OptionalWordsTests {
    static func shop() throws -> EntityStore {
        let store = try TestSupport.store()
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let text = TestSupport.read(TestSupport.repository + "/data/" + file) ?? ""
            let records =
                file.hasSuffix(".json")
                ? TestSupport.json(text).array ?? []
                : text.split(separator: "\n").map { TestSupport.json(String($0)) }
            _ = try store.ingest(records)
        }
        return store
    }

    static func packages() throws -> EntityStore {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        _ = try store.ingest(text.split(separator: "\n").map { TestSupport.json(String($0)) })
        return store
    }

    static func ids(
        _ store: EntityStore, _ query: String, _ matching: WordMatching, limit: Int = 20
    ) throws -> [String] {
        try store.search(SearchRequest(query: query, limit: limit, matching: matching)).map(\.key.description)
    }

    @Test func spokenQueriesFindWhatEveryWordCannot() throws {
        let store = try Self.shop()
        #expect(try Self.ids(store, "show me Ada", .all).isEmpty)
        let ada = try store.search(SearchRequest(query: "show me Ada", explain: true, matching: .frequency))
        #expect(ada.first?.key.description == "customer/c1", "\(ada.map(\.key))")
        #expect(ada.allSatisfy { $0.explanation?["words"] == "1/3" })
        // `last` leaves out Ada first: "show me" and "show" match nothing.
        #expect(try Self.ids(store, "show me Ada", .last).isEmpty)
        #expect(try Self.ids(store, "the order 1042", .frequency, limit: 50).contains("order/1042"))
        // user-query leaves out the most frequent words by default.
        #expect(
            try store.userQuery(UserQueryRequest(query: "show me Ada")).items.first?.key.description == "customer/c1")
        var every = UserQueryRequest(query: "show me Ada")
        every.matching = .all
        #expect(try store.userQuery(every).items.isEmpty)
    }

    /// Queries on Debian's packages, some of whose words match together: those results first, exactly as a search of
    /// every word ranks them; when they fill the page, nothing else.
    @Test(arguments: [
        "python3 library", "gnome terminal", "library for python", "pdf viewer please", "dolphin version control",
        "show me vim", "firmware for intel", "the qt5 widgets", "libreoffice writer", "postgresql client",
    ])
    func whatMatchesEveryWordComesFirstAsBefore(_ query: String) throws {
        let store = try Self.packages()
        for limit in [1, 5, 20] {
            let every = try Self.ids(store, query, .all, limit: limit)
            for matching in [WordMatching.frequency, .last] {
                let got = try store.search(
                    SearchRequest(query: query, limit: limit, explain: true, matching: matching))
                let n = SearchQuery(query).terms.count
                let whole = got.filter { $0.explanation?["words"]?.string == "\(n)/\(n)" }
                #expect(whole.map(\.key.description) == every, "\(matching) \"\(query)\", limit \(limit)")
                #expect(Array(got.prefix(every.count)).map(\.key.description) == every)
                if every.count == limit { #expect(got.count == limit) }
                // More words first.
                let words = got.compactMap { $0.explanation?["words"]?.string?.split(separator: "/").first }
                    .compactMap { Int($0) }
                #expect(words == words.sorted(by: >), "\(matching) \"\(query)\": \(words)")
            }
        }
    }

    @Test func aSingleWordIsNeverLeftOut() throws {
        let store = try Self.packages()
        for matching in [WordMatching.frequency, .last] {
            #expect(try Self.ids(store, "zqxj", matching).isEmpty)
            #expect(try Self.ids(store, "python3", matching) == Self.ids(store, "python3", .all))
        }
        let words = try store.search(SearchRequest(query: "python3", explain: true, matching: .last))
            .map { $0.explanation?["words"] }
        #expect(!words.isEmpty && words.allSatisfy { $0 == "1/1" })
        // Every word left out at most once, down to one: a query of n words makes at most n passes.
        let last = try store.search(SearchRequest(query: "zq zx zv vim", explain: true, matching: .frequency))
        #expect(!last.isEmpty && last.allSatisfy { $0.explanation?["words"] == "1/4" })
    }

    @Test func frequencyLeavesOutTheMostFrequentWordFirst() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(
            [
                TestSupport.record("item", "a", "copper kettle"), TestSupport.record("item", "b", "copper lamp"),
                TestSupport.record("item", "c", "copper mug"), TestSupport.record("item", "d", "steel kettle"),
                TestSupport.record("item", "e", "glass lamp"),
            ])
        // copper (3) goes first, then lamp (2, the later of a tie with kettle): kettle alone finds a and d.
        #expect(Set(try Self.ids(store, "copper kettle lamp ", .frequency)) == ["item/a", "item/d"])
        // last: "copper kettle" (a), then "copper" (b and c, the newer first).
        #expect(try Self.ids(store, "copper kettle lamp ", .last) == ["item/a", "item/c", "item/b"])
    }

    /// Every word with typos ranks before fewer words (Meilisearch ranks words before typos); a later pass tries
    /// typos only when its words match nothing as typed, an entity an earlier pass found included.
    @Test func typosOfEveryWordComeBeforeFewerWords() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(
            [
                TestSupport.record("item", "bk", "Blue kettle"), TestSupport.record("item", "bl", "Blue lamp"),
                TestSupport.record("item", "ks", "Steel kettles"), TestSupport.record("item", "bc", "Blue copper"),
                TestSupport.record("item", "rc", "Red copper"),
            ])
        func explained(_ query: String, _ matching: WordMatching) throws -> [String] {
            try store.search(SearchRequest(query: query, explain: true, matching: matching)).map {
                "\($0.key.id) \($0.explanation?["words"]?.string ?? "") \($0.explanation?["typos"].map(JSONWriter.string) ?? "")"
            }
        }
        // kettel matches nothing as typed: every word with its typo first; then, without kettel (no document holds
        // it, so it goes first), blue alone.
        let blue = try explained("blue kettel ", .frequency)
        #expect(blue.first == "bk 2/2 1" && Set(blue.dropFirst()) == ["bl 1/2 0", "bc 1/2 0"], "\(blue)")
        // last keeps coppre: its own pass matches nothing as typed and falls back to typos.
        #expect(try explained("coppre blue ", .last) == ["bc 2/2 1", "rc 1/2 1"])
        // "kettle" alone matches Blue kettle, which the first pass found: no typos for it (Steel kettles is one
        // edit away).
        #expect(try explained("kettle blue ", .last) == ["bk 2/2 0"])
        #expect(try explained("kettle lamp ", .last) == ["bk 1/2 0"])
        #expect(try explained("kettle lamp ", .all).isEmpty)
    }

    @Test func totalsCountEveryPassAndAgreeOnEveryPage() throws {
        let store = try Self.shop()
        let all = try store.searchPage(
            SearchRequest(query: "show me Ada", limit: EntityStore.maxResults, matching: .frequency))
        let first = try store.searchPage(SearchRequest(query: "show me Ada", limit: 3, matching: .frequency))
        #expect(first.total == all.entities.count && !first.totalIsLowerBound)
        #expect(first.total == all.total && first.nextCursor != nil)
        var ids = first.entities.map(\.key.description), cursor = first.nextCursor
        while let next = cursor {
            let page = try store.searchPage(
                SearchRequest(query: "show me Ada", limit: 3, cursor: next, matching: .frequency))
            #expect(page.total == first.total)
            ids += page.entities.map(\.key.description)
            cursor = page.nextCursor
        }
        #expect(ids == all.entities.map(\.key.description))
    }
}
