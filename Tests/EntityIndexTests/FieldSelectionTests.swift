import EntityIndex
import JSON
import TestSupport
import Testing

/// `fields` keeps some members of each entity; a stored record is cut as text, which must give exactly what
/// writing the cut parsed record gives.
@Suite struct FieldSelectionTests {
    static let names = [
        "title", "subtitle", "keywords", "description", "properties", "domain", "related", "rankingHint", "url",
        "properties.total", "properties.naïve", "properties.quo\"te", "properties.missing", "score",
    ]

    @Test func cuttingTheStoredTextEqualsCuttingTheParsedRecord() throws {
        let store = try TestSupport.store()
        var rng = TestSupport.SeededGenerator(seed: 7)
        var records: [JSONValue] = []
        for i in 0..<200 {
            var extra: [(String, JSONValue)] = []
            func maybe() -> Bool { Bool.random(using: &rng) }
            if maybe() { extra.append(("subtitle", .string("sub \\ \"\(i)\" \u{1}é"))) }
            if maybe() { extra.append(("keywords", ["a", "b, c", "{[}]"])) }
            if maybe() { extra.append(("description", .string(String(repeating: "long text ", count: i % 40)))) }
            if maybe() {
                var properties: [(String, JSONValue)] = [("total", JSONValue(Double(i) / 4))]
                if maybe() { properties.append(("naïve", "x")) }
                if maybe() { properties.append(("quo\"te", ["1", "2"])) }
                if maybe() {
                    properties.append(
                        (
                            "nested",
                            .array([.number(JSONNumber(text: "1e300", double: 1e300)), .number(JSONNumber(-0.5))])
                        ))
                }
                extra.append(("properties", .object(JSONObject(properties))))
            }
            if maybe() { extra.append(("related", [["type": "t", "id": "1"]])) }
            if maybe() { extra.append(("rankingHint", 1.50)) }
            records.append(TestSupport.record("t", "\(i)", "title \(i) \u{2028}", extra))
        }
        _ = try store.ingest(records)
        let stored = try store.all(type: "t", limit: 10_000, cursor: nil).entities
        #expect(stored.count == 200 && stored.allSatisfy { $0.recordText != nil })
        var compared = 0
        for _ in 0..<300 {
            let picked = Self.names.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
            let selection = try FieldSelection(picked)
            for e in stored.prefix(40) {
                let cut = e.selecting(selection)
                #expect(cut.recordText != nil, "a stored record is cut as text")
                var parsed = e.parsed
                parsed.record = parsed.record
                let reference = parsed.selecting(selection)
                #expect(cut.recordText == nil || reference.recordText == nil)
                #expect(
                    cut.recordText?.bytes == JSONWriter.encode(.object(reference.record)),
                    "\(picked) of \(JSONWriter.string(.object(e.record)))")
                compared += 1
            }
        }
        #expect(compared == 12_000)
    }

    @Test func typeAndIdStayAndAPropertyNoEntityHasIsAbsent() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("t", "1", "One", [("subtitle", "s"), ("properties", ["total": 3, "other": 4])])
        ])
        let e = try store.get(type: "t", ids: ["1"])[0]
        func cut(_ names: [String]) throws -> String {
            JSONWriter.string(.object(e.selecting(try FieldSelection(names)).record))
        }
        #expect(try cut([]) == #"{"type":"t","id":"1"}"#)
        #expect(
            try cut(["properties.total", "subtitle"])
                == #"{"type":"t","id":"1","subtitle":"s","properties":{"total":3}}"#)
        #expect(try cut(["properties.nope"]) == #"{"type":"t","id":"1"}"#)
        #expect(
            try cut(["properties", "properties.total"]) == #"{"type":"t","id":"1","properties":{"total":3,"other":4}}"#)
    }

    @Test func anUnknownFieldIsNamedWithASuggestion() {
        #expect(
            FieldSelection.problem(of: "titel")?.hasPrefix("names an unknown field \"titel\"; did you mean \"title\"?")
                == true)
        #expect(FieldSelection.problem(of: "properties.") == "names no property: write properties.NAME")
        #expect(FieldSelection.problem(of: "properties.anything") == nil)
        #expect(FieldSelection.problem(of: "score") == nil)
        let error = #expect(throws: EntityIndexError.self) { try FieldSelection(["title", "subtitel"]) }
        #expect(
            error?.message.hasPrefix("fields[1] names an unknown field \"subtitel\"; did you mean \"subtitle\"?")
                == true)
    }
}
