import EntityIndex
import JSON
import TestSupport
import Testing

/// The conformance strings of the reference (Apple's examples, in ASCII quotes), each with its expected result set.
@Suite struct SpotlightConformanceTests {
    /// Entities whose titles, authors, types and dates the examples talk about.
    static let corpus = #"""
        {"type":"doc","id":"paris","title":"Paris"}
        {"type":"doc","id":"paris-lower","title":"paris"}
        {"type":"doc","id":"love","title":"I love Paris"}
        {"type":"doc","id":"jpg","title":"paris-france.jpg"}
        {"type":"doc","id":"comparison","title":"Comparison"}
        {"type":"doc","id":"myclass","title":"MyWindowClass"}
        {"type":"doc","id":"broken","title":"Broken Window"}
        {"type":"doc","id":"nswindow","title":"NSWindow"}
        {"type":"doc","id":"parisol","title":"parisol"}
        {"type":"doc","id":"lyon","title":"Lyon map","description":"a city"}
        {"type":"doc","id":"trip","title":"Trip","description":"the trip to LYON"}
        {"type":"doc","id":"quote","title":"she said \"hi\" \\ bye"}
        {"type":"doc","id":"desc-foo","title":"D1","description":"The FOO bar"}
        {"type":"doc","id":"desc-food","title":"D2","description":"food"}
        {"type":"audio","id":"steve-song","title":"Track one","properties":{"authorNames":["Steve"],"completionDate":"2026-02-27T10:00:00Z"}}
        {"type":"audio","id":"accent","title":"Track two","properties":{"authorNames":["Frédéric"],"completionDate":"2026-02-05T10:00:00Z"}}
        {"type":"audio","id":"plain","title":"Track three","properties":{"authorNames":["Frederic"]}}
        {"type":"audio","id":"upper","title":"Track four","properties":{"authorNames":["FRÉDÉRIC"]}}
        {"type":"video","id":"tim","title":"Film one","properties":{"authorNames":["Tim Cook"],"completionDate":"2026-02-25T10:00:00Z"}}
        {"type":"video","id":"steve-film","title":"Film two","properties":{"authorNames":["Steve Jobs"],"completionDate":"2026-02-10T10:00:00Z"}}
        {"type":"image","id":"steve-photo","title":"Photo","properties":{"authorNames":["Steve"],"completionDate":"2026-02-28T10:00:00Z"}}
        {"type":"public.email-message","id":"re","title":"lunch plans","properties":{"subject":"Re: lunch"}}
        {"type":"public.email-message","id":"hello","title":"Hello","properties":{"subject":"Hello"}}
        {"type":"public.email-message","id":"nosubject","title":"No subject"}
        {"type":"public.image","id":"image","title":"An image"}
        {"type":"public.image.jpeg","id":"jpeg","title":"A JPEG"}
        {"type":"public.imagery","id":"imagery","title":"Imagery"}
        {"type":"doc","id":"bundle","title":"lunch menu","properties":{"bundleID":"com.example.app"}}
        {"type":"doc","id":"md-steve","title":"MD","properties":{"kMDItemAuthors":["steve"]}}
        {"type":"audio","id":"md-kevin","title":"MD audio","properties":{"kMDItemAuthors":["Kevin"]}}
        """#

    static func store() throws -> EntityStore {
        let store = try TestSupport.store(now: "2026-03-02T09:00:00Z")
        _ = try store.ingest(corpus.split(separator: "\n").map { TestSupport.json(String($0)) })
        return store
    }

    static func ids(_ store: EntityStore, _ query: String) throws -> Set<String> {
        Set(try store.spotlight(SpotlightRequest(query: query, limit: 1000)).map(\.key.id))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var number: Int
        var query: String
        var expected: Set<String>
        var testDescription: String { "#\(number) \(query)" }
    }

    static let cases: [Case] = [
        Case(number: 1, query: #"title == "Paris""#, expected: ["paris"]),
        Case(number: 2, query: #"title == "Paris"c"#, expected: ["paris", "paris-lower"]),
        Case(number: 3, query: #"title == "Paris"wc"#, expected: ["paris", "paris-lower", "love", "jpg"]),
        Case(number: 4, query: #"title == "Window"w"#, expected: ["myclass", "broken"]),
        Case(number: 5, query: #"authorNames == "Frédéric""#, expected: ["accent"]),
        Case(number: 6, query: #"authorNames == "Frédéric"cd"#, expected: ["accent", "plain", "upper"]),
        Case(number: 7, query: #"title == "paris*""#, expected: ["paris-lower", "jpg", "parisol"]),
        Case(number: 8, query: #"title == "*paris""#, expected: ["paris-lower"]),
        Case(number: 9, query: #"title == "*paris*""#, expected: ["paris-lower", "jpg", "parisol", "comparison"]),
        Case(number: 10, query: "title == 'paris'", expected: ["paris-lower"]),
        Case(number: 11, query: #"authorNames == "Steve"wc && contentType == "audio"wc"#, expected: ["steve-song"]),
        Case(
            number: 12, query: #"authorNames == "Steve"wc && (contentType == "audio"wc || contentType == "video"wc)"#,
            expected: ["steve-song", "steve-film"]),
        Case(
            number: 13,
            query:
                #"(authorNames == "Tim"wc || authorNames == "Steve"wc) && InRange(completionDate,$time.today(-10),$time.today)"#,
            expected: ["tim", "steve-song", "steve-photo"]),
        Case(number: 14, query: "title == 'Par*'c", expected: ["paris", "paris-lower", "jpg", "parisol"]),
        Case(number: 15, query: #"contentType == "public.email-message" && subject != "Re:*""#, expected: ["hello"]),
        Case(number: 16, query: #"contentTypeTree="public.image""#, expected: ["image", "jpeg"]),
        Case(number: 17, query: #"contentDescription == "*foo*"c"#, expected: ["desc-foo", "desc-food"]),
        Case(number: 18, query: #"(title == "*lyon*"cd) || (textContent == "*lyon*"cd)"#, expected: ["lyon", "trip"]),
        Case(number: 19, query: #"title == "*lyon*"c || textContent == "*lyon*"c"#, expected: ["lyon", "trip"]),
        Case(
            number: 20,
            query: #"""
                (contentType == "public.email-message" || bundleID == "com.example.app" || _kMDItemBundleID == "com.example.app") && (title == "*lunch*" || kMDItemDisplayName == "*lunch*" || _kMDItemSnippet == "*lunch*")
                """#, expected: ["re", "bundle"]),
        // Row 20's escaping of the user's text: \ becomes \\ and " becomes \".
        Case(number: 20, query: #"title == "*said \"hi\" \\ bye*""#, expected: ["quote"]),
        Case(number: 21, query: #"kMDItemAuthors ==[c] "Steve""#, expected: ["md-steve"]),
        Case(
            number: 22,
            query:
                #"(kMDItemAuthors == "Kevin"wc || kMDItemAuthors == "Steve"wc) && (kMDItemContentType == "audio"wc || kMDItemContentType == "video"wc)"#,
            expected: ["md-kevin"]),
    ]

    @Test(arguments: cases) func conformance(_ c: Case) throws {
        #expect(try Self.ids(Self.store(), c.query) == c.expected)
    }

    /// Apple's page prints example 11 with a stray closing quote after `wc`: that text is not a valid query.
    @Test func theExampleWithAStrayQuoteIsAnInvalidQuery() throws {
        let query = "authorNames == \"Steve\"wc && contentType == \"audio\"wc\u{2019}"
        let store = try Self.store()
        let error = try #require(throws: EntityIndexError.self) { try store.spotlight(SpotlightRequest(query: query)) }
        #expect(error.code == .invalidQuery)
        #expect(error.position == 53)
        #expect(
            error.message == "invalid query at character 53: expected &&, || or the end of the query, found '\u{2019}'")
    }
}
