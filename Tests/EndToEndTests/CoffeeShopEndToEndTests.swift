import Foundation
import JSON
import TestSupport
import Testing

/// A coffee shop's orders, one of whose totals is the string `"12,50"` among numbers, and menu items whose
/// allergens are sometimes `[]` (Tests/Fixtures/coffee-shop.ndjson), asked as a person would, through each door: the
/// command line, the pipe, MCP and serve's `POST /rpc`. A sorted, filtered query answers the numbers in order (never
/// nothing), the string sorts after the numbers, lint names it, a declaration refuses it, a misspelt type says which
/// was meant, and `notContains` keeps an empty list.
@Suite struct CoffeeShopEndToEndTests {
    static let fixture = TestSupport.repository + "/Tests/Fixtures/coffee-shop.ndjson"
    static let now = ["--now", "2026-03-02T09:00:00Z"]

    /// `total gt 12`, sorted by total descending, limit 4: the four largest numbers, as on an index without the
    /// string.
    static let topFour: (ids: [String], totals: [Double]) = (
        ["1001", "1002", "1003", "1004"], [18.9, 18.6, 18.1, 17.8]
    )

    /// Every order by total descending: the numbers, then the string (README, "Kinds are kept or refused").
    static let byTotal =
        ["1001", "1002", "1003", "1004", "1005", "1006", "1007", "1008", "1009", "1010", "1011"]
        + ["1013", "1014", "1015", "1016", "1017", "1018", "1019", "1020", "1012"]

    /// Items without gluten: an empty list of allergens is one.
    static let withoutGluten = ["almond-cake", "espresso", "fruit-cup", "oat-latte"]

    static let query: JSONValue = [
        "type": "order", "filters": [["property": "total", "op": "gt", "value": 12]],
        "sort": [["property": "total", "order": "desc"]], "limit": 4,
    ]
    static let misspelt: JSONValue = ["type": "ordr", "filters": [["property": "total", "op": "gt", "value": 12]]]
    static let glutenFree: JSONValue = [
        "type": "item", "filters": [["property": "allergens", "op": "notContains", "value": "gluten"]],
    ]

    /// A new index of the fixture.
    static func index() throws -> String {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let r = try Binary.run(["--db", db] + now + ["ingest", fixture])
        #expect(r.status == 0, "\(r.stderr)")
        return db
    }

    static func ids(_ result: JSONValue?) -> [String] {
        result?["entities"]?.array?.compactMap { $0["id"]?.string } ?? []
    }

    static func totals(_ result: JSONValue?) -> [Double] {
        result?["entities"]?.array?.compactMap { $0["properties"]?["total"]?.number?.double } ?? []
    }

    static func cli(_ db: String, _ arguments: [String]) throws -> Binary.Result {
        try Binary.run(["--db", db] + now + arguments)
    }

    // MARK: - The command line

    @Test func theCommandLineSortsTheNumbersAndSaysWhatIsWrong() throws {
        let db = try Self.index()
        let top = try Self.cli(
            db, ["query", "--type", "order", "--filter", "total gt 12", "--sort", "total:desc"] + ["--limit", "4"])
        #expect(top.status == 0, "\(top.stderr)")
        let rows = top.stdout.split(separator: "\n").dropFirst().map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(rows.map { String($0[0]) } == Self.topFour.ids.map { "order/" + $0 }, "\(top.stdout)")
        #expect(rows.map { Double($0[3]) } == Self.topFour.totals, "\(top.stdout)")
        let json = try Self.cli(
            db,
            ["query", "--type", "order", "--filter", "total gt 12", "--sort", "total:desc", "--limit", "4", "--json"])
        #expect(Self.ids(json.json) == Self.topFour.ids && Self.totals(json.json) == Self.topFour.totals)
        let all = try Self.cli(db, ["query", "--type", "order", "--sort", "total:desc", "--json"])
        #expect(Self.ids(all.json) == Self.byTotal)

        let lint = try Self.cli(db, ["lint", "--json"])
        let mixed = lint.json["findings"]?.array?.filter { $0["code"] == "mixed-kinds" } ?? []
        #expect(mixed.count == 1)
        #expect(mixed.first?["record"]?["type"] == "order" && mixed.first?["record"]?["id"] == "1012")
        #expect(mixed.first?["field"] == "properties.total")
        let human = try Self.cli(db, ["lint"])
        #expect(
            human.stdout.contains("mixed-kinds: 1 warning\n  indexed order/1012: holds a string in property \"total\""))

        let glutenFree = try Self.cli(
            db, ["query", "--type", "item", "--filter", "allergens notContains gluten", "--json"])
        #expect(Self.ids(glutenFree.json) == Self.withoutGluten)
    }

    @Test func aDeclarationRefusesTheStringAtDeclareAndAtIngest() throws {
        let db = try Self.index()
        let declare = try Self.cli(db, ["declare", "--type", "order", "total:number"])
        #expect(declare.status == 1)
        #expect(
            declare.stderr.contains(
                #"order/1012: field "properties.total" is declared number, so its value must be a number (got the string "12,50")"#
            ),
            "\(declare.stderr)")
        #expect(try Self.cli(db, ["declare", "--json"]).json["declarations"]?.array?.isEmpty != false)

        #expect(try Self.cli(db, ["delete", "--type", "order", "1012"]).status == 0)
        #expect(try Self.cli(db, ["declare", "--type", "order", "total:number"]).status == 0)
        let ingest = try Self.cli(db, ["ingest", Self.fixture])
        #expect(ingest.status != 0)
        #expect(
            ingest.stderr.contains(
                #"(order/1012): field "properties.total" is declared number, so its value must be a number (got the string "12,50")"#
            ),
            "\(ingest.stderr)")
        let orders = try Self.cli(db, ["query", "--type", "order", "--json"])
        #expect(Self.ids(orders.json).count == 19, "the refused ingest wrote nothing")
    }

    // MARK: - The pipe, MCP and serve

    @Test(arguments: ["pipe", "mcp"]) func thePipeAndMCPAnswerTheSame(command: String) throws {
        let p = try PipeProcess(db: try Self.index(), command: command)
        defer { p.close() }
        let tools = ["query": "query_entities", "lint": "lint_records"]
        /// The result, or the error's message (a tool's `isError` result's text on MCP).
        func call(_ method: String, _ params: JSONValue) -> (result: JSONValue?, message: String?) {
            guard command == "mcp" else {
                let (result, error) = p.call(method, params)
                return (result, error?["message"]?.string)
            }
            let (result, error) = p.call(
                "tools/call",
                ["name": .string(tools[method]!), "arguments": params, "_meta": ProtocolBoundsTests.meta])
            if result?["isError"] == true { return (nil, result?["content"]?.array?.first?["text"]?.string) }
            return (result?["structuredContent"], error?["message"]?.string)
        }
        let top = call("query", Self.query)
        #expect(Self.ids(top.result) == Self.topFour.ids && Self.totals(top.result) == Self.topFour.totals)
        let all = call("query", ["type": "order", "sort": [["property": "total", "order": "desc"]]])
        #expect(Self.ids(all.result) == Self.byTotal)
        let typo = call("query", Self.misspelt)
        #expect(typo.result == nil && typo.message?.contains(#"unknown type "ordr"; did you mean "order"?"#) == true)
        #expect(Self.ids(call("query", Self.glutenFree).result) == Self.withoutGluten)
        let lint = call("lint", [:]).result?["findings"]?.array?.filter { $0["code"] == "mixed-kinds" }
        #expect(lint?.map { $0["record"]?["id"] } == ["1012"] && lint?.first?["field"] == "properties.total")
    }

    @Test func serveAnswersTheSame() throws {
        let server = try ServeProcess(db: try Self.index())
        func rpc(_ params: JSONValue) -> JSONValue? {
            let body: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": "query", "params": params]
            return server.rpc(JSONWriter.string(body))?.json
        }
        let top = rpc(Self.query)?["result"]
        #expect(Self.ids(top) == Self.topFour.ids && Self.totals(top) == Self.topFour.totals)
        #expect(
            Self.ids(rpc(["type": "order", "sort": [["property": "total", "order": "desc"]]])?["result"])
                == Self.byTotal)
        let typo = rpc(Self.misspelt)
        #expect(typo?["result"] == nil)
        #expect(typo?["error"]?["message"]?.string?.contains(#"unknown type "ordr"; did you mean "order"?"#) == true)
        #expect(Self.ids(rpc(Self.glutenFree)?["result"]) == Self.withoutGluten)
    }
}
