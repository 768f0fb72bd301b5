import Foundation
import JSON
import TestSupport
import Testing

/// A repeated `--type` is a union, and `--fields` keeps some fields of each entity: through the CLI, the same as
/// the pipe's `"type": [...]` and `"fields": [...]`.
@Suite(.serialized) struct TypeUnionEndToEndTests {
    let now = "2026-11-29T12:00:00Z"

    func run(_ db: String, _ args: [String], input: String = "") throws -> Binary.Result {
        try Binary.run(["--db", db, "--now", now] + args, input: input)
    }

    func samples() throws -> String {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: now)
        return db
    }

    /// The pipe's result for one request.
    func pipe(_ db: String, _ method: String, _ params: JSONValue) throws -> JSONValue {
        let request = JSONWriter.string(
            .object(JSONObject([("jsonrpc", "2.0"), ("id", 1), ("method", .string(method)), ("params", params)])))
        let r = try run(db, ["pipe"], input: request + "\n")
        return r.json["result"] ?? r.json
    }

    static func types(_ result: JSONValue, _ key: String = "entities") -> Set<String> {
        Set((result[key]?.array ?? []).compactMap { $0["type"]?.string })
    }

    @Test func aRepeatedTypeIsAUnionAsInThePipe() throws {
        let db = try samples()
        let union: JSONValue = ["order", "product"]
        let cases: [([String], String, JSONValue)] = [
            (["search", "cafe", "--limit", "50"], "search", ["query": "cafe", "type": union, "limit": 50]),
            (["suggest", "--limit", "400"], "suggest", ["type": union, "limit": 400]),
            (["all", "--limit", "400"], "all", ["type": union, "limit": 400]),
            (
                ["query", "--filter", "status eq shipped"], "query",
                ["type": union, "filters": [["property": "status", "op": "eq", "value": "shipped"]]]
            ),
            (
                ["spotlight", "title == \"*e*\"c", "--limit", "400"], "spotlight",
                ["query": "title == \"*e*\"c", "type": union, "limit": 400]
            ),
        ]
        for (args, method, params) in cases {
            let cli = try run(db, args + ["--type", "order", "--type", "product", "--json"])
            #expect(cli.status == 0, "\(args): \(cli.stderr)")
            #expect(cli.json == (try pipe(db, method, params)), "\(args)")
            let expected: Set<String> = method == "query" ? ["order"] : ["order", "product"]
            #expect(Self.types(cli.json) == expected, "\(args)")
        }
        // A union lists type by type; its cursor names the type.
        let page = try run(db, ["all", "--type", "product", "--type", "customer", "--limit", "25", "--json"])
        #expect(page.json["nextCursor"] == "product/p13", "20 customers, then products by id")
        let next = try run(
            db,
            ["all", "--type", "product", "--type", "customer", "--limit", "25", "--cursor", "product/p13", "--json"])
        #expect(next.json["entities"]?.array?.count == 21 && next.json["nextCursor"] == nil)
        // An unknown type among several is named, with a suggestion.
        let typo = try run(db, ["search", "cafe", "--type", "order", "--type", "prodcut"])
        #expect(typo.status == 1)
        #expect(
            typo.stderr
                == "error: unknown type \"prodcut\"; did you mean \"product\"? (the index has: customer, order, product)\n"
        )
        let deleted = try run(db, ["delete", "--type", "order", "--type", "customer", "1042", "c1"])
        #expect(deleted.stdout == "deleted 2 entities\n")
    }

    @Test func fieldsKeepTypeIdAndTheFieldsAskedFor() throws {
        let db = try samples()
        let cli = try run(db, ["search", "cafe", "--limit", "5", "--fields", "title,properties.total", "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let entities = cli.json["entities"]?.array ?? []
        #expect(entities.count == 5)
        for e in entities {
            let keys = Set(e.object?.keys ?? []), properties = Set(e["properties"]?.object?.keys ?? [])
            #expect(keys.isSubset(of: ["type", "id", "title", "properties", "score"]), "\(keys)")
            #expect(e["score"] != nil && e["title"] != nil)
            #expect(properties.isSubset(of: ["total"]), "\(properties)")
        }
        #expect(
            cli.json
                == (try pipe(db, "search", ["query": "cafe", "limit": 5, "fields": ["title", "properties.total"]])))
        let get = try run(db, ["get", "--type", "order", "1042", "--fields", "subtitle,properties.nope", "--json"])
        #expect(get.stdout == #"{"entities":[{"type":"order","id":"1042","subtitle":"Łukasz Żółć · 1 item"}]}"# + "\n")
        let human = try run(db, ["get", "--type", "order", "1042", "--fields", "title,properties.total"])
        #expect(human.stdout == "entity      title          properties.total\norder/1042  Order #1042-A  119.66\n")
        let typo = try run(db, ["search", "cafe", "--fields", "title,subtitel"])
        #expect(typo.status == 64)
        #expect(
            typo.stderr.hasPrefix("error: --fields names an unknown field \"subtitel\"; did you mean \"subtitle\"?"))
        let pipeTypo = try Binary.run(
            ["--db", db, "pipe"],
            input: #"{"jsonrpc":"2.0","id":1,"method":"all","params":{"type":"order","fields":["titl"]}}"# + "\n")
        #expect(
            pipeTypo.json["error"]?["message"]?.string?.hasPrefix(
                "all: parameter \"fields[0]\" names an unknown field \"titl\"; did you mean \"title\"?") == true)
        for args in [
            ["suggest"], ["all", "--type", "order"], ["query", "--type", "order"],
            ["related", "--type", "order", "1042"],
            ["spotlight", "title == \"*\""], ["user-query", "cafe"],
        ] {
            let r = try run(db, args + ["--fields", "title", "--json"])
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let list = r.json["entities"]?.array ?? r.json["items"]?.array ?? []
            #expect(!list.isEmpty, "\(args)")
            #expect(
                list.allSatisfy {
                    Set($0.object?.keys ?? []).isSubset(of: ["type", "id", "title", "score", "engagement"])
                },
                "\(args)")
        }
        let both = try run(db, ["spotlight", "title == \"*\"", "--fields", "title", "--fetch", "title"])
        #expect(both.status == 64)
    }
}
