import Foundation
import JSON
import TestSupport
import Testing

/// `spotlight` and `userQuery` through the pipe and the command line, as clients see them.
@Suite struct SpotlightEndToEndTests {
    static let records: JSONValue = [
        [
            "type": "city", "id": "paris", "title": "Paris", "synonyms": ["Paname"],
            "lastUsedAt": "2026-03-01T12:00:00Z",
        ],
        ["type": "city", "id": "parma", "title": "Parma", "keywords": ["ham"]],
        ["type": "doc", "id": "guide", "title": "A guide to Paris", "properties": ["pages": 120]],
    ]

    @Test func pipeMethodsConformToTheSchema() throws {
        let p = try PipeProcess(db: TestSupport.temporaryDirectory() + "/index.sqlite")
        defer { p.close() }
        _ = p.call("ingest", ["records": Self.records])
        let (result, error) = p.call("spotlight", ["query": #"title == "Par*"c && lastUsedDate > $time.today(-7)"#])
        #expect(error == nil)
        #expect(result?["entities"]?.array?.map { $0["id"] } == [.string("paris")])
        let fetched = p.call("spotlight", ["query": "pages >= 100", "fetchAttributes": ["title", "pages"]]).result
        #expect(fetched == ["entities": [["type": "doc", "id": "guide", "title": "A guide to Paris", "pages": 120]]])
        let typed = p.call("userQuery", ["query": "par", "maxSuggestions": 3]).result
        #expect(typed?["items"]?.array?.count == 3)
        #expect(
            typed?["suggestions"] == [
                ["text": "Paris", "matchedRanges": [["start": 0, "end": 3]]],
                ["text": "Parma", "matchedRanges": [["start": 0, "end": 3]]],
                ["text": "A guide to Paris", "matchedRanges": [["start": 11, "end": 14]]],
            ])
        let bad = p.call("spotlight", ["query": "title == "]).error
        #expect(bad?["code"] == -32602)
        #expect(
            bad?["message"] == "invalid query at character 10: expected a quoted string, a number or $time after ==")
        #expect(bad?["data"] == ["code": "invalid_query", "character": 10])
        #expect(p.call("spotlight", ["query": "a == 1", "limt": 1]).error?["data"]?["code"] == "invalid_params")
        // The schema rejects the misspelt parameter too, and nothing else of the transcript.
        #expect(p.schemaProblems() == ["spotlight.params: unexpected limt"])
    }

    @Test func commandLine() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let input = Self.records.array!.map { JSONWriter.string($0) }.joined(separator: "\n")
        #expect(try Binary.run(["--db", db, "ingest", "-"], input: input).status == 0)
        let found = try Binary.run([
            "--db", db, "--now", "2026-03-02T09:00:00Z", "spotlight", #"title == "paris"wc"#, "--json",
        ])
        #expect(found.status == 0)
        #expect(found.json["entities"]?.array?.compactMap { $0["id"]?.string } == ["paris", "guide"])
        let fetched = try Binary.run([
            "--db", db, "spotlight", "--fetch", "displayName,contentType", "--limit", "1", #"title = "*""#,
        ])
        #expect(fetched.stdout == "doc/guide  displayName=A guide to Paris  contentType=doc\n")
        let bad = try Binary.run(["--db", db, "spotlight", #"!(title == "x")"#])
        #expect(bad.status == 1)
        #expect(
            bad.stderr
                == "error: invalid query at character 1: '!' (NOT) is not part of the Core Spotlight query language; compare with != instead\n"
        )
        let typed = try Binary.run(["--db", db, "user-query", "pana", "--max-items", "1", "--json"])
        #expect(typed.json["suggestions"] == [["text": "Paname", "matchedRanges": [["start": 0, "end": 4]]]])
        #expect(typed.json["items"]?.array?.count == 1)
        #expect(try Binary.run(["--db", db, "user-query"]).status == 64)
    }
}
