import JSON
import Testing

/// Stored records are passed to the output as JSON text (`JSONValue.encoded`), never parsed and written again.
@Suite struct JSONTextTests {
    let text = #"{"type":"order","id":"1042","total":9.50,"tags":["a","\u0001"],"note":"caf\u00e9 \"x\""}"#

    @Test func anEncodedValueIsWrittenAsItIs() throws {
        let bytes = Array(text.utf8)
        let written = JSONWriter.encode(["result": .encoded(JSONText(writerOutput: bytes))])
        #expect(String(decoding: written, as: UTF8.self) == #"{"result":"# + text + "}")
    }

    @Test func readingInsideAnEncodedValueParsesIt() throws {
        let parsed = try JSONParser().parse(Array(text.utf8))
        let encoded = JSONValue.encoded(JSONText(writerOutput: Array(text.utf8)))
        #expect(encoded == parsed)
        #expect(parsed == encoded)
        #expect(encoded["total"]?.number?.text == "9.50")
        #expect(encoded.typeName == "an object")
        #expect(encoded.decoded == parsed)
        #expect(encoded != JSONValue.encoded(JSONText(writerOutput: Array(#"{"type":"order"}"#.utf8))))
    }

    @Test func writingWhatTheWriterWroteGivesTheSameBytes() throws {
        // The stored text is the writer's output, so splicing it equals parsing and writing it again.
        let once = JSONWriter.encode(try JSONParser().parse(Array(text.utf8)))
        let twice = JSONWriter.encode(try JSONParser().parse(once))
        #expect(once == twice)
    }
}
