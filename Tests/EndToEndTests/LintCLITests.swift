import Foundation
import JSON
import TestSupport
import Testing

/// `entityidx lint` and `entityidx drill` on the sample data, as the README's "Before you ship" runs them.
@Suite(.serialized) struct LintCLITests {
    let directory = TestSupport.temporaryDirectory()
    var db: String { directory + "/index.sqlite" }
    let now = "2026-11-29T12:00:00Z"
    let examples = TestSupport.repository + "/data/lint-examples.ndjson"

    func run(_ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func ingestSamples() throws { try Binary.ingestSamples(into: db, now: now) }

    /// The value without the `line` of each finding's record (a pipe request has no lines).
    func withoutLines(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let o):
            return .object(
                JSONObject(o.filter { $0.key != "line" }.map { (key: $0.key, value: withoutLines($0.value)) }))
        case .array(let items): return .array(items.map(withoutLines))
        default: return value
        }
    }

    @Test func cleanSampleDataHasNoFindings() throws {
        try ingestSamples()
        for args in [["lint"], ["lint", TestSupport.repository + "/data/orders.json"], ["lint", "--strict"]] {
            let r = try run(args)
            #expect(r.status == 0 && r.stdout.hasPrefix("no findings"), "\(args): \(r.stdout.prefix(400))")
        }
        let piped = try run(
            ["lint", "-", "--json"], input: TestSupport.read(TestSupport.repository + "/data/customers.ndjson") ?? "")
        #expect(piped.json["findings"] == .array([]) && piped.json["records"] == JSONValue(20))
    }

    @Test func theExamplesTriggerEachCode() throws {
        try ingestSamples()
        let r = try run(["lint", examples, "--json"])
        #expect(r.status == 0, "without --strict findings do not fail: \(r.stderr)")
        let counts = r.json["counts"]?.object ?? JSONObject()
        for code in [
            "invalid-record", "duplicate-key", "id-changed", "type-renamed", "duplicate-content", "too-large",
            "weak-display", "unreachable", "broken-link", "domain-overlap", "mixed-kinds",
        ] {
            #expect((counts[code]?.number?.int ?? 0) >= 1, "\(code): \(counts)")
        }
        let first = r.json["findings"]?.array?.first
        #expect(first?["record"] == ["position": 9, "line": 9, "type": "order", "id": "1302"])
        #expect(first?["severity"] == "error")

        let strict = try run(["lint", examples, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("id-changed: 1 error\n  record 1 (line 1) customer/cust-1: is a new id"))
        #expect(strict.stdout.contains("unreachable: 1 warning\n  indexed order/1013: is hidden"))
        #expect(strict.stdout.contains("in 12 records against 365 indexed entities"))
        #expect(
            strict.stdout.contains(
                "duplicate-key: 1 error\n  record 11 (line 11) order/1303 (first: line 10): has the type and id of record 10 of"
            ))
        #expect(
            strict.stdout.contains(
                "broken-link: 1 warning\n  record 11 (line 11) order/1303: names product/p99 in related[1]"))
        let findings = r.json["findings"]?.array ?? []
        let repeated = findings.first { $0["code"] == "duplicate-key" }
        #expect(repeated?["first"] == ["position": 10, "line": 10, "type": "order", "id": "1303"])
        let broken = findings.first { $0["code"] == "broken-link" }
        #expect(broken?["field"] == "related[1]" && broken?["others"] == [["type": "product", "id": "p99"]])

        // Twenty-five days on, the sample data's month is nearly over: everything not pushed since will expire.
        let later = try Binary.run(["--db", db, "--now", "2026-12-24T12:00:00Z", "lint", "--json"])
        #expect(later.json["counts"]?["will-expire"] == JSONValue(365))
    }

    /// The case: customers deleted, and the orders still point at them. The whole-index lint finds every
    /// such order, and `related` names what it left out.
    @Test func deletedTargetsAreBrokenLinks() throws {
        try ingestSamples()
        let orders = TestSupport.json(TestSupport.read(TestSupport.repository + "/data/orders.json") ?? "").array ?? []
        let linking = orders.filter { ($0["related"]?.array ?? []).contains(["type": "customer", "id": "c18"]) }
        #expect(linking.count > 3)
        #expect(try run(["delete", "--type", "customer", "c18"]).status == 0)

        let r = try run(["lint", "--json"])
        #expect(r.json["counts"]?["broken-link"] == JSONValue(linking.count))
        let first = r.json["findings"]?.array?.first { $0["code"] == "broken-link" }
        #expect(first?["record"]?["indexed"] == true && first?["others"] == [["type": "customer", "id": "c18"]])
        let human = try run(["lint", "--strict"])
        #expect(human.status == 1)
        #expect(
            human.stdout.contains(
                "broken-link: \(linking.count) warnings\n  \(linking.count) records: names customer/c18 in related[0], which is not in the index"
            ), "one line for the one missing customer: \(human.stdout.prefix(600))")
        #expect(human.stdout.contains("\n    … and \(linking.count - 3) more\n"))

        let id = linking[0]["id"]?.number?.text ?? linking[0]["id"]?.string ?? ""
        let related = try run(["related", "--type", "order", id, "--json"])
        #expect(related.json["missing"] == [["type": "customer", "id": "c18"]])
        let shown = try run(["related", "--type", "order", id])
        #expect(shown.status == 0 && shown.stderr.contains("not in the index: customer/c18"))
        let intact = try run(["related", "--type", "order", "1042", "--json"])
        #expect(intact.json["missing"] == nil, "missing is there only when something is")

        let pipe = try PipeProcess(db: db, now: now)
        defer { pipe.close() }
        #expect(pipe.call("related", ["type": "order", "id": .string(id)]).result == related.json)
        #expect(pipe.call("lint", [:]).result == r.json)
        #expect(pipe.schemaProblems().isEmpty, "\(pipe.schemaProblems().prefix(5))")
    }

    @Test func jsonIsThePipesResult() throws {
        try ingestSamples()
        let cli = try run(["lint", examples, "--json"])
        let records = (TestSupport.read(examples) ?? "").split(separator: "\n").map { TestSupport.json(String($0)) }
        let pipe = try PipeProcess(db: db, now: now)
        defer { pipe.close() }
        let (result, error) = pipe.call("lint", ["records": .array(records)])
        #expect(error == nil)
        #expect(result.map(withoutLines) == withoutLines(cli.json))
        let whole = pipe.call("lint", [:]).result
        #expect(whole == (try run(["lint", "--json"])).json)
        _ = pipe.call("drill", ["records": .array(records.filter { $0["colour"] == nil })])
        #expect(
            pipe.call("drill", ["records": [["type": "a", "id": 1, "title": "A", "colour": "red"]]]).error?["data"]?[
                "code"]
                == "invalid_record")
        #expect(pipe.schemaProblems().isEmpty, "\(pipe.schemaProblems().prefix(5))")
    }

    @Test func drillReportsWhatTheRestoreLosesAndChanges() throws {
        try ingestSamples()
        var lines: [String] = []
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let text = TestSupport.read(TestSupport.repository + "/data/" + file) ?? ""
            let records =
                file.hasSuffix(".ndjson")
                ? text.split(separator: "\n").map { TestSupport.json(String($0)) } : TestSupport.json(text).array ?? []
            for record in records {
                guard case .object(var o) = record else { continue }
                let id = o["id"]?.string ?? o["id"]?.number?.text ?? ""
                if ["c20", "p26", "1299"].contains(id) { continue }
                if id == "c1" { o["subtitle"] = "Cambridge" }
                if id == "1042" { o["rankingHint"] = 1 }
                lines.append(JSONWriter.string(.object(o)))
            }
        }
        let restore = directory + "/restore.ndjson"
        TestSupport.write(restore, lines.joined(separator: "\n") + "\n")
        let r = try run(["drill", "--restore", restore, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.json["missing"] == [
                ["type": "customer", "id": "c20"], ["type": "order", "id": "1299"], ["type": "product", "id": "p26"],
            ])
        #expect(
            r.json["changed"]?.array?.map { [$0["id"], $0["fields"]] } == [
                ["c1", ["subtitle"]], ["1042", ["rankingHint"]],
            ])
        #expect(r.json["new"] == [] && r.json["restored"] == JSONValue(360) && r.json["complete"] == false)

        let human = try run(["drill", "--restore", "-", "--strict"], input: lines.joined(separator: "\n"))
        #expect(human.status == 1)
        #expect(human.stdout.contains("missing   3\n  customer/c20\n  order/1299\n  product/p26\n"))
        #expect(human.stdout.contains("changed   2\n  record 1 (line 1) customer/c1: subtitle\n"))

        // The README's example: a reindex of the customers that skips three, changes two and adds one.
        let customers = try run([
            "drill", "--restore", TestSupport.repository + "/data/reindex-example.ndjson", "--type", "customer",
            "--json",
        ])
        #expect(customers.json["indexed"] == JSONValue(20) && customers.json["restored"] == JSONValue(15))
        #expect(customers.json["missing"]?.array?.compactMap { $0["id"]?.string } == ["c13", "c20", "c7"])
        #expect(
            customers.json["changed"]?.array?.map { [$0["id"], $0["fields"]] } == [
                ["c1", ["subtitle"]], ["c9", ["rankingHint"]],
            ])
        #expect(customers.json["new"]?.array?.compactMap { $0["id"]?.string } == ["c21"])

        #expect(try run(["drill"]).status == 64)
        #expect(try run(["drill", "--restore", restore, "--type", "9x"]).status == 64)
        #expect(try run(["drill", "--restore", directory + "/absent.json"]).status == 1)
        #expect(try run(["lint", "a", "b"]).status == 64)
        #expect(try run(["lint", "--within", "soon"]).status == 64)
    }

    /// Debian's packages (Tests/Fixtures/debian-sample.ndjson) hold numbers, strings and lists, some properties
    /// left out: none holds values of two kinds, so `mixed-kinds` finds nothing, in the index or in a push.
    @Test func debiansPackagesHaveNoMixedKinds() throws {
        let packages = TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson"
        #expect(try run(["ingest", packages]).status == 0)
        for arguments in [["lint", "--json"], ["lint", packages, "--json"]] {
            let lint = try run(arguments)
            #expect(lint.status == 0, "\(lint.stderr)")
            #expect(lint.json["findings"]?.array != nil)
            #expect(lint.json["counts"]?["mixed-kinds"] == 0, "\(arguments)")
            #expect(lint.json["findings"]?.array?.contains { $0["code"] == "mixed-kinds" } == false)
        }
    }
}
