import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// Search returns the exact top k of every match under the documented tiers, however many match.
///
/// Random corpora (300 to 12,000 entities; many ties, old winners, new losers) are searched with 2,200 random
/// queries; each result list is compared with a brute-force ranking written here from the README's tiers over
/// every entity, on the stored normalized columns. A fifth of the queries ask for one type, a fifth for a union of
/// two, which ranks as if the index held those types alone.
@Suite struct ExactRankingTests {
    static let words = [
        "kettle", "kettlebell", "copper", "lamp", "lampshade", "blue", "bluebell", "mug", "cruz", "lara",
        "tea", "teapot", "set", "desk", "stand", "storm", "lantern", "gadget", "müller", "mueller",
        "café", "cafe", "hospital", "music", "musical", "intel", "ecm", "gmp",
    ]

    // MARK: - The corpus

    static func corpus(_ count: Int, seed: UInt64, words: [String] = words) -> [JSONValue] {
        var rng = TestSupport.SeededGenerator(seed: seed)
        func phrase(_ n: ClosedRange<Int>) -> String {
            (0..<Int.random(in: n, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
        }
        // A few titles shared by many entities, so that later tiers decide.
        let shared = (0..<6).map { _ in phrase(1...3) }
        return (0..<count).map { i in
            var fields: [(String, JSONValue)] = [
                ("type", .string(i % 7 == 0 ? "tool" : i % 11 == 0 ? "part" : "item")), ("id", .string("x\(i)")),
                (
                    "title",
                    .string(
                        Int.random(in: 0..<3, using: &rng) == 0 ? shared.randomElement(using: &rng)! : phrase(1...4))
                ),
            ]
            func maybe(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &rng) == 0 }
            if maybe(3) { fields.append(("subtitle", .string(phrase(1...3)))) }
            if maybe(3) { fields.append(("description", .string(phrase(2...8)))) }
            if maybe(4) { fields.append(("synonyms", .array([.string(phrase(1...2))]))) }
            if maybe(4) {
                fields.append(
                    ("keywords", .array((0..<Int.random(in: 1...3, using: &rng)).map { _ in .string(phrase(1...2)) })))
            }
            if maybe(5) { fields.append(("properties", .object(JSONObject([("label", .string(phrase(1...2)))])))) }
            if maybe(4) {
                fields.append(("rankingHint", .number(JSONNumber(Double(Int.random(in: 0...1000, using: &rng)) / 10))))
            }
            if maybe(6) { fields.append(("priority", JSONValue(Int.random(in: -40...40, using: &rng)))) }
            if maybe(6) {
                let day = Int.random(in: 1...28, using: &rng), hour = Int.random(in: 0...23, using: &rng)
                fields.append(
                    (
                        "lastUsedAt",
                        .string("2026-02-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):00:00Z")
                    ))
            }
            if maybe(20) { fields.append(("hidden", .bool(true))) }
            return .object(JSONObject(fields))
        }
    }

    // MARK: - The reference

    struct Entity {
        var rowid: Int64
        var key: String
        var type: String
        var hidden: Bool
        var columns: [[String]]
        var titlePlain: [String]
        var names: [[String]]
        var hint: Double
        var priority: Int64
        var lastUsed: Int64
    }

    /// Every entity, its columns derived again from its record as the text pipeline indexes them (the index keeps
    /// no copy of them).
    static func entities(_ store: EntityStore) throws -> [Entity] {
        let declarations = try store.allDeclarations(type: nil)
        return try store.db.rows(
            """
            SELECT e.rowid, e.type, e.id, e.hidden, e.record, e.ranking_hint, e.priority, e.last_used_at FROM entity e
            """
        ) { s in
            let record = s.record(4)
            let names = ((record["synonyms"]?.array ?? []) + (record["keywords"]?.array ?? [])).compactMap(\.string).map
            {
                TextAnalyzer.tokens($0).map(\.text)
            }
            guard case .success(let valid) = RecordValidator.validate(.object(record), position: 0) else {
                fatalError("a stored record does not validate")
            }
            let document = SearchDocument(valid, declarations: declarations[s.text(1)] ?? [:])
            func terms(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
            return Entity(
                rowid: s.int(0), key: s.text(1) + "/" + s.text(2), type: s.text(1), hidden: s.int(3) != 0,
                columns: document.columns.map(terms), titlePlain: terms(document.titlePlain), names: names,
                hint: s.optionalDouble(5) ?? 0, priority: s.optionalInt(6) ?? 0, lastUsed: s.optionalInt(7) ?? 0)
        }
    }

    /// The README's tiers, computed from scratch for query words of plain letters: each word matches a column that
    /// has it (the last one, while typing, as the start of a term), and ties break by rankingHint (in tenths),
    /// priority (clamped to ±31), the day of lastUsedAt, fewer title words, then the newer entity.
    static func reference(_ all: [Entity], words: [String], typing: Bool, types: [String], limit: Int) -> [String] {
        ranked(all, words: words, typing: typing, types: types).sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .prefix(limit).map(\.id)
    }

    /// Every match of `words` with its sort key (the tiers of `reference`), unsorted.
    static func ranked(_ all: [Entity], words: [String], typing: Bool, types: [String]) -> [(key: [Int64], id: String)]
    {
        let rank = [0, 1, 2, 3, 4, 0]
        func matches(_ word: String, _ terms: [String], last: Bool, whole: Bool = false) -> Bool {
            terms.contains { $0 == word || (last && typing && !whole && $0.hasPrefix(word)) }
        }
        var ranked: [(key: [Int64], id: String)] = []
        for e in all where !e.hidden && (types.isEmpty || types.contains(e.type)) {
            var attribute = 0
            var matchedAll = true
            for (i, w) in words.enumerated() {
                let best = (0..<6).filter { matches(w, e.columns[$0], last: i == words.count - 1) }.map { rank[$0] }
                    .min()
                guard let best else { matchedAll = false; break }
                attribute += best
            }
            guard matchedAll else { continue }
            let n = words.count
            let title = e.columns[0]
            let allInTitle = words.enumerated().allSatisfy { matches($1, title, last: $0 == n - 1) }
            let wholeInTitle = words.enumerated().allSatisfy { matches($1, title, last: $0 == n - 1, whole: true) }
            let head = e.titlePlain.count >= n && Array(e.titlePlain.prefix(n)) == words
            let typedHead =
                e.titlePlain.count >= n && Array(e.titlePlain.prefix(n - 1)) == Array(words.prefix(n - 1))
                && typing && e.titlePlain[n - 1].hasPrefix(words[n - 1])
            let exactness: Int
            if attribute == 0 {
                exactness =
                    e.titlePlain == words
                    ? 0 : wholeInTitle && head ? 1 : wholeInTitle ? 2 : allInTitle && (head || typedHead) ? 3 : 4
            } else {
                exactness = e.names.contains(words) ? 0 : 4
            }
            let apart = Self.apart(e, words: words, attribute: attribute, exactness: exactness) { i, token in
                token == words[i] || (typing && i == n - 1 && token.hasPrefix(words[i]))
            }
            let day = e.lastUsed >= 978_307_200_000 ? (e.lastUsed - 978_307_200_000) / 86_400_000 + 1 : 0
            ranked.append(
                (
                    [
                        Int64(attribute), Int64(exactness), apart, -Int64((e.hint * 10).rounded()),
                        -min(max(e.priority, -31), 31), -day,
                        Int64(min(e.titlePlain.count, 15)), -e.rowid,
                    ], e.key
                ))
        }
        return ranked
    }

    /// Adjacency, inside the title tier's `words` and `prefix` steps of a query of several words: 1 when no run of
    /// the title's tokens matches the words one by one in their order (`matches(i, token)`), else 0.
    static func apart(
        _ e: Entity, words: [String], attribute: Int, exactness: Int, matches: (Int, String) -> Bool
    ) -> Int64 {
        let n = words.count, tokens = e.titlePlain
        guard n > 1, attribute == 0, exactness == 2 || exactness == 4 else { return 0 }
        guard tokens.count >= n else { return 1 }
        let adjacent = (0...(tokens.count - n)).contains { s in (0..<n).allSatisfy { matches($0, tokens[s + $0]) } }
        return adjacent ? 0 : 1
    }

    static func results(_ store: EntityStore, _ query: String, types: [String] = [], limit: Int) throws -> [String] {
        try store.search(SearchRequest(query: query, types: types, limit: limit)).map { $0.key.type + "/" + $0.key.id }
    }

    // MARK: - Tests

    @Test(arguments: [(300, UInt64(1)), (800, 2), (2_000, 3), (5_000, 4), (12_000, 5)])
    func randomCorporaRankExactlyLikeTheReference(count: Int, seed: UInt64) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(Self.corpus(count, seed: seed))
        let all = try Self.entities(store)
        var rng = TestSupport.SeededGenerator(seed: seed &* 7919)
        let plain = Self.words.filter { $0.allSatisfy(\.isASCII) }
        var compared = 0
        for _ in 0..<(count >= 10_000 ? 200 : 500) {
            var words = (0..<Int.random(in: 1...3, using: &rng)).map { _ in plain.randomElement(using: &rng)! }
            let typing = Bool.random(using: &rng)
            if typing, Bool.random(using: &rng), let last = words.last, last.count > 1 {
                words[words.count - 1] = String(last.prefix(Int.random(in: 1..<last.count, using: &rng)))
            }
            let types = [["tool"], ["tool", "part"], [], [], []][Int.random(in: 0..<5, using: &rng)]
            let limit = [1, 3, 10, 20, 60].randomElement(using: &rng)!
            let query = words.joined(separator: " ") + (typing ? "" : " ")
            let expected = Self.reference(all, words: words, typing: typing, types: types, limit: limit)
            if expected.isEmpty {
                // Nothing matches as typed: the typo fallback may find entities, never with zero typos.
                let fallback = try store.search(SearchRequest(query: query, types: types, limit: limit, explain: true))
                #expect(fallback.allSatisfy { $0.explanation?["typos"] != JSONValue(0) }, "query \"\(query)\"")
                continue
            }
            let got = try Self.results(store, query, types: types, limit: limit)
            #expect(
                got == expected,
                "seed \(seed), query \"\(query)\", types \(types.isEmpty ? "any" : types.joined(separator: "+")), limit \(limit)"
            )
            if got != expected { return }
            compared += 1
        }
        #expect(compared > 100)
    }

    /// For any query (CJK, compounds, typos, ids), the first k results are the first k of the full ranking.
    @Test func theTopKIsThePrefixOfTheFullRanking() throws {
        let store = try TestSupport.store()
        var records = Self.corpus(1_500, seed: 11)
        let extra = [
            "东京塔 tour", "東京 station", "Müller-Lüdenscheidt GmbH", "e-mail kettle", "Order #1042-A", "iPhone 15 case",
            "ラーメン屋 blue", "kettle 1042a",
        ]
        for (i, title) in extra.enumerated() {
            for copy in 0..<40 {
                records.append(
                    TestSupport.record(
                        copy % 2 == 0 ? "item" : "tool", "z\(i)-\(copy)", title,
                        copy % 3 == 0 ? [("rankingHint", JSONValue(copy))] : []))
            }
        }
        _ = try store.ingest(records)
        let queries = [
            "东京", "東京", "京塔", "müller-lüdenscheidt", "mueller", "e-mail", "email", "1042-a", "#1042", "1042a",
            "iphone15",
            "らーめん", "kettel", "kettlle", "coper kettle", "lamp", "l", "k", "blue m", "cafe", "gadgte", "x12",
        ]
        for query in queries {
            let full = try Self.results(store, query, limit: 10_000)
            for limit in [1, 2, 5, 20, 50] {
                #expect(
                    try Self.results(store, query, limit: limit) == Array(full.prefix(limit)),
                    "query \"\(query)\", limit \(limit)")
            }
        }
    }

    // MARK: - The cases that a window of recent matches lost

    @Test(arguments: [60, 10_001])
    func anOlderWinnerOnEachTierBeatsManyNewerMatches(newer: Int) throws {
        func check(_ old: [JSONValue], _ crowd: (Int) -> JSONValue, _ query: String, first: String) throws {
            let store = try TestSupport.store()
            _ = try store.ingest(old)
            _ = try store.ingest((0..<newer).map(crowd))
            #expect(try Self.results(store, query, limit: 20).first == first, "\(query) with \(newer) newer matches")
        }
        // Exactness: the one title with the word whole, among prefix-only matches.
        try check(
            [TestSupport.record("pkg", "gmp-ecm", "gmp-ecm")],
            { TestSupport.record("pkg", "e\($0)", "python3-ecmwflibs\($0)") },
            "ecm", first: "pkg/gmp-ecm")
        // Field: a subtitle match among description-only matches.
        try check(
            [TestSupport.record("org", "h", "Saint Mary", [("subtitle", "Hospital")])],
            { TestSupport.record("org", "d\($0)", "Clinic \($0)", [("description", "next to the hospital")]) },
            "hospital", first: "org/h")
        // Field: a title match among keyword-only matches.
        try check(
            [TestSupport.record("pkg", "intel", "intel microcode")],
            { TestSupport.record("pkg", "k\($0)", "firmware \($0)", [("keywords", ["intel"])]) }, "intel",
            first: "pkg/intel")
        // Starts with: more than 20 titles start with the query; the best hint among them wins.
        try check(
            [TestSupport.record("org", "c9", "Cruz PLC", [("rankingHint", 90)])],
            { TestSupport.record("org", "c\($0 + 10)", "Cruz Trading \($0)") }, "cruz ", first: "org/c9")
        // rankingHint among hundreds of ties.
        try check(
            [TestSupport.record("mug", "best", "Blue mug", [("rankingHint", 100)])],
            { TestSupport.record("mug", "n\($0)", "Blue mug") }, "blue mu", first: "mug/best")
        // A keyword equal to the query before names that merely contain it.
        try check(
            [TestSupport.record("lang", "ar", "Arabic", [("synonyms", ["Arabisch"])])],
            {
                TestSupport.record(
                    "lang", "a\($0)", "Dialect \($0)", [("synonyms", .array([.string("Arabisch, Dialekt \($0)")]))])
            },
            "Arabisch", first: "lang/ar")
    }
}
