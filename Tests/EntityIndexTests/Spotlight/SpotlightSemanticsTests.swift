import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Each operator, modifier, wildcard position, escape, alias and array rule of `spotlight`, with its result set.
@Suite struct SpotlightSemanticsTests {
    static let corpus = #"""
        {"type":"cafe","id":"c1","title":"Café Noir","properties":{"rating":1,"tags":["hot","Dark Roast"],"opened":"2026-01-15T08:00:00Z"}}
        {"type":"cafe","id":"c2","title":"cafe noir","properties":{"rating":2,"tags":["cold"],"opened":"2026-02-15T08:00:00Z"}}
        {"type":"cafe","id":"c3","title":"CAFÉ","properties":{"rating":3,"tags":[]}}
        {"type":"cafe","id":"c4","title":"CafeNoir","properties":{"rating":4.5,"open":true}}
        {"type":"cafe","id":"c5","title":"Le café du coin","properties":{"rating":5,"note":"a*b"}}
        {"type":"cafe","id":"c6","title":"it's \"quoted\"","properties":{"note":"back\\slash"}}
        """#

    static func store() throws -> EntityStore {
        let store = try TestSupport.store(now: "2026-03-04T15:30:00Z")
        _ = try store.ingest(corpus.split(separator: "\n").map { TestSupport.json(String($0)) })
        return store
    }

    static func ids(_ query: String, store: EntityStore? = nil) throws -> [String] {
        try (store ?? Self.store()).spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key.id).sorted()
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var query: String
        var expected: [String]
        init(_ query: String, _ expected: [String]) {
            self.query = query
            self.expected = expected
        }
        var testDescription: String { query }
    }

    @Test(arguments: [
        Case("rating == 2", ["c2"]), Case("rating = 2", ["c2"]), Case("rating != 2", ["c1", "c3", "c4", "c5"]),
        Case("rating < 3", ["c1", "c2"]), Case("rating <= 3", ["c1", "c2", "c3"]), Case("rating > 4", ["c4", "c5"]),
        Case("rating >= 4.5", ["c4", "c5"]), Case("InRange(rating, 2, 4.5)", ["c2", "c3", "c4"]),
        Case("rating == -1e3", []), Case("open == 1", ["c4"]),
        Case(#"title != "CAFÉ""#, ["c1", "c2", "c4", "c5", "c6"]),
        Case(#"rating == "2""#, []), Case(#"title == 3"#, []),
    ])
    func operators(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case(#"title == "Café Noir""#, ["c1"]),
        Case(#"title == "café noir"c"#, ["c1"]),
        Case(#"title == "Cafe Noir"d"#, ["c1"]),
        Case(#"title == "cafe noir"cd"#, ["c1", "c2"]),
        Case(#"title == "cafe noir"dc"#, ["c1", "c2"]),
        Case(#"title == "café"c"#, ["c3"]),
        Case(#"title == "cafe"cd"#, ["c3"]),
        Case(#"title == "Noir"w"#, ["c1", "c4"]),
        Case(#"title == "noir"wc"#, ["c1", "c2", "c4"]),
        Case(#"title == "cafe"wc"#, ["c2", "c4"]),
        Case(#"title == "cafe"cdw"#, ["c1", "c2", "c3", "c4", "c5"]),
        Case(#"title == "café du"cdw"#, ["c5"]),
        Case(#"title == "cafe noir"t"#, ["c1", "c2"]),
        Case(#"title == "CAFE"t"#, ["c1", "c2", "c3", "c5"]),
        Case(#"title == "caf*"t"#, ["c1", "c2", "c3", "c4", "c5"]),
        Case(#"title == "du coin"t"#, ["c5"]),
    ])
    func modifiers(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case(#"title == "Caf*""#, ["c1", "c4"]),
        Case(#"title == "*Noir""#, ["c1", "c4"]),
        Case(#"title == "C*r""#, ["c1", "c4"]),
        Case(#"title == "*af*""#, ["c1", "c2", "c4", "c5"]),
        Case(#"title == "*""#, ["c1", "c2", "c3", "c4", "c5", "c6"]),
        Case(#"title == "L*c*n""#, ["c5"]),
        Case(#"title == "**é**""#, ["c1", "c5"]),
        Case(#"title == "*noir"c"#, ["c1", "c2", "c4"]),
        Case(#"title == "c*o*"cd"#, ["c1", "c2", "c4"]),
        Case(#"title == "*noir"w"#, ["c2"]),
        Case(#"title == "No*"w"#, ["c1", "c4"]),
    ])
    func wildcards(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case(#"note == "a\*b""#, ["c5"]),
        Case(#"note == "a*b""#, ["c5"]),
        Case(#"note == "a\*""#, []),
        Case(#"note == "back\\slash""#, ["c6"]),
        Case(#"title == "it's \"quoted\"""#, ["c6"]),
        Case(#"title == 'it\'s "quoted"'"#, ["c6"]),
        Case(#"title == "\i\t\'s*""#, ["c6"]),
    ])
    func escapes(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case(#"tags == "hot""#, ["c1"]),
        Case(#"tags == "dark*"c"#, ["c1"]),
        Case(#"tags == "roast"wc"#, ["c1"]),
        Case(#"tags != "hot""#, ["c2"]),
        Case(#"tags != "nothing""#, ["c1", "c2"]),
    ])
    func arrays(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case(#"notAnAttribute == "x""#, []), Case(#"notAnAttribute != "x""#, []), Case("notAnAttribute > 1", []),
        Case(#"InRange(notAnAttribute, 1, 2)"#, []), Case(#"notAnAttribute == "*" || rating == 1"#, ["c1"]),
    ])
    func unknownAttributesMatchNothing(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    @Test(arguments: [
        Case("opened > $time.iso(2026-02-01)", ["c2"]),
        Case(#"opened < $time.iso("2026-02-01T00:00:00Z")"#, ["c1"]),
        Case("opened > $time.this_month(-1)", ["c2"]),
        Case("InRange(opened, $time.this_year, $time.now)", ["c1", "c2"]),
        Case("opened > 792748800", ["c2"]),  // 2026-02-14T08:00:00Z as seconds since 2001
        Case("opened == 792835200", ["c2"]),  // 2026-02-15T08:00:00Z
        Case("opened < $time.last_week", ["c1", "c2"]),
    ])
    func dates(_ c: Case) throws { #expect(try Self.ids(c.query) == c.expected) }

    /// `&&` binds tighter than `||`; parentheses change it.
    @Test func precedence() throws {
        let store = try Self.store()
        #expect(try Self.ids("rating == 1 || rating == 2 && rating == 3", store: store) == ["c1"])
        #expect(try Self.ids("(rating == 1 || rating == 2) && rating == 2", store: store) == ["c2"])
        #expect(try Self.ids("rating == 5 && rating == 5 || rating == 1", store: store) == ["c1", "c5"])
    }

    /// Each alias reads the record field the README's table names.
    @Test(
        arguments: [
            ("title", "Alias", true), ("displayName", "Alias", true), ("kMDItemTitle", "Alias", true),
            ("kMDItemDisplayName", "Alias", true), ("contentDescription", "Described", true),
            ("textContent", "Described", true),
            ("kMDItemTextContent", "Described", true), ("subtitle", "Sub", true), ("keywords", "kw2", true),
            ("kMDItemKeywords", "kw1", true), ("alternateNames", "Other name", true),
            ("contentType", "alias.kind", true),
            ("kMDItemContentType", "alias.kind", true), ("contentTypeTree", "alias", true),
            ("contentType", "alias", false),
            ("domainIdentifier", "shop", true), ("domainIdentifier", "shop.eu", true),
            ("domainIdentifier", "shop.e*", true),
            ("domainIdentifier", "sho", false), ("uniqueIdentifier", "A-1", true), ("uniqueIdentifier", "a-1", false),
            ("extra", "prop", true), ("Title", "Alias", false),
        ] as [(String, String, Bool)])
    func aliases(_ attribute: String, _ value: String, _ matches: Bool) throws {
        let store = try TestSupport.store(now: "2026-03-04T15:30:00Z")
        _ = try store.ingest([
            TestSupport.json(
                #"""
                {"type":"alias.kind","id":"A-1","title":"Alias","subtitle":"Sub","description":"Described","keywords":["kw1","kw2"],
                 "synonyms":["Other name"],"domain":"shop.eu","lastUsedAt":"2026-03-01T00:00:00Z","rankingHint":40,
                 "properties":{"extra":"prop"}}
                """#)
        ])
        #expect(try Self.ids("\(attribute) == \"\(value)\"", store: store) == (matches ? ["A-1"] : []))
    }

    @Test func aliasesOfNumbersAndDates() throws {
        let store = try TestSupport.store(now: "2026-03-04T15:30:00Z")
        _ = try store.ingest([
            TestSupport.json(
                #"{"type":"t","id":"1","title":"A","lastUsedAt":"2026-03-04T10:00:00Z","rankingHint":40,"expiresAt":"2026-03-10T00:00:00Z"}"#
            ),
            TestSupport.json(
                #"{"type":"t","id":"2","title":"B","lastUsedAt":"2026-02-01T10:00:00Z","rankingHint":90}"#),
        ])
        #expect(try Self.ids("lastUsedDate >= $time.today", store: store) == ["1"])
        #expect(try Self.ids("lastUsedDate != $time.iso(2026-02-01T10:00:00Z)", store: store) == ["1"])
        #expect(try Self.ids("rankingHint > 50", store: store) == ["2"])
        #expect(try Self.ids("InRange(rankingHint, 0, 40)", store: store) == ["1"])
        #expect(try Self.ids("expirationDate < $time.this_month(1)", store: store) == ["1"])
        #expect(try Self.ids("rankingHint > $time.now", store: store) == [])
    }

    @Test func fetchAttributesReturnOnlyThose() throws {
        let store = try Self.store()
        let results = try store.spotlight(
            SpotlightRequest(query: "rating == 1", fetchAttributes: ["displayName", "tags", "contentType", "missing"]))
        #expect(results.count == 1)
        #expect(
            results[0].record
                == JSONObject([
                    ("type", "cafe"), ("id", "c1"), ("displayName", "Café Noir"), ("tags", ["hot", "Dark Roast"]),
                    ("contentType", "cafe"),
                ]))
    }

    @Test func hiddenAreIncludedExpiredAreNotTypeAndLimitApply() throws {
        let store = try TestSupport.store(now: "2026-03-04T15:30:00Z")
        _ = try store.ingest([
            TestSupport.json(#"{"type":"a","id":"hidden","title":"X","hidden":true}"#),
            TestSupport.json(#"{"type":"a","id":"gone","title":"X","expiresAt":"2026-03-04T16:00:00Z"}"#),
            TestSupport.json(#"{"type":"b","id":"other","title":"X"}"#),
        ])
        store.operation.now = Timestamp.parse("2026-03-05T00:00:00Z")!
        #expect(try Self.ids(#"title == "X""#, store: store) == ["hidden", "other"])
        #expect(try store.spotlight(SpotlightRequest(query: #"title == "X""#, type: "b")).map(\.key.id) == ["other"])
        #expect(try store.spotlight(SpotlightRequest(query: #"title == "X""#, limit: 1)).map(\.key.id) == ["hidden"])
    }

    /// Values reach SQL only as bound parameters: SQL in a value is text to match.
    @Test func valuesAreNeverSQL() throws {
        let store = try Self.store()
        #expect(try Self.ids(#"title == "'; DROP TABLE entity; --" || note == "*') OR 1=1 --*""#, store: store) == [])
        #expect(try Self.ids(#"contentType == "x' OR '1'='1""#, store: store) == [])
        #expect(try Self.ids(#"title == "*""#, store: store).count == 6)
    }

    /// Updates and deletes keep `spotlight_key` in step with the entities.
    @Test func updatesAndDeletesAreSeen() throws {
        let store = try Self.store()
        _ = try store.ingest([TestSupport.json(#"{"type":"cafe","id":"c1","title":"Renamed"}"#)])
        #expect(try Self.ids(#"title == "Renamed""#, store: store) == ["c1"])
        #expect(try Self.ids(#"title == "Café Noir""#, store: store) == [])
        _ = try store.delete(DeleteRequest(type: "cafe", ids: ["c1"]))
        #expect(try Self.ids(#"title == "Renamed""#, store: store) == [])
        #expect(
            try store.db.scalar("SELECT count(*) FROM spotlight_key WHERE entity NOT IN (SELECT rowid FROM entity)")?
                .int == 0)
    }
}
