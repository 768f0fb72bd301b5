import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The pipe's `declare` takes `transliterate` (`latin`, `none`); `declarations` lists the transliterated types, and a
/// search says `matchedBy: transliteration`.
@Suite struct TransliteratePipeTests {
    static let clock: @Sendable () -> Int64 = { Timestamp.parse("2026-03-02T09:00:00Z")! }

    @Test func declareSearchAndDeclarations() throws {
        let handler = RequestHandler(store: try TestSupport.store(), clock: Self.clock)
        _ = try handler.call(
            "ingest",
            [
                "records": [
                    ["type": "person", "id": "1", "title": "Смирнов"], ["type": "city", "id": "1", "title": "Смирнов"],
                ]
            ])
        _ = try handler.call("declare", ["type": "person", "transliterate": "latin"])
        let found = try handler.call("search", ["query": "smirnov"])
        #expect(found["entities"]?.array?.count == 1)
        #expect(found["entities"]?.array?.first?["type"] == "person")
        #expect(found["entities"]?.array?.first?["matchedBy"] == ["transliteration"])
        let declarations = try handler.call("declarations", [:])
        #expect(declarations["transliterate"] == ["person": "latin"])
        #expect(declarations["stemming"] == nil)
        let pipe = PipeServer(handler: handler)
        let answer = pipe.handle(
            line: Array(
                #"{"jsonrpc":"2.0","id":1,"method":"declare","params":{"type":"person","transliterate":"greek"}}"#.utf8)
        )
        #expect(answer?["error"]?["code"] == -32602)
        #expect(answer?["error"]?["message"]?.string?.contains("transliterate") == true)
    }
}
