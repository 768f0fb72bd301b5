import Foundation
import JSON
import TestSupport
import Testing

/// `get`'s missing ids, `delete`'s dry run and the hint for an ingest file shaped like the pipe's params, through
/// each door: the command line, the pipe, MCP and serve's `POST /rpc`.
@Suite struct NoSilentAnswerEndToEndTests {
    @Test func theCommandLineNamesMissingIdsAndPreviewsADelete() throws {
        let db = try ServeTests.sampleIndex()
        let get = try Binary.run([
            "--db", db, "--now", "2026-03-02T09:00:00Z", "get", "--type", "order", "1042", "nope",
        ])
        #expect(get.status == 0)
        #expect(get.stderr == "not found (type order): \"nope\"\n")
        let json = try Binary.run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "get", "--type", "order", "1042", "nope", "--json"])
        #expect(json.json["missing"] == [["type": "order", "id": "nope"]])

        let before = try Binary.sqlite(db, "SELECT count(*) FROM entity")
        let dry = try Binary.run(["--db", db, "delete", "--type", "order", "--dry-run", "--json"])
        #expect(dry.status == 0 && dry.json["dryRun"] == true && dry.json["deleted"] == 0)
        #expect((dry.json["wouldDelete"]?.number?.double ?? 0) > 100 && dry.json["keys"]?.array?.count == 100)
        let human = try Binary.run(["--db", db, "delete", "--type", "order", "1042", "--dry-run"])
        #expect(human.stdout == "would delete 1 entity (dry run: nothing deleted)\n  order/1042\n")
        #expect(try Binary.sqlite(db, "SELECT count(*) FROM entity") == before)
    }

    @Test func ingestOfThePipesParamsSaysHowToUnwrapThem() throws {
        let directory = TestSupport.temporaryDirectory()
        TestSupport.write(directory + "/wrapped.json", #"{"records": [{"type": "order", "id": 1, "title": "x"}]}"#)
        let r = try Binary.run(["--db", directory + "/index.sqlite", "ingest", directory + "/wrapped.json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the shape of the pipe's ingest params") && r.stderr.contains("jq '.records'"))
    }

    @Test(arguments: ["pipe", "mcp"]) func thePipeAndMCPAnswerTheSame(command: String) throws {
        let db = try ServeTests.sampleIndex()
        let p = try PipeProcess(db: db, extra: command == "mcp" ? ["--allow-writes"] : [], command: command)
        let tools = ["get": "get_entities", "delete": "delete_entities"]
        func call(_ method: String, _ params: JSONValue) -> JSONValue? {
            guard command == "mcp" else { return p.call(method, params).result }
            return p.call(
                "tools/call",
                ["name": .string(tools[method]!), "arguments": params, "_meta": ProtocolBoundsTests.meta]
            ).result?["structuredContent"]
        }
        #expect(
            call("get", ["type": "order", "ids": ["1042", "nope"]])?["missing"] == [["type": "order", "id": "nope"]])
        let dry = call("delete", ["type": "order", "ids": ["1042"], "dryRun": true])
        #expect(dry?["wouldDelete"] == 1 && dry?["keys"] == [["type": "order", "id": "1042"]])
        #expect(call("get", ["type": "order", "ids": ["1042"]])?["entities"]?.array?.count == 1)
    }

    @Test func serveAnswersTheSame() throws {
        // A dry run is a `delete`: a write method, so it needs --allow-writes and the token, as the delete would.
        let server = try ServeProcess(
            db: try ServeTests.sampleIndex(), extra: ["--allow-writes"],
            environment: ["ENTITYIDX_TOKEN": "dry-run-token"])
        let get = server.rpc(
            #"{"jsonrpc":"2.0","id":1,"method":"get","params":{"type":"order","ids":["1042","nope"]}}"#)
        #expect(get?.json["result"]?["missing"] == [["type": "order", "id": "nope"]])
        let dry = server.rpc(
            #"{"jsonrpc":"2.0","id":2,"method":"delete","params":{"type":"order","ids":["1042"],"dryRun":true}}"#,
            headers: ["Authorization: Bearer dry-run-token"])
        #expect(dry?.json["result"]?["wouldDelete"] == 1)
        let after = server.rpc(
            #"{"jsonrpc":"2.0","id":3,"method":"get","params":{"type":"order","ids":["1042"]}}"#)
        #expect(after?.json["result"]?["entities"]?.array?.count == 1)
    }
}
