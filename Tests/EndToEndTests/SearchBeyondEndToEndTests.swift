import Foundation
import JSON
import TestSupport
import Testing

/// Search beyond the words as typed, through the command line, the pipe and MCP, on an index of real records
/// (Debian's packages, iso-codes' country names in their own scripts and Japan's prefectures in Japanese) beside a
/// coffee shop's menu and contacts: split and joined words, transliterated names and Japanese readings.
@Suite struct SearchBeyondEndToEndTests {
    /// Each query, the first results it must give (as `type/id`), and how they matched.
    static let cases: [(query: String, first: [String], matchedBy: JSONValue?)] = [
        ("oatmilk", ["menu/oat-cappuccino"], ["split"]),
        ("kaffee maschine", ["product/p-7"], ["joined"]),
        ("まっちゃ", ["menu/matcha-latte"], ["reading"]),
        ("matcha", ["menu/matcha-latte"], ["reading"]),
        ("smirnov", ["contact/smirnov"], ["transliteration"]),
        ("alexandros", ["contact/alexandros"], ["transliteration"]),
        ("germaniya", ["country/ru-DE"], ["transliteration"]),
        ("kagoshima", ["prefecture/JP-46"], ["reading"]),
        ("とうきょう", ["prefecture/JP-13"], ["reading"]),
        ("texteditor", ["package/nano-tiny"], ["split"]),
    ]

    /// The index, built by the command line as a user would: declarations, then one ingest of every file.
    static func index() throws -> String {
        let directory = TestSupport.temporaryDirectory()
        let db = directory + "/index.sqlite"
        let fixtures = TestSupport.repository + "/Tests/Fixtures/"
        var lines = (TestSupport.read(fixtures + "debian-sample.ndjson") ?? "").split(separator: "\n").map(String.init)
        lines += (TestSupport.read(fixtures + "iso-country-names.ndjson") ?? "").split(separator: "\n").map(String.init)
        for line in (TestSupport.read(fixtures + "japanese-prefectures.ndjson") ?? "").split(separator: "\n") {
            // Without the ISO name in Latin letters that the fixture keeps for the tests' answers.
            let record = TestSupport.json(String(line))
            lines.append(
                #"{"type": "prefecture", "id": "\#(record["id"]?.string ?? "")", "title": "\#(record["title"]?.string ?? "")"}"#
            )
        }
        lines += [
            #"{"type": "menu", "id": "oat-cappuccino", "title": "Oat Milk Cappuccino"}"#,
            #"{"type": "menu", "id": "matcha-latte", "title": "抹茶ラテ", "subtitle": "Hot or iced"}"#,
            #"{"type": "menu", "id": "flat-white", "title": "Flat White", "subtitle": "Whole milk"}"#,
            #"{"type": "product", "id": "p-7", "title": "Kaffeemaschine"}"#,
            #"{"type": "contact", "id": "smirnov", "title": "Смирнов Иван"}"#,
            #"{"type": "contact", "id": "alexandros", "title": "Αλέξανδρος Παπαδόπουλος"}"#,
        ]
        TestSupport.write(directory + "/records.ndjson", lines.joined(separator: "\n") + "\n")
        for type in ["contact", "country", "prefecture", "menu"] {
            let declared = try Binary.run(["--db", db, "declare", "--type", type, "--transliterate", "latin"])
            #expect(declared.status == 0, "\(declared.stderr)")
        }
        let ingest = try Binary.run(["--db", db, "ingest", directory + "/records.ndjson"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return db
    }

    static func keys(_ result: JSONValue?) -> [String] {
        (result?["entities"]?.array ?? []).map { "\($0["type"]?.string ?? "")/\($0["id"]?.string ?? "")" }
    }

    @Test func theCommandLineFindsEachCase() throws {
        let db = try Self.index()
        for c in Self.cases {
            let r = try Binary.run(["--db", db, "search", c.query, "--highlight", "--json"])
            #expect(r.status == 0, "\(c.query): \(r.stderr)")
            #expect(Array(Self.keys(r.json).prefix(c.first.count)) == c.first, "\(c.query): \(Self.keys(r.json))")
            #expect(r.json["entities"]?.array?.first?["matchedBy"] == c.matchedBy, "\(c.query)")
            #expect(r.json["entities"]?.array?.first?["highlights"]?.array?.isEmpty == false, "\(c.query)")
        }
        // The human output explains the tiers too.
        let explained = try Binary.run(["--db", db, "search", "oatmilk", "--explain"])
        #expect(explained.stdout.contains("oat milk"), "\(explained.stdout)")
    }

    @Test(arguments: ["pipe", "mcp"]) func thePipeAndMCPFindEachCase(command: String) throws {
        let p = try PipeProcess(db: try Self.index(), extra: [], command: command)
        for c in Self.cases {
            let params: JSONValue = ["query": .string(c.query), "highlight": true]
            let result =
                command == "mcp"
                ? p.call(
                    "tools/call",
                    ["name": "search_entities", "arguments": params, "_meta": ProtocolBoundsTests.meta]
                ).result?["structuredContent"]
                : p.call("search", params).result
            #expect(Array(Self.keys(result).prefix(c.first.count)) == c.first, "\(command) \(c.query)")
            #expect(result?["entities"]?.array?.first?["matchedBy"] == c.matchedBy, "\(command) \(c.query)")
        }
    }
}
