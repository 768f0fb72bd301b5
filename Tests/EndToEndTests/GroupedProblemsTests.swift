import Foundation
import JSON
import TestSupport
import Testing

/// One mistake in many records is printed once by `ingest` and `lint`, with its count and first records; `--json`
/// keeps every problem and finding.
@Suite(.serialized) struct GroupedProblemsTests {
    let directory = TestSupport.temporaryDirectory()
    var db: String { directory + "/index.sqlite" }

    func run(_ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", "2026-11-29T12:00:00Z"] + args, input: input)
    }

    /// `count` orders whose title is a number, but for record 7; records 3 and 9 also have an unknown field.
    func systematicMistake(_ count: Int) -> String {
        (1...count).map { i in
            let title = i == 7 ? "\"Order #7\"" : "\(i)"
            let colour = i == 3 || i == 9 ? ", \"colour\": \"red\"" : ""
            return "{\"type\": \"order\", \"id\": \(i), \"title\": \(title)\(colour)}"
        }.joined(separator: "\n") + "\n"
    }

    static let titleProblem = "field \"title\" must be a string, got a number"

    /// An index of one note, for `lint` (a reading command) to read.
    func ingestNote() throws {
        let r = try run(["ingest", "-"], input: "{\"type\": \"note\", \"id\": \"n1\", \"title\": \"Note\"}\n")
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func ingestPrintsARepeatedProblemOnce() throws {
        let input = systematicMistake(150)
        let refused = try run(["ingest", "-"], input: input)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                """
                error: 151 problems in the input; nothing was ingested:
                  149 records: \(Self.titleProblem)
                    record 1 (line 1) (order/1)
                    record 2 (line 2) (order/2)
                    record 3 (line 3) (order/3)
                    … and 146 more
                  record 3 (line 3) (order/3): field "colour" is not a record field
                """), "\(refused.stderr.prefix(600))")
        #expect(refused.stderr.contains("\n  record 9 (line 9) (order/9): field \"colour\""))
        #expect(refused.stderr.components(separatedBy: "must be a string").count == 2)

        // --json: the pipe's error, every listed record as it was.
        let json = try run(["ingest", "-", "--json"], input: input)
        let error = try JSONParser().parse(json.stderr)
        #expect(json.status == 1 && error["data"]?["records"]?.array?.count == 100)
        #expect(error["message"]?.string?.components(separatedBy: "must be a string").count == 99)

        let skipped = try run(["ingest", "-", "--skip-invalid"], input: input)
        #expect(skipped.status == 2 && skipped.stdout.contains("skipped 149"))
        #expect(
            skipped.stderr.hasPrefix(
                """
                skipped 149 records: \(Self.titleProblem)
                  record 1 (line 1) (order/1)
                  record 2 (line 2) (order/2)
                  record 3 (line 3) (order/3)
                  … and 146 more
                skipped record 3 (line 3) (order/3): field "colour"
                """), "\(skipped.stderr.prefix(600))")
        let all = try run(["ingest", "-", "--skip-invalid", "--json"], input: input)
        #expect(all.json["problems"]?.array?.count == 151 && all.json["skipped"] == JSONValue(149))
    }

    @Test func fewRepeatsAreListedAsTheyAre() throws {
        // Three titles and one colour, which the validator finds before the title of its record.
        let refused = try run(["ingest", "-"], input: systematicMistake(3))
        #expect(refused.status == 1)
        #expect(!refused.stderr.contains(" records: "))
        #expect(
            refused.stderr
                == """
                error: 4 problems in the input; nothing was ingested:
                  record 1 (line 1) (order/1): \(Self.titleProblem)
                  record 2 (line 2) (order/2): \(Self.titleProblem)
                  record 3 (line 3) (order/3): field "colour" is not a record field (known fields: description, domain, \
                expiresAt, hidden, id, image, keywords, lastUsedAt, priority, properties, rankingHint, related, subtitle, \
                synonyms, title, type, url)
                  record 3 (line 3) (order/3): \(Self.titleProblem)

                """)
        try ingestNote()
        let lint = try run(["lint", "-"], input: systematicMistake(3))
        #expect(lint.stdout.hasPrefix("invalid-record: 4 errors\n  record 1 (line 1) order/1: \(Self.titleProblem)"))
    }

    @Test func lintPrintsARepeatedFindingOnce() throws {
        let input = systematicMistake(150)
        try ingestNote()
        let human = try run(["lint", "-", "--strict"], input: input)
        #expect(human.status == 1)
        #expect(
            human.stdout.hasPrefix(
                """
                invalid-record: 151 errors
                  149 records: \(Self.titleProblem) (an ingest would reject the whole push)
                    record 1 (line 1) order/1
                    record 2 (line 2) order/2
                    record 3 (line 3) order/3
                    … and 146 more
                  record 3 (line 3) order/3: field "colour"
                """), "\(human.stdout.prefix(600))")
        #expect(
            human.stdout.hasSuffix("151 findings (151 errors, 0 warnings) in 150 records against 1 indexed entity\n"))

        let json = try run(["lint", "-", "--json"], input: input)
        let findings = json.json["findings"]?.array ?? []
        #expect(findings.count == 151)
        #expect(findings.filter { $0["field"] == "title" }.count == 149)
        #expect(findings.filter { $0["field"] == "colour" }.count == 2)
    }
}
