import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The expectations file: its JSON Schema agrees with the reader, and each case's line is found.
@Suite struct ExpectationFileTests {
    static let schema = TestSupport.json(
        TestSupport.read(TestSupport.repository + "/schema/expectations.schema.json") ?? "{}")
    static let sample = TestSupport.read(TestSupport.repository + "/data/expectations.json") ?? "[]"

    @Test func theSampleIsValidForTheSchemaAndTheReader() throws {
        let checker = SchemaChecker(Self.schema)
        #expect(checker.problems(TestSupport.json(Self.sample), Self.schema).isEmpty)
        let file = try ExpectationFile(path: "sample", bytes: Array(Self.sample.utf8))
        #expect(file.cases.count == TestSupport.json(Self.sample).array?.count)
    }

    /// The schema names the methods and expectations the reader takes.
    @Test func theSchemaListsWhatTheReaderTakes() {
        let item = Self.schema["items"]
        let methods = (item?["oneOf"]?.array ?? []).compactMap { $0["required"]?.array?.first?.string }
        #expect(methods == ExpectationCase.methods.map(\.rawValue))
        let keys = Self.schema["$defs"]?["expect"]?["properties"]?.object?.keys ?? []
        #expect(keys == Expectation.keys)
    }

    @Test func aCaseWithTwoRequestsOrNoneIsInvalidForBoth() throws {
        let checker = SchemaChecker(Self.schema)
        for text in [
            #"[{"name": "n", "search": {"query": "a"}, "suggest": {}, "expect": {"empty": true}}]"#,
            #"[{"name": "n", "expect": {"empty": true}}]"#,
        ] {
            #expect(!checker.problems(TestSupport.json(text), Self.schema).isEmpty, "\(text)")
            #expect(throws: ExpectationFileErrors.self) { try ExpectationFile(path: "f", bytes: Array(text.utf8)) }
        }
    }

    /// Each case's line is its opening brace's, past strings that hold brackets, braces and escaped quotes.
    @Test func linesOfCases() throws {
        let text = """
            [
              {"name": "a [ { \\" ", "search": {"query": "}"},
               "expect": {"top": ["order/1"]}},

              {
                "name": "b", "get": {"type": "order", "ids": [1]}, "expect": {"count": 1}
              }, {"name": "c", "all": {"type": "order"}, "expect": {"empty": false}}
            ]
            """
        let file = try ExpectationFile(path: "f", bytes: Array(text.utf8))
        #expect(file.cases.map(\.line) == [2, 5, 7])
        #expect(file.cases.map(\.name) == ["a [ { \" ", "b", "c"])
    }
}
