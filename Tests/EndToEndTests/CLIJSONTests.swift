import Foundation
import JSON
import TestSupport
import Testing

/// Every command's `--json` output is the pipe's `result` for the same request.
@Suite(.serialized) struct CLIJSONTests {
    let now = "2026-11-29T12:00:00Z"

    /// A command line and the pipe request it stands for.
    struct Step: CustomStringConvertible {
        var arguments: [String]
        var method: String
        var params: JSONValue
        var description: String { arguments.joined(separator: " ") }
    }

    static let steps: [Step] = [
        Step(
            arguments: ["ingest", TestSupport.repository + "/data/products.json"], method: "ingest",
            params: [
                "records": TestSupport.json(TestSupport.read(TestSupport.repository + "/data/products.json") ?? "[]")
            ]),
        Step(
            arguments: ["search", "tea", "--type", "product", "--limit", "3", "--explain", "--highlight"],
            method: "search",
            params: ["query": "tea", "type": "product", "limit": 3, "explain": true, "highlight": true]),
        Step(
            arguments: ["search", "tea", "--filter", "price lt 50"], method: "search",
            params: ["query": "tea", "filters": [["property": "price", "op": "lt", "value": 50]]]),
        Step(
            arguments: ["search", "t", "--facet", "tags", "--facet", "type", "--limit", "2"], method: "search",
            params: ["query": "t", "facets": ["tags", "type"], "limit": 2]),
        Step(
            arguments: ["query", "--type", "product", "--filter", "price lt 50", "--facet", "tags", "--limit", "1"],
            method: "query",
            params: [
                "type": "product", "filters": [["property": "price", "op": "lt", "value": 50]], "facets": ["tags"],
                "limit": 1,
            ]),
        Step(
            arguments: ["all", "--type", "product", "--facet", "price", "--limit", "1"], method: "all",
            params: ["type": "product", "facets": ["price"], "limit": 1]),
        Step(arguments: ["complete", "te"], method: "complete", params: ["prefix": "te"]),
        Step(
            arguments: ["get", "--type", "product", "p3", "missing", "p1"], method: "get",
            params: ["type": "product", "ids": ["p3", "missing", "p1"]]),
        Step(arguments: ["suggest", "--limit", "4"], method: "suggest", params: ["limit": 4]),
        Step(
            arguments: ["all", "--type", "product", "--limit", "5"], method: "all",
            params: ["type": "product", "limit": 5]),
        Step(
            arguments: ["all", "--type", "product", "--cursor", "p5"], method: "all",
            params: ["type": "product", "cursor": "p5"]),
        Step(
            arguments: ["query", "--type", "product", "--filter", "price ge 10", "--sort", "price:desc", "--or"],
            method: "query",
            params: [
                "type": "product", "filters": [["property": "price", "op": "ge", "value": 10]], "mode": "or",
                "sort": [["property": "price", "order": "desc"]],
            ]),
        Step(
            arguments: ["related", "--type", "product", "p1", "--direction", "both"], method: "related",
            params: ["type": "product", "id": "p1", "direction": "both"]),
        Step(
            arguments: ["donate", "--type", "product", "p2"], method: "donate", params: ["type": "product", "id": "p2"]),
        Step(
            arguments: ["reindex", "request", "--type", "product", "p1", "p2"], method: "reindex.request",
            params: ["type": "product", "ids": ["p1", "p2"]]),
        Step(arguments: ["reindex", "pending"], method: "reindex.pending", params: [:]),
        Step(arguments: ["reindex", "ack", "1"], method: "reindex.ack", params: ["requestId": 1]),
        Step(
            arguments: ["declare", "--type", "product", "price:number", "note:string:unsortable@contentDescription"],
            method: "declare",
            params: [
                "type": "product",
                "properties": [
                    ["name": "price", "kind": "number"],
                    ["name": "note", "kind": "string", "sortable": false, "indexingKey": "contentDescription"],
                ],
            ]),
        Step(arguments: ["declare"], method: "declarations", params: [:]),
        Step(arguments: ["state"], method: "state", params: [:]),
        Step(
            arguments: ["delete", "--type", "product", "p4"], method: "delete",
            params: ["type": "product", "ids": ["p4"]]),
        Step(arguments: ["stats"], method: "stats", params: [:]),
    ]

    /// Two databases get the same steps, one through the CLI and one through a pipe; every result must be equal.
    @Test func everyCommandsJSONIsThePipesResult() throws {
        let cliDB = TestSupport.temporaryDirectory() + "/index.sqlite"
        let pipeDB = TestSupport.temporaryDirectory() + "/index.sqlite"
        let pipe = try PipeProcess(db: pipeDB, now: now)
        defer { pipe.close() }
        var methods = Set<String>()
        for step in Self.steps {
            let cli = try Binary.run(["--db", cliDB, "--now", now] + step.arguments + ["--json"])
            #expect(cli.status == 0, "\(step): \(cli.stderr)")
            let (result, error) = pipe.call(step.method, step.params)
            #expect(error == nil, "\(step): \(error.map(JSONWriter.string) ?? "")")
            var expected = result ?? .null
            var actual = cli.json
            if step.method == "stats" {
                // The two databases differ by their path (and so may their size); the rest must agree.
                for key in ["path", "databaseBytes"] {
                    #expect(actual[key] != nil && expected[key] != nil, "stats has \(key)")
                    actual = actual.removing(key)
                    expected = expected.removing(key)
                }
            }
            #expect(
                actual == expected,
                "\(step)\n cli: \(cli.stdout.prefix(400))\npipe: \(JSONWriter.string(expected).prefix(400))")
            methods.insert(step.method)
        }
        // On one database, stats agree whole.
        let cliStats = try Binary.run(["--db", pipeDB, "--now", now, "stats", "--json"])
        #expect(cliStats.json == pipe.call("stats").result)
        #expect(methods.count == 17, "every method the CLI offers: \(methods.sorted())")
    }
}

extension JSONValue {
    func removing(_ key: String) -> JSONValue {
        guard var o = object else { return self }
        o[key] = nil
        return .object(o)
    }
}
