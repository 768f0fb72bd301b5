import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Random queries over random small corpora: what `spotlight` answers equals what a brute-force reference finds by
/// running the matcher on every value of every record, whichever index gave the candidates.
@Suite struct SpotlightPropertyTests {
    /// Pieces of values: accents (composed and not), case foldings that change length (ß, İ, ligatures), camel case,
    /// digits, punctuation, CJK, Cyrillic and Greek.
    static let pieces = [
        "Café", "cafe", "CAFÉ", "cafe\u{301}", "noir", "Noir", "Straße", "strasse", "STRASSE", "İstanbul", "istanbul",
        "ﬁne", "fine", "MyWindowClass", "NSWindow", "window", "a2bWindow", "iPhone15Pro", "K83913.39F29", "1,299.00",
        "don't", "x_y", "e-mail", "東京", "タワー", "Йод", "иод", "ΣΊΣΥΦΟΣ", "Ålesund", "ÅL", "über", "Uber", "the",
        "lib", "libfoo-dev", "python3", "a*b", "Re:", "—", "", "  ",
    ]

    static func value(_ rng: inout TestSupport.SeededGenerator) -> String {
        let count = Int.random(in: 1...4, using: &rng)
        let separators = [" ", " ", "-", "", ".", ", ", "_"]
        return (0..<count).map { _ in pieces.randomElement(using: &rng)! }
            .joined(separator: separators.randomElement(using: &rng)!)
    }

    static let attributes = ["title", "subtitle", "description", "keywords", "synonyms", "@city", "@tags"]

    static func record(_ i: Int, _ rng: inout TestSupport.SeededGenerator) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        var title = value(&rng)
        if title.allSatisfy(\.isWhitespace) { title = "t\(i)" }
        if Bool.random(using: &rng) { fields.append(("subtitle", .string(value(&rng)))) }
        if Bool.random(using: &rng) {
            fields.append(
                (
                    "description",
                    .string((0..<Int.random(in: 1...6, using: &rng)).map { _ in value(&rng) }.joined(separator: " "))
                ))
        }
        for name in ["keywords", "synonyms"] where Bool.random(using: &rng) {
            fields.append((name, .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .string(value(&rng)) })))
        }
        var properties: [(String, JSONValue)] = []
        if Bool.random(using: &rng) { properties.append(("city", .string(value(&rng)))) }
        if Bool.random(using: &rng) {
            properties.append(
                ("tags", .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .string(value(&rng)) })))
        }
        if !properties.isEmpty {
            fields.append(("properties", .object(JSONObject(properties.map { (key: $0.0, value: $0.1) }))))
        }
        return TestSupport.record("thing", "\(i)", title, fields)
    }

    /// A pattern from a piece of some value: whole, a prefix, a suffix or a middle, perhaps in other case or without
    /// accents, with a form and modifiers.
    static func query(_ records: [JSONObject], _ rng: inout TestSupport.SeededGenerator) -> (
        String, SpotlightPattern, SpotlightModifiers, Bool, String
    ) {
        let key = attributes.randomElement(using: &rng)!
        let values = records.flatMap { SpotlightValues.values($0, key: key) }
        var text = Array(values.randomElement(using: &rng) ?? pieces.randomElement(using: &rng)!)
        if text.count > 2, Bool.random(using: &rng) {
            let from = Int.random(in: 0..<text.count, using: &rng)
            let to = Int.random(in: from...text.count, using: &rng)
            text = Array(text[from..<to])
        }
        var literal = String(text)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: literal = literal.uppercased()
        case 1: literal = literal.lowercased()
        case 2: literal = SpotlightFold.key(literal)
        default: break
        }
        if literal.isEmpty { literal = pieces.randomElement(using: &rng)! }
        let parts: [SpotlightPattern.Part]
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: parts = [.literal(literal), .wildcard]
        case 1: parts = [.wildcard, .literal(literal)]
        case 2: parts = [.wildcard, .literal(literal), .wildcard]
        case 3:
            let cut = literal.index(literal.startIndex, offsetBy: literal.count / 2)
            parts = [.literal(String(literal[..<cut])), .wildcard, .literal(String(literal[cut...]))]
        default: parts = [.literal(literal)]
        }
        let pattern = SpotlightPattern(parts)
        let modifiers = SpotlightModifiers(rawValue: [0, 1, 2, 3, 4, 5, 7, 8, 9, 6].randomElement(using: &rng)!)
        let negated = Int.random(in: 0..<5, using: &rng) == 0
        let name =
            key.hasPrefix("@")
            ? String(key.dropFirst())
            : ["description": "textContent", "synonyms": "alternateNames"][key] ?? key
        let letters = SpotlightModifiers.letters.filter { modifiers.contains($0.1) }.map { String($0.0) }.joined()
        let query = "\(name) \(negated ? "!=" : "==") \"\(pattern)\"\(letters)"
        return (query, pattern, modifiers, negated, key)
    }

    @Test(arguments: 0..<12)
    func answersEqualTheReference(_ seed: Int) throws {
        var rng = TestSupport.SeededGenerator(seed: UInt64(seed))
        let store = try TestSupport.store()
        let inputs = (0..<Int.random(in: 5...40, using: &rng)).map { Self.record($0, &rng) }
        _ = try store.ingest(inputs)
        let records = inputs.compactMap(\.object)
        for _ in 0..<150 {
            let (query, pattern, modifiers, negated, key) = Self.query(records, &rng)
            let matcher = SpotlightMatcher(pattern, modifiers: modifiers)
            let reference = records.filter { record in
                let values = SpotlightValues.values(record, key: key)
                guard !values.isEmpty else { return false }
                return values.contains(where: matcher.matches) != negated
            }.compactMap { $0["id"]?.string }.sorted()
            // Behind a driving term, the predicate is checked per entity.
            let driven = Bool.random(using: &rng) ? #"title == "*" && "# + query : query
            let got = try store.spotlight(SpotlightRequest(query: driven, limit: 1000)).map(\.key.id).sorted()
            #expect(got == reference, "seed \(seed): \(driven)")
        }
    }

    /// The vocabulary's copy in memory follows writes of this store and of another one on the same file.
    @Test func wordsWrittenLaterAreFound() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("thing", "1", "Plain")])
        #expect(try store.spotlight(SpotlightRequest(query: #"title == "*ebr*"c"#)).isEmpty)
        _ = try store.ingest([TestSupport.record("thing", "2", "Zebra crossing")])
        #expect(try store.spotlight(SpotlightRequest(query: #"title == "*ebr*"c"#)).map(\.key.id) == ["2"])
        let other = try EntityStore(path: store.path, now: store.now)
        _ = try other.ingest([TestSupport.record("thing", "3", "Celebrate", [("subtitle", "MyZebra")])])
        #expect(try store.spotlight(SpotlightRequest(query: #"title == "*ebr*"c"#)).map(\.key.id) == ["2", "3"])
        #expect(try store.spotlight(SpotlightRequest(query: #"subtitle == "zebra"wc"#)).map(\.key.id) == ["3"])
    }
}
