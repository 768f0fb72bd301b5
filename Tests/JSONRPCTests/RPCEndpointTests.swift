import EntityIndex
import JSON
import JSONRPC
import Testing

/// A service whose results are `size` bytes of text; it counts what it runs.
final class CountingService: RPCService {
    let dialect: RPCDialect
    var runs: [String] = []

    init(dialect: RPCDialect = .jsonRPC) { self.dialect = dialect }

    func answer(_ request: RPCRequest, room: Int) -> RPCAnswer {
        runs.append(request.method)
        switch request.method {
        case "big":
            let size = Int(request.params?["size"]?.number?.double ?? 0)
            return .result(["text": .string(String(repeating: "x", count: size))])
        case "write": return .result([:])
        case "ping": return .result([:])
        default: return .error(.methodNotFound(request.method, known: ["big", "write", "ping"]))
        }
    }

    func isReadOnly(_ request: RPCRequest) -> Bool { request.method != "write" }
}

/// The layer's envelope, batches and bounds, with any service.
@Suite struct RPCEndpointTests {
    func call(_ id: Int, _ method: String, _ params: JSONValue? = nil) -> String {
        var o = JSONObject([("jsonrpc", "2.0"), ("id", JSONValue(id)), ("method", .string(method))])
        if let params { o["params"] = params }
        return JSONWriter.string(.object(o))
    }

    func respond(_ endpoint: RPCEndpoint, _ text: String) -> JSONValue? {
        endpoint.respond(to: Array(text.utf8)).map { try! JSONParser().parse($0) }
    }

    @Test func batchItemsThatCannotFitAreNotRun() throws {
        let service = CountingService()
        let endpoint = RPCEndpoint(service: service, limits: RPCLimits(maxResponseBytes: 40_000))
        // Two results of 15 KB fit in 40 KB; the third is refused, and so is every repetition of it, without being
        // run; a small request after them is still run and answered.
        let items = (0..<20).map { call($0, "big", ["size": 15_000]) } + [call(100, "ping")]
        let line = try #require(endpoint.respond(to: Array(("[" + items.joined(separator: ",") + "]").utf8)))
        let answers = try #require(try JSONParser().parse(line).array)
        #expect(answers.count == 21)
        #expect(answers.prefix(2).allSatisfy { $0["result"] != nil })
        #expect(answers[2...19].allSatisfy { $0["error"]?["data"]?["code"] == "resource_exhausted" })
        #expect(answers[20]["result"] == [:])
        #expect(service.runs.count == 4, "ran \(service.runs.count): two results, the first refusal and the ping")
        #expect(line.count <= 40_000)
    }

    @Test func aWriteForgetsTheRefusals() throws {
        let service = CountingService()
        let endpoint = RPCEndpoint(service: service, limits: RPCLimits(maxResponseBytes: 5_000))
        let big = call(1, "big", ["size": 6_000])
        let line = "[" + [big, big, call(2, "write"), big].joined(separator: ",") + "]"
        let answers = try #require(respond(endpoint, line)?.array)
        #expect(answers.count == 4)
        #expect(service.runs == ["big", "write", "big"], "the repeated read is run again after the write")
    }

    @Test func aFullBatchRunsNothingMore() throws {
        let service = CountingService()
        let endpoint = RPCEndpoint(service: service, limits: RPCLimits(maxResponseBytes: 1_000))
        // The first result takes nearly all the room; once the errors of the items past it have filled the rest,
        // even writes are not run.
        let items = [call(1, "big", ["size": 900])] + (2..<50).map { call($0, "write") }
        let answers = try #require(respond(endpoint, "[" + items.joined(separator: ",") + "]")?.array)
        #expect(answers.count == 49)
        #expect(answers.first?["result"] != nil)
        #expect(service.runs.count < 5, "ran \(service.runs.count)")
        // A notification takes no room: it runs even in a full batch.
        let notification = #"{"jsonrpc":"2.0","method":"write"}"#
        let before = service.runs.count
        _ = respond(endpoint, "[" + items.joined(separator: ",") + "," + notification + "]")
        #expect(service.runs.last == "write" && service.runs.count < before + 6)
        #expect(answers.last?["error"]?["message"]?.string?.contains("not run") == true)
    }

    @Test func aBatchHasABoundedNumberOfItems() throws {
        let endpoint = RPCEndpoint(service: CountingService(), limits: RPCLimits(maxBatchItems: 10))
        let answer = respond(endpoint, "[" + (0..<11).map { call($0, "ping") }.joined(separator: ",") + "]")
        #expect(answer?["error"]?["code"] == -32600)
        #expect(answer?["error"]?["message"]?.string?.contains("the most is 10") == true)
        #expect(
            respond(endpoint, "[" + (0..<10).map { call($0, "ping") }.joined(separator: ",") + "]")?.array?.count == 10)
    }

    /// The layer names its two engine-like errors itself (it does not import the engine); they must stay the
    /// engine's codes, which the docs list.
    @Test func theLayersErrorNamesAreTheEngines() {
        #expect(RPCError.resourceExhaustedName == EntityIndexError.Code.resourceExhausted.rawValue)
        #expect(RPCError.interruptedName == EntityIndexError.Code.interrupted.rawValue)
    }

    @Test func errorsQuoteAShortPrefix() throws {
        let endpoint = RPCEndpoint(service: CountingService())
        let name = String(repeating: "m", count: 5_000_000)
        let answer = try #require(endpoint.respond(to: Array(call(1, name).utf8)))
        #expect(answer.count < 1_000, "\(answer.count) bytes")
        let error = try JSONParser().parse(answer)["error"]
        #expect(error?["code"] == -32601)
        #expect(error?["message"]?.string?.contains("(5000000 bytes)") == true)
    }

    @Test func theDialectsReadEnvelopes() throws {
        let plain = RPCEndpoint(service: CountingService())
        let mcp = RPCEndpoint(service: CountingService(dialect: .mcp))
        let nullId = #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#
        #expect(respond(plain, nullId)?["result"] == [:])
        #expect(respond(mcp, nullId)?["error"]?["code"] == -32600)
        let response = #"{"jsonrpc":"2.0","id":1,"result":{}}"#
        #expect(respond(plain, response)?["error"]?["code"] == -32600)
        #expect(respond(mcp, response) == nil)
        #expect(respond(plain, #"{"jsonrpc":"2.0","method":"ping"}"#) == nil)
        #expect(respond(plain, "[1]")?.array?.first?["error"]?["data"]?["code"] == "invalid_request")
        #expect(respond(plain, "{")?["error"]?["data"]?["code"] == "parse_error")
    }
}
