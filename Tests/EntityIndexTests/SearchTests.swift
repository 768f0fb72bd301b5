import JSON
import TestSupport
import Testing

@testable import EntityIndex

@Suite struct SearchTests {
    func ids(_ store: EntityStore, _ query: String, type: String? = nil) throws -> [String] {
        try store.search(SearchRequest(query: query, type: type, limit: 50)).map(\.key.id)
    }

    @Test func rankingTiersOrderResults() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "d", "Desk", [("description", "the lamp shade")]),
            TestSupport.record("item", "s", "Shade", [("subtitle", "lamp")]),
            TestSupport.record("item", "k", "Bulb", [("keywords", ["lamp"])]),
            TestSupport.record("item", "t2", "Old lamp stand"),
            TestSupport.record("item", "t1", "Lamp"),
            TestSupport.record("item", "t3", "Lampshade"),
        ])
        // title equal, title with the word whole, title starting with the word as typed … then keywords, subtitle,
        // description.
        #expect(try ids(store, "lamp ") == ["t1", "t2", "k", "s", "d"])
        #expect(try ids(store, "lamp") == ["t1", "t2", "t3", "k", "s", "d"])
    }

    @Test func anOldExactTitleOutranksManyNewerMatches() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "old", "Lamp"), TestSupport.record("item", "old-id", "Something"),
        ])
        _ = try store.ingest((0..<(50 + 200)).map { TestSupport.record("item", "n\($0)", "Desk lamp \($0)") })
        #expect(try ids(store, "lamp").first == "old", "the title equals the query")
        #expect(try ids(store, "lamp ").first == "old")
        #expect(
            try store.search(SearchRequest(query: "old-id")).first?.key.id == "old-id", "an id is found however old")
        #expect(try ids(store, "desk lamp").count == 50, "a broad query still fills the page")
        #expect(
            try store.search(SearchRequest(query: "desk", limit: 50 + 150)).count == 50 + 150,
            "a limit larger than the first page")
    }

    @Test func anOldTitleMatchIsKeptWhenTheSearchWidensToEveryField() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("item", "old", "Copper kettle")])
        _ = try store.ingest(
            (0..<(50 + 100)).map {
                TestSupport.record(
                    "item", "n\($0)", "Item \($0)", [("description", .string("a copper pot and a kettle"))])
            })
        // Fewer title matches than the limit, so the search widens; the title match must not be dropped for the
        // newer description matches.
        #expect(try ids(store, "copper kettle").first == "old")
        #expect(try ids(store, "kettle copper").first == "old")
    }

    @Test(
        "spelling variants find each other",
        arguments: [
            ("Müller GmbH", "mueller"), ("Müller GmbH", "muller"), ("Muller & Co", "müller"), ("東京タワー", "东京"),
            ("东京塔", "東京"), ("مكتبة الإسكندرية", "مكتبه"), ("Ёлка", "елка"), ("ラーメン屋", "らーめん"),
            ("とうきょう", "トウキョウ"),
            // A compound whose first part has an umlaut, typed either way (the spelled-out form must not split it).
            ("Jürgen Müller-Lüdenscheidt", "müller-lüdenscheidt"),
            ("Jürgen Müller-Lüdenscheidt", "mueller-luedenscheidt"),
            ("Praxis Dr. Müller's", "muller's"), ("Praxis Dr. Müller's", "mueller’s"),
            ("Büro Düsseldorf-Nord", "duesseldorf-nord"),
            // Arabic words are found without their definite article (with or without vowel marks).
            ("الكتاب الأحمر", "كتاب"), ("وَالْكِتَابُ", "كتاب"), ("القاهرة بالقطار", "قطار"),
            // Persian and Arabic letter forms find each other; a zero-width non-joiner joins a Persian word.
            ("ایران", "ايران"), ("كتاب عربي", "کتاب"), ("می‌خواهم کتاب", "میخواهم"), ("می‌خواهم کتاب", "می خواهم"),
            // Numbers with separators, typed with or without them; a word split by its own punctuation, joined.
            ("Price 1,299.00 EUR", "1299"), ("Price 1,299.00 EUR", "1299.00"), ("Price 1,299.00 EUR", "1,299"),
            ("Don't panic", "dont"),
            // Letters and digits typed together find them apart, and the other way round.
            ("iPhone 15 Pro", "iphone15"), ("Galaxy S24 Ultra", "galaxy s 24"), ("MP3 player", "mp 3"),
        ])
    func spellingVariants(_ title: String, _ query: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("item", "1", title)])
        #expect(try ids(store, query) == ["1"], "\(query) → \(title)")
    }

    @Test func lettersAndDigitsTogetherMatchOnlySideBySide() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "order", "Order #1042-A"),
            TestSupport.record("item", "model", "Model A1042 and K2 skis"),
            TestSupport.record("item", "apart", "Size 15, a new iPhone case"),
        ])
        #expect(try ids(store, "1042a") == ["order"])
        #expect(try ids(store, "a1042") == ["model"])
        #expect(try ids(store, "iphone15").isEmpty, "iphone and 15 are not side by side")
    }

    @Test func aFragmentOfACodeFindsIt() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("part", "K83913.39F29.59444AT", "Router"),
            TestSupport.record("part", "x1", "Cable HID98273DDE"),
            TestSupport.record(
                "part", "x2", "Adapter", [("properties", .object(JSONObject([("sku", .string("AB-77120-Z"))])))]),
            TestSupport.record("part", "x3", "Order 1042"),
            TestSupport.record("part", "x4", "Order 91042"),
        ])
        #expect(try ids(store, "9444") == ["K83913.39F29.59444AT"])
        #expect(try ids(store, "39F29") == ["K83913.39F29.59444AT"])
        #expect(try ids(store, "3DDE") == ["x1"])
        #expect(try ids(store, "7712") == ["x2"])
        let explained = try store.search(SearchRequest(query: "042", explain: true)).map(\.explanation)
        #expect(explained.map { $0?["insideCode"] } == [.bool(true), .bool(true)])
        #expect(explained.map { $0?["typos"] } == [JSONValue(0), JSONValue(0)])
        // Only when the words found nothing: a whole word or prefix keeps the codes that merely contain it out.
        #expect(try ids(store, "1042") == ["x3"])
        // Never for words without digits, for two letters, or beside other words.
        #expect(try ids(store, "oute").isEmpty)
        #expect(try ids(store, "44").isEmpty)
        #expect(try ids(store, "router 9444").isEmpty)
    }

    @Test func rankingHintBreaksTies() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "a", "Blue mug", [("rankingHint", 10)]),
            TestSupport.record("item", "b", "Blue mug", [("rankingHint", 90)]),
        ])
        #expect(try ids(store, "blue mug") == ["b", "a"])
    }

    @Test func typosAreAFallbackOnly() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "w", "Widgets and gizmos"),
            TestSupport.record("item", "s", "Saturday market"),
            TestSupport.record("item", "n", "Internationalization guide"),
        ])
        #expect(try ids(store, "widgte") == ["w"])
        #expect(try ids(store, "widgts") == ["w"])
        #expect(try ids(store, "caturday").isEmpty, "a first-letter typo costs two edits")
        #expect(try ids(store, "internationalisatoin").isEmpty == false, "two typos from nine letters")
        #expect(try ids(store, "wid").contains("w"), "a prefix never needs typos")
        #expect(try ids(store, "gizmo widgte") == ["w"])
    }

    static let typoCorpus: [(String, String)] = [
        ("python3-requests", "python3-requests"), ("gnome-terminal", "gnome-terminal"), ("gnome-shell", "gnome-shell"),
        ("postgresql", "postgresql"), ("baden", "Baden-Württemberg"), ("kgz", "Kyrgyzstan"), ("ars", "Argentine Peso"),
        ("doc", "Documentation"), ("sat", "Saturday market"), ("ice", "Iceland"),
    ]

    @Test(
        "typos are corrected in every word of five letters or more",
        arguments: [
            ("python3-reqeusts", "python3-requests"),  // a swap inside a compound
            ("python3-reqeu", "python3-requests"),  // … while typing its last part
            ("gnome-termnial", "gnome-terminal"),
            ("gnome-termnial ", "gnome-terminal"),
            ("gmome-shell", "gnome-shell"),  // the second letter, inside a compound
            ("Baden-Wurtemberg", "baden"),  // a deletion in a compound with an umlaut
            ("pstgresql", "postgresql"),  // a deletion at the second letter
            ("psotgresql", "postgresql"),  // a swap at the second letter
            ("posgtresql", "postgresql"),  // Damerau: one swap
            ("pstgr", "postgresql"),  // a typo while typing
            ("Kirgyzstan", "kgz"),  // a substitution at the second letter
            ("Argenitne Peso", "ars"),
            ("documantasion", "doc"),  // two substitutions from nine letters
            ("dokumentatoin", "doc"),  // a substitution and a swap
            ("ostgresql", "postgresql"),  // the first letter deleted: two edits, allowed from nine letters
            ("saturdya", "sat"),
            ("Icelnd", "ice"),
        ])
    func typosAreCorrected(_ query: String, _ expected: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.typoCorpus.map { TestSupport.record("item", $0.0, $0.1) })
        #expect(try ids(store, query).first == expected)
        let explained = try store.search(SearchRequest(query: query, explain: true)).first?.explanation
        #expect((explained?["typos"]?.number?.double ?? 0) > 0, "\(query) needs typos")
    }

    @Test(
        "typos stay within the budget",
        arguments: [
            "caturday",  // the first letter of an 8-letter word: two edits
            "pstgrsql",  // two deletions in an 8-letter word
            "documantasiom",  // three edits
            "gnome-termnal1",  // a part with a digit
            "icelamd1",  // a digit
            "celand",  // the first letter deleted from a 6-letter word
            "Icela ndx",
        ])
    func typosStayWithinTheBudget(_ query: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.typoCorpus.map { TestSupport.record("item", $0.0, $0.1) })
        #expect(try ids(store, query).isEmpty)
    }

    @Test(
        "edit distance: Damerau, the first letter counts two",
        arguments: [
            ("postgresql", "pstgresql", 1), ("postgresql", "psotgresql", 1), ("postgresql", "ostgresql", 2),
            ("saturday", "caturday", 2), ("documentation", "documantasion", 2), ("abcdef", "abdcef", 1),
            ("abcdef", "bacdef", 2), ("abc", "abc", 0),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(TypoTolerance.distance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: 3) == expected)
    }

    @Test(
        "numbers and names typed without the spaces they are stored with",
        arguments: [
            ("(030) 1234-567", "0301234567"), ("(030) 1234-567", "1234567"), ("030 1234 567", "0301234567"),
            ("030 1234 567", "1234567"), ("+49 30 1234567", "49301234567"), ("+49 (0)30 123 45 67", "301234567"),
            ("030/123.45.67", "0301234567"),
            ("山田 太郎", "山田太郎"), ("山田太郎", "山田 太郎"), ("山田　太郎", "山田太郎"), ("김 민준", "김민준"),
            ("やまだ たろう", "やまだたろう"),
        ])
    func typedWithoutSpaces(_ stored: String, _ typed: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "1", "Someone", [("subtitle", .string(stored))]),
            TestSupport.record("contact", "2", "Other", [("subtitle", "030 999 111 太郎")]),
        ])
        #expect(try ids(store, typed) == ["1"])
    }

    @Test func explainAndHighlight() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("item", "1", "Café de Flore", [("subtitle", "東京塔 tour")])])
        let r = try #require(try store.search(SearchRequest(query: "cafe 東京", explain: true, highlight: true)).first)
        #expect(r.explanation?["bestField"] == .string("title"))
        let spans = r.highlights ?? []
        #expect(spans.contains(Highlight(field: "title", start: 0, end: 4, text: "Café")))
        #expect(spans.contains { $0.field == "subtitle" && $0.text == "東京" })
    }

    /// A long field is highlighted in pieces cut at spaces: the spans are those of its parts, shifted.
    @Test(arguments: [
        "Café 東京塔 #1042-A Müller's order 🎉 order-1042 東京 ordering ",
        "東京タワーの夜景はとても綺麗です。注文番号は１０４２です。\u{3000}東京駅",
    ])
    func aLongFieldIsHighlightedAsItsPartsAre(_ part: String) throws {
        let store = try TestSupport.store()
        let count = 2_000  // 136 KB: several pieces
        _ = try store.ingest([
            TestSupport.record("item", "short", "Short", [("description", .string(part))]),
            TestSupport.record(
                "item", "long", "Long", [("description", .string(String(repeating: part, count: count)))]),
        ])
        var compared = 0
        for query in ["order 東京", "1042", "muller", "cafe orde", "夜景", "東京駅"] {
            let results = try store.search(SearchRequest(query: query, highlight: true))
            guard let short = results.first(where: { $0.key.id == "short" })?.highlights else { continue }
            let long = try #require(results.first { $0.key.id == "long" }?.highlights)
            let units = part.utf16.count
            let expected = (0..<count).flatMap { k in
                short.filter { $0.field == "description" }.map {
                    Highlight(field: $0.field, start: $0.start + k * units, end: $0.end + k * units, text: $0.text)
                }
            }
            let found = long.filter { $0.field == "description" }
            #expect(found.count == expected.count, "\(query)")
            let wrong = zip(found, expected).first { $0 != $1 }
            #expect(wrong == nil, "\(query): \(String(describing: wrong))")
            if !expected.isEmpty { compared += 1 }
        }
        #expect(compared >= 2, "queries that found the part")
    }

    @Test func aWordAndItsSpelledOutFormAreHighlightedOnce() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("item", "1", "Dr. Müller's Praxis")])
        for query in ["mu", "muller's", "praxis s"] {
            let r = try #require(try store.search(SearchRequest(query: query, highlight: true)).first)
            let texts = (r.highlights ?? []).map(\.text)
            #expect(texts.filter { $0 == "Müller's" } == ["Müller's"], "\(query): \(texts)")
        }
    }

    @Test func hiddenAndExpiredAreNotSearched() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "h", "Secret plan", [("hidden", true)]),
            TestSupport.record("item", "e", "Secret map", [("expiresAt", "2026-03-05T00:00:00Z")]),
        ])
        #expect(try ids(store, "secret") == ["e"])
        store.operation.now = Timestamp.parse("2026-03-06T00:00:00Z")!
        #expect(try ids(store, "secret").isEmpty)
    }

    @Test func filtersNarrowASearch() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "1", "Chess set", [("properties", ["section": "games"])]),
            TestSupport.record("item", "2", "Chess book", [("properties", ["section": "books"])]),
        ])
        let r = try store.search(
            SearchRequest(query: "chess", filters: [PropertyFilter(property: "section", op: .eq, value: "Games")]))
        #expect(r.map(\.key.id) == ["1"])
    }

    @Test func indexingKeyWeighsLikeItsAttribute() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "a", "Alpha", [("properties", ["nickname": "zeppelin"])]),
            TestSupport.record("item", "b", "Beta", [("description", "zeppelin")]),
        ])
        #expect(try ids(store, "zeppelin") == ["b", "a"], "an undeclared string property weighs least")
        try store.declare(
            type: "item", [PropertyDeclaration(name: "nickname", kind: .string, indexingKey: "displayName")])
        #expect(try ids(store, "zeppelin") == ["a", "b"])
    }

    @Test func completesTheWordBeingTyped() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("item", "1", "Karimo tea"), TestSupport.record("item", "2", "Karimo cup"),
            TestSupport.record("item", "3", "Karivi bowl"), TestSupport.record("item", "4", "Café Karl"),
        ])
        #expect(try store.complete("KAR", limit: 5).map(\.term) == ["Karimo", "Karivi", "Karl"])
        #expect(try store.complete("kar", limit: 1).map(\.documents) == [2])
        #expect(try store.complete("kar ", limit: 5).isEmpty, "a finished word is not completed")
        #expect(try store.complete("caf", limit: 5).map(\.term) == ["Café"], "as written")
        #expect(try store.complete("tea KAR", limit: 5).map(\.term) == ["Karimo"], "among entities matching tea")
        #expect(try store.complete("blue kar", limit: 5).isEmpty, "no entity matches blue")
    }

    @Test func hostileQueriesNeverFail() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("item", "a", "Cats AND dogs \"quoted\" (paren) NEAR/2 col:umn")])
        let pieces = [
            "\"", "'", "(", ")", "*", "^", ":", "-", "+", "AND", "OR", "NOT", "NEAR", "NEAR(", "{", "}", "title:",
            "\u{0}", "\u{1}", "\\", "\u{FFFD}", "東", "é", "e\u{301}", "\u{202E}", "🙂", " ", "\t", "\n", "%", "_", "#",
            "1042-A", "OR(", "\"\"", "*:", "c++", "\u{D7FF}", "ﷺ", "ß",
        ]
        var generator = TestSupport.SeededGenerator(seed: 0x5EED_1042)
        for i in 0..<3000 {
            let count = Int.random(in: 1...8, using: &generator)
            let query = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(
                separator: i % 2 == 0 ? "" : " ")
            _ = try store.search(SearchRequest(query: query))
        }
        _ = try store.search(SearchRequest(query: String(repeating: "ab \"c* ", count: 1500)))
    }
}
