import Foundation
import JSON
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `entityidx test`: the sample expectations, exit statuses, the problems of a wrong file, each output format and
/// `--update`.
@Suite(.serialized) struct ExpectationsCLITests {
    let directory = TestSupport.temporaryDirectory()
    var db: String { directory + "/index.sqlite" }
    let now = "2026-11-20T10:00:00Z"
    static let sample = TestSupport.repository + "/data/expectations.json"
    static let records = ["customers.ndjson", "products.json", "orders.json"].flatMap {
        ["--records", TestSupport.repository + "/data/" + $0]
    }

    func run(_ args: [String]) throws -> Binary.Result {
        try Binary.run(["--now", now, "test"] + args)
    }

    /// A copy of the sample with `edit` applied to its text, in the test's directory.
    func sample(_ name: String, _ edit: (String) -> String = { $0 }) throws -> String {
        let path = directory + "/" + name
        try edit(TestSupport.read(Self.sample) ?? "").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The sample with Tokyo's two products swapped and a spoken case that expects an order it does not find.
    func failing() throws -> String {
        try sample("failing.json") {
            $0.replacingOccurrences(
                of: "\"top\": [\"product/p10\", \"product/p7\"]", with: "\"top\": [\"product/p7\", \"product/p10\"]"
            )
            .replacingOccurrences(of: "\"contains\": [\"order/3\"]", with: "\"contains\": [\"order/4\"]")
        }
    }

    @Test func theSampleHoldsOnItsRecordsAndOnTheIndex() throws {
        let r = try run([Self.sample] + Self.records)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasSuffix("11 cases: 11 passed, 0 failed\n"), "\(r.stdout)")
        try Binary.ingestSamples(into: db, now: now)
        let indexed = try run([Self.sample, "--db", db])
        #expect(indexed.status == 0, "\(indexed.stdout)\(indexed.stderr)")
    }

    @Test func aFailureShowsExpectedAgainstGotWithTiers() throws {
        let r = try run([try failing()] + Self.records)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let fail = try #require(lines.firstIndex { $0.hasPrefix("FAIL  Tokyo in Chinese") })
        #expect(lines[fail].hasSuffix("failing.json:22"), "the case's line: \(lines[fail])")
        #expect(lines[fail + 1].contains("top: expected first \"product/p7\", \"product/p10\", got \"product/p10\""))
        #expect(lines[fail + 2].contains("expected") && lines[fail + 2].contains("exactness"), "\(lines[fail + 2])")
        #expect(lines[fail + 3].contains("1≠") && lines[fail + 3].contains("product/p7   product/p10"))
        #expect(lines.contains { $0.contains("contains: \"order/4\" is not among the 10 results") })
        #expect(lines.last == "11 cases: 9 passed, 2 failed")
    }

    /// Each wrong file names its case (index and name) and field, and nothing runs: exit 2.
    @Test(arguments: [
        (#"[{"name": "n", "expect": {"empty": true}}]"#, "case 0 (\"n\"): has no request"),
        (
            #"[{"name": "n", "serch": {"query": "x"}, "expect": {"empty": true}}]"#,
            "case 0 (\"n\"): serch: unknown method"
        ),
        (
            #"[{"name": "n", "search": {"query": "x"}, "expect": {"tpo": []}}]"#,
            "case 0 (\"n\"): expect.tpo: unknown expectation"
        ),
        (
            #"[{"name": "n", "search": {"query": "x"}, "expect": {"top": ["order"]}}]"#,
            "expect.top[0]: malformed id \"order\""
        ),
        (
            #"[{"name": "n", "search": {"query": "x"}, "expect": {"rankAtMost": {"/1": 2}}}]"#,
            "expect.rankAtMost[\"/1\"]: malformed id"
        ),
        (
            #"[{"name": "n", "search": {"query": "x", "limt": 1}, "expect": {"empty": true}}]"#,
            "search: unknown parameter \"limt\""
        ),
        (
            #"[{"name": "n", "related": {"type": "order", "id": 1}, "expect": {"total": 1}}]"#,
            "expect.total: only a search"
        ),
        (#"[{"name": "n", "search": {"query": "x"}}]"#, "expect: is required"),
        (#"[{"search": {"query": "x"}, "expect": {"empty": true}}]"#, "case 0: name: is required"),
        (#"{"name": "n"}"#, "must be a JSON array of cases"),
        ("[{\"name\": \"n\",\n  \"search\": }]", "wrong.json:2: is not valid JSON"),
    ])
    func aWrongFileNamesCaseAndField(text: String, problem: String) throws {
        let path = directory + "/wrong.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try run([path] + Self.records)
        #expect(r.status == 2, "\(r.stdout)")
        #expect(r.stderr.contains(problem), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func anInvalidQueryIsWrongAndTheOtherCasesStillRun() throws {
        let path = directory + "/query.json"
        try #"""
        [{"name": "bad", "spotlight": {"query": "title == "}, "expect": {"empty": true}},
         {"name": "good", "search": {"query": "1042"}, "expect": {"top": ["order/1042"]}}]
        """#.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try run([path] + Self.records)
        #expect(r.status == 2)
        #expect(
            r.stdout.contains("WRONG  bad") && r.stdout.contains("invalid_query") && r.stdout.contains("PASS  good"))
    }

    @Test func aCaseOverItsTimeFailsAndTheRunGoesOn() throws {
        let r = try run([Self.sample, "--timeout", "0.000001"] + Self.records)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("timed_out") && r.stdout.hasSuffix("11 cases: 0 passed, 11 failed\n"))
    }

    @Test func jsonShape() throws {
        let r = try run([try failing(), "--format", "json"] + Self.records)
        #expect(r.status == 1)
        #expect(r.json["passed"] == 9 && r.json["failed"] == 2 && r.json["wrong"] == 0)
        let cases = r.json["cases"]?.array ?? []
        #expect(cases.count == 11)
        let tokyo = try #require(cases.first { $0["name"]?.string?.hasPrefix("Tokyo") ?? false })
        #expect(tokyo["status"] == "failed" && tokyo["line"] == 22 && tokyo["method"] == "search")
        #expect(tokyo["got"]?.array?.prefix(2).map { $0 } == ["product/p10", "product/p7"])
        #expect(tokyo["failures"]?.array?.first?["expectation"] == "top")
        #expect(tokyo["tiers"]?["product/p10"]?["exactness"] == "starts")
    }

    @Test func junitIsWellFormedWithAFailurePerFailedCase() throws {
        let path = try failing()
        let r = try run([path, "--format", "junit"] + Self.records)
        #expect(r.status == 1)
        #expect(r.stdout.contains("<testsuite name=\"\(path)\" file=\"\(path)\" "), "\(r.stdout)")
        #expect(!r.stdout.contains(" line=\""), "a testcase has no line in the JUnit XML schema")
        #expect(r.stdout.contains(">\(path):22&#10;top: expected first"), "a failure starts with FILE:LINE")
        #expect(r.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        let parser = XMLParser(data: Data(r.stdout.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.counts["testsuites"] == 1 && counter.counts["testsuite"] == 1)
        #expect(counter.counts["testcase"] == 11 && counter.counts["failure"] == 2)
        #expect(r.stdout.contains("tests=\"11\" failures=\"2\" errors=\"0\""))
    }

    @Test func tapVersion14() throws {
        let r = try run([try failing(), "--format", "tap"] + Self.records)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["TAP version 14", "1..11", "ok 1 - an order by its number"])
        let notOk = try #require(lines.firstIndex { $0 == "not ok 5 - Tokyo in Chinese finds the key ring first" })
        #expect(lines[notOk + 1] == "  ---" && lines[notOk + 2].hasPrefix("  message: \"top: expected first"))
        #expect(lines[(notOk + 1)...].contains("  ..."))
        #expect(lines.filter { $0.hasPrefix("not ok ") }.count == 2)
    }

    @Test func githubAnnotatesTheCaseLine() throws {
        let path = try failing()
        let r = try run([path, "--format", "github"] + Self.records)
        #expect(r.status == 1)
        let errors = r.stdout.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        #expect(errors.count == 2)
        #expect(
            errors.first?.hasPrefix(
                "::error file=\(path),line=22,title=entityidx test%3A Tokyo in Chinese finds the key ring first::top: expected first"
            ) ?? false, "\(errors)")
        #expect(errors.first?.contains("%0A") ?? false)
        #expect(r.stdout.hasSuffix("11 cases: 9 passed, 2 failed\n"))
        let wrong = directory + "/wrong.json"
        try "[\n {\"name\": \"n\",\n  \"serch\": {}, \"expect\": {\"empty\": true}}]".write(
            toFile: wrong, atomically: true, encoding: .utf8)
        let w = try run([wrong, "--format", "github"] + Self.records)
        #expect(
            w.status == 2 && w.stdout.hasPrefix("::error file=\(wrong),line=2,title=entityidx test::"), "\(w.stdout)")
    }

    @Test func updateRewritesTopsAndKeepsEveryOtherByte() throws {
        let original = try TestSupport.read(try failing()) ?? ""
        // An empty top takes the first results; odd spacing elsewhere stays as written.
        let edited = original.replacingOccurrences(of: "\"top\": [\"tea\"]", with: "\"top\": [ ]")
            .replacingOccurrences(
                of: "\"name\": \"an order by its number\",", with: "\"name\":   \"an order by its number\" ,")
        let path = directory + "/update.json"
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try run([path, "--update"] + Self.records)
        #expect(r.status == 1, "the contains that fails still fails: \(r.stdout)")
        #expect(
            r.stdout.contains(
                "update.json:22: case 4 (\"Tokyo in Chinese finds the key ring first\") top: [product/p7, product/p10] -> [product/p10, product/p7]"
            ))
        #expect(r.stdout.contains("top: [] -> [tea]"))
        #expect(r.stdout.contains("PASS  Tokyo in Chinese"))
        let expected = edited.replacingOccurrences(
            of: "\"top\": [\"product/p7\", \"product/p10\"]", with: "\"top\": [\"product/p10\", \"product/p7\"]"
        )
        .replacingOccurrences(of: "\"top\": [ ]", with: "\"top\": [\"tea\"]")
        #expect(TestSupport.read(path) == expected)
        let again = try run([path, "--update"] + Self.records)
        #expect(again.stdout.hasPrefix("\(path): every top holds, nothing to update\n"))
        #expect(TestSupport.read(path) == expected)
    }

    @Test func usageErrors() throws {
        #expect(try run([]).status == 64)
        #expect(
            try run([Self.sample, "--format", "xml"]).stderr.contains(
                "--format must be one of human, json, junit, tap, github"))
        #expect(try run([Self.sample, "--db", db] + Self.records).status == 64)
    }
}

/// Counts the elements of an XML document by name.
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[name, default: 0] += 1
    }
}
