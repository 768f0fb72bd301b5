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

    @Test func anUnknownParameterNamesTheKnownOnes() throws {
        let handler = RequestHandler(store: try TestSupport.store(), clock: { 0 })
        let error = #expect(throws: EntityIndexError.self) { try handler.call(.search, ["query": "x", "limt": 3]) }
        #expect(
            error?.message
                == "search: unknown parameter \"limt\" (known: query, type, limit, filters, explain, highlight)")
    }
}
