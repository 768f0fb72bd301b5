import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// Names a request gives that are not known get an error that quotes at most `Quoting.maxCharacters` characters of
/// them, with their length: a megabyte of name gives an error of a few hundred bytes, not a megabyte.
@Suite struct QuotedNameTests {
    /// The length of the hostile names: a megabyte.
    static let length = 1 << 20
    /// The most bytes an error message about one of them may have (the known names it lists are the most of it).
    static let maxMessageBytes = 1024

    func server() throws -> PipeServer {
        let store = try TestSupport.store()
        _ = try store.ingest(
            (0..<20).map { TestSupport.record("task", "\($0)", "Task \($0)", [("properties", ["n": JSONValue($0)])]) })
        return PipeServer(handler: RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! }))
    }

    /// A name of `length` characters that starts with `start` and is not a typo of anything.
    static func name(_ start: String = "") -> String {
        start + String(repeating: "q", count: length - start.count)
    }

    /// The error of a request whose `method` and `params` are given, after checking its size and that it quotes the
    /// start of the name and its length.
    func error(_ s: PipeServer, method: String, params: JSONValue, names name: String) throws -> String {
        let line = JSONWriter.string(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params])
        let bytes = try #require(s.respond(line: Array(line.utf8)))
        #expect(bytes.count < Self.maxMessageBytes + 200, "the whole response: \(bytes.count) bytes")
        let message = try #require(try JSONParser().parse(bytes)["error"]?["message"]?.string)
        #expect(message.utf8.count <= Self.maxMessageBytes, "\(message.prefix(200))")
        #expect(message.contains("\"\(name.prefix(Quoting.maxCharacters))…\" (\(name.utf8.count) bytes)"), "\(message)")
        return message
    }

    @Test func anUnknownParameter() throws {
        let name = Self.name()
        let message = try error(
            try server(), method: "search", params: ["query": "task", name: 1], names: name)
        #expect(message.hasPrefix("search: unknown parameter \"qqqq"))
    }

    @Test func anUnknownMethod() throws {
        let name = Self.name()
        let message = try error(try server(), method: name, params: [:], names: name)
        #expect(message.hasPrefix("unknown method \"qqqq"))
    }

    @Test func anUnknownField() throws {
        let name = Self.name()
        let message = try error(
            try server(), method: "all", params: ["type": "task", "fields": [.string(name)]], names: name)
        #expect(message.contains("names an unknown field \"qqqq"))
        #expect(!message.contains("did you mean"))
    }

    @Test func anUnknownFieldNearAKnownOneStillGetsItsSuggestion() throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"all","params":{"type":"task","fields":["titel"]}}"#
        let message = try #require(try server().handle(line: Array(line.utf8))?["error"]?["message"]?.string)
        #expect(message.contains(#"unknown field "titel"; did you mean "title"?"#))
    }

    @Test(arguments: ["query", "search"]) func anUnknownProperty(_ method: String) throws {
        let name = Self.name()
        var params = JSONObject([("type", "task"), ("filters", [["property": .string(name), "op": "eq", "value": 1]])])
        if method == "search" { params["query"] = "task" }
        let message = try error(try server(), method: method, params: .object(params), names: name)
        #expect(message.hasPrefix("unknown property \"qqqq"))
        #expect(message.contains("(known: n)"))
    }

    @Test func anUnknownSortProperty() throws {
        let name = Self.name()
        let message = try error(
            try server(), method: "query", params: ["type": "task", "sort": [["property": .string(name)]]], names: name)
        #expect(message.hasPrefix("unknown property \"qqqq"))
    }

    @Test func anUnknownParameterOfAFilter() throws {
        let name = Self.name()
        let filter: JSONValue = ["property": "n", "op": "eq", "value": 1, name: 1]
        let message = try error(
            try server(), method: "query", params: ["type": "task", "filters": [filter]], names: "filters[0]." + name)
        #expect(message.hasPrefix("query: parameter \"filters[0].qqqq"))
    }

    @Test func anUnknownWordMatching() throws {
        let name = Self.name()
        let message = try error(
            try server(), method: "search", params: ["query": "task", "matching": .string(name)], names: name)
        #expect(message.contains("got \"qqqq"))
    }

    @Test func anUnknownFieldOfARecord() throws {
        // Half a megabyte: a record holds at most one.
        let name = String(repeating: "q", count: 1 << 19)
        let record: JSONValue = ["type": "task", "id": "x", "title": "X", name: 1]
        let line = JSONWriter.string(["jsonrpc": "2.0", "id": 1, "method": "ingest", "params": ["records": [record]]])
        let bytes = try #require(try server().respond(line: Array(line.utf8)))
        #expect(bytes.count < 2 * Self.maxMessageBytes, "the whole response: \(bytes.count) bytes")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(String(name.prefix(Quoting.maxCharacters)) + "…"))
    }

    @Test func aDuplicateKey() throws {
        let name = Self.name()
        let line = #"{"jsonrpc":"2.0","id":1,"method":"stats","params":{""# + name + #"":1,""# + name + #"":2}}"#
        let bytes = try #require(try server().respond(line: Array(line.utf8)))
        #expect(bytes.count < Self.maxMessageBytes, "the whole response: \(bytes.count) bytes")
        let message = try #require(try JSONParser().parse(bytes)["error"]?["message"]?.string)
        #expect(message.contains("duplicate key \"qqqq"))
        #expect(message.contains("…\" (\(name.utf8.count) bytes)"))
    }

    @Test func theNextRequestIsServed() throws {
        let s = try server()
        _ = try error(s, method: Self.name(), params: [:], names: Self.name())
        let next = s.handle(line: Array(#"{"jsonrpc":"2.0","id":2,"method":"all","params":{"type":"task"}}"#.utf8))
        #expect(next?["result"]?["entities"]?.array?.count == 20)
    }

    @Test func quotingCutsAfterTheBound() {
        #expect(Quoting.quoted("title") == "\"title\"")
        let exact = String(repeating: "é", count: Quoting.maxCharacters)
        #expect(Quoting.quoted(exact) == "\"\(exact)\"")
        #expect(Quoting.quoted(exact + "x") == "\"\(exact)…\" (\(exact.utf8.count + 1) bytes)")
        #expect(Quoting.unquoted(exact + "x") == "\(exact)… (\(exact.utf8.count + 1) bytes)")
        #expect(Quoting.prefix(exact + "x") == exact + "…")
        #expect(Quoting.names((0..<20).map { "n\($0)" }).hasSuffix("n15 and 4 more"))
    }
}
