import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// `Method` is the one list of methods: the pipe's JSON Schema must describe exactly these, with these parameters.
@Suite struct MethodTests {
    let schema = TestSupport.json(TestSupport.read(TestSupport.repository + "/schema/pipe.schema.json") ?? "{}")

    @Test func theSchemaListsEveryMethodAndNoOther() throws {
        let described = Set(try #require(schema["methods"]?.object).keys)
        #expect(described == Set(Method.names))
        let enumerated = try #require(schema["$defs"]?["request"]?["properties"]?["method"]?["enum"]?.array)
        #expect(Set(enumerated.compactMap(\.string)) == Set(Method.names))
    }

    @Test(arguments: Method.allCases) func theSchemaDescribesEachParameter(_ method: Method) throws {
        let properties = schema["methods"]?[method.rawValue]?["params"]?["properties"]?.object?.keys ?? []
        #expect(Set(properties) == Set(method.parameters), "\(method.rawValue)")
        #expect(method.request.method == method)
    }

    @Test func matchingIsOneOfItsNames() throws {
        let handler = RequestHandler(store: try TestSupport.store(), clock: { 0 })
        for method in [Method.search, .userQuery] {
            let error = #expect(throws: EntityIndexError.self) {
                try handler.call(method, ["query": "x", "matching": "most"])
            }
            #expect(error?.code == .invalidParams)
            #expect(
                error?.message
                    == "\(method.rawValue): parameter \"matching\" must be one of all, frequency, last, got \"most\"")
            #expect(throws: EntityIndexError.self) { try handler.call(method, ["query": "x", "matching": 1]) }
            for name in ["all", "frequency", "last"] {
                _ = try handler.call(method, ["query": "x", "matching": .string(name)])
            }
        }
    }

    @Test func anUnknownParameterNamesTheKnownOnes() throws {
        let handler = RequestHandler(store: try TestSupport.store(), clock: { 0 })
        let error = #expect(throws: EntityIndexError.self) { try handler.call(.search, ["query": "x", "limt": 3]) }
        #expect(
            error?.message
                == "search: unknown parameter \"limt\" (known: query, type, limit, filters, explain, highlight, cursor, fields, matching, facets)"
        )
    }

    @Test func lintListsAtMostItsLimit() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("order", "1", "1"), TestSupport.record("order", "2", "2")])
        let handler = RequestHandler(store: store, clock: { 0 })
        let report = try handler.call(.lint, ["limit": 1])
        #expect(report["findings"]?.array?.count == 1)
        #expect(report["warnings"] == 2 && report["unlisted"]?["weak-display"] == 1)
        #expect(throws: EntityIndexError.self) { try handler.call(.lint, ["limit": -1]) }
    }
}

/// A result read from the index is written from its stored text, with the fields a method adds spliced in.
@Suite struct StoredResultEncodingTests {
    @Test func addedFieldsFollowTheRecordsOwn() throws {
        let store = try TestSupport.store()
        _ = try store.ingest(
            [["type": "order", "id": "1042", "title": "Order #1042-A", "properties": ["total": 9.5]]])
        let results = try store.search(SearchRequest(query: "1042", explain: true))
        let result = try #require(results.first)
        #expect(result.recordText != nil)
        let written = String(decoding: JSONWriter.encode(result.json), as: UTF8.self)
        #expect(
            written.hasPrefix(
                #"{"type":"order","id":"1042","title":"Order #1042-A","properties":{"total":9.5},"score":"#))
        #expect(written.contains(#","explain":{"exactId":true"#))
        // The same bytes as the record parsed, the fields added and written again.
        var parsed = result.record
        parsed["score"] = .number(JSONNumber(try #require(result.score)))
        parsed["explain"] = result.explanation
        #expect(written == JSONWriter.string(.object(parsed)))
    }

    @Test func aRecordWithoutAddedFieldsIsItsStoredText() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([["type": "note", "id": "n1", "title": "Café"]])
        let got = try store.get(type: "note", ids: ["n1"])
        #expect(JSONWriter.string(try #require(got.first).json) == #"{"type":"note","id":"n1","title":"Café"}"#)
    }
}
