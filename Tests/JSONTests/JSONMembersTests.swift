import JSON
import Testing

/// Selecting an object's members from its text: kept members copied as written, whatever they hold.
@Suite struct JSONMembersTests {
    func select(_ text: String, _ choice: @escaping (String) -> MemberChoice) -> String? {
        JSONText(writerOutput: Array(text.utf8)).selectingMembers(choice).map {
            String(decoding: $0.bytes, as: UTF8.self)
        }
    }

    @Test func keptMembersAreCopiedAsWritten() {
        let text = #"{"a":"x\"}{[","b":[1,{"c":"]"}],"k\u00e9":1e300, "d" : { "e":true,"f":null }}"#
        #expect(select(text) { $0 == "b" || $0 == "ké" ? .keep : .drop } == #"{"b":[1,{"c":"]"}],"k\u00e9":1e300}"#)
        #expect(select(text) { $0 == "a" ? .keep : .drop } == #"{"a":"x\"}{["}"#)
        #expect(select(text) { $0 == "d" ? .select { $0 == "f" } : .drop } == #"{"d":{"f":null}}"#)
        #expect(select(text) { $0 == "d" ? .select { $0 == "zz" } : .drop } == "{}", "nothing left of d: d is dropped")
        #expect(select(text) { $0 == "a" ? .select { _ in true } : .drop } == "{}", "not an object: dropped")
        #expect(select("{}") { _ in .keep } == "{}")
        #expect(select(" { \"a\" : 1 } ") { _ in .keep } == #"{"a":1}"#)
    }

    @Test func aTextThatIsNotAnObjectGivesNil() {
        for text in ["[1]", "\"a\"", "{\"a\":1", "{\"a\" 1}", "{\"a\":1}x", "{\"a\":\"unclosed}", "{\"a\":[1,2}"] {
            #expect(select(text) { _ in .keep } == nil, "\(text)")
        }
    }
}
