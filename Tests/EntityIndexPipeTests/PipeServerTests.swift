import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The server's line handling in process (the binary is tested in EndToEndTests).
@Suite struct PipeServerTests {
    func server() throws -> PipeServer {
        let store = try TestSupport.store()
        return PipeServer(handler: RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! }))
    }

    func answer(_ server: PipeServer, _ line: String) -> JSONValue? {
        server.handle(line: Array(line.utf8))
    }

    @Test func answersWithTheRequestId() throws {
        let s = try server()
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":"x-1","method":"state"}"#) == [
                "jsonrpc": "2.0", "id": "x-1", "result": ["clientState": .null],
            ])
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":12.50,"method":"state"}"#)?["id"]
                == .number(JSONNumber(text: "12.50", double: 12.5)))
    }

    @Test func notificationsAndBlankLinesGetNothing() throws {
        let s = try server()
        #expect(answer(s, #"{"jsonrpc":"2.0","method":"state"}"#) == nil)
        #expect(answer(s, "   ") == nil)
        #expect(answer(s, #"[{"jsonrpc":"2.0","method":"state"}]"#) == nil)
    }

    @Test(
        "params errors say what to fix",
        arguments: [
            (#"{"type":"t"}"#, "parameter \"ids\" is required"),
            (#"{"type":"t","ids":[true]}"#, "parameter \"ids[0]\" must be a non-empty string or an integer id"),
            (#"{"type":"t","ids":[],"extra":1}"#, "unknown parameter \"extra\""),
            (#"{"type":"","ids":[]}"#, "parameter \"type\" must not be empty"),
            (#"[]"#, "params must be an object"),
        ])
    func paramsErrors(_ params: String, _ message: String) throws {
        let s = try server()
        let r = try #require(answer(s, #"{"jsonrpc":"2.0","id":1,"method":"get","params":"# + params + "}"))
        #expect(r["error"]?["code"] == JSONValue(-32602))
        #expect(r["error"]?["data"]?["code"] == .string("invalid_params"))
        #expect(r["error"]?["message"]?.string?.contains(message) == true, "\(JSONWriter.string(r))")
    }

    @Test func limitsAreChecked() throws {
        let s = try server()
        let r = answer(s, #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"x","limit":10001}}"#)
        #expect(r?["error"]?["message"]?.string?.contains("from 0 to 10000") == true)
    }

    @Test func batchStateErrors() throws {
        let s = try server()
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":1,"method":"batch.end","params":{"clientState":"s"}}"#)?["error"]?[
                "data"]?["code"] == .string("batch_state"))
        #expect(answer(s, #"{"jsonrpc":"2.0","id":2,"method":"batch.begin"}"#)?["result"] == [:])
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":3,"method":"batch.begin"}"#)?["error"]?["data"]?["code"]
                == .string("batch_state"))
        let big = String(repeating: "é", count: 126)
        #expect(
            answer(s, #"{"jsonrpc":"2.0","id":4,"method":"batch.end","params":{"clientState":""# + big + #""}}"#)?[
                "error"]?["data"]?["code"] == .string("limit_exceeded"))
    }
}
