import JSON
import Testing

@Suite struct JSONParserTests {
    @Test func keepsKeyOrderAndNumberText() throws {
        let v = try JSONParser().parse(#"{"b": 9.50, "a": [1, -0.5e3, true, null], "c": "\u00e9\ud83d\ude00"}"#)
        #expect(v.object?.keys == ["b", "a", "c"])
        #expect(JSONWriter.string(v) == #"{"b":9.50,"a":[1,-0.5e3,true,null],"c":"é😀"}"#)
    }

    @Test(
        "rejects malformed input",
        arguments: [
            #"{"a": 1,}"#, #"{"a" 1}"#, #"[1 2]"#, #"{"a": 01}"#, #""\ud800""#, #""\udc00x""#, "\"a\u{01}\"",
            #"{"a": 1, "a": 2}"#, "1e400", #"{"a": tru}"#, "", "[", #""unterminated"#, "{\"a\":1}\u{0}",
        ])
    func rejects(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser().parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser().parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func boundsNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser(maxDepth: 128).parse(deep) }
        _ = try JSONParser(maxDepth: 128).parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
    }

    @Test func escapesControlCharacters() {
        #expect(JSONWriter.string(.string("a\"b\\c\n\u{1}")) == #""a\"b\\c\n\u0001""#)
    }
}
