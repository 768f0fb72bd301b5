import Foundation
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// A database of schema 11 (the text in `search_doc`; `Tests/Fixtures/schema11`) opens with the current code, which
/// makes the full-text indexes contentless and rebuilds them from the records, and gives every recorded search the
/// answer of the release that wrote it, entity for entity and score for score (but for the documented refinement of
/// numbers typed whole); so does a database built afresh.
@Suite struct SearchUpgradeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixture = root.appendingPathComponent("Tests/Fixtures/schema11")
    static let clock = Timestamp.parse("2026-06-01T00:00:00Z")!

    /// The recorded searches and their answers, as `type/id score` lines.
    static func expected() throws -> [(query: String, answer: [String])] {
        let text = try String(contentsOf: fixture.appendingPathComponent("search-expected.ndjson"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let o = try JSONParser().parse(String(line))
            let answer = (o["results"]?.array ?? []).map { pair in
                "\(pair.array?[0].string ?? "") \(pair.array?[1].number.map { String($0.double) } ?? "")"
            }
            return (o["query"]?.string ?? "", answer)
        }
    }

    static func answer(_ store: EntityStore, _ query: String) throws -> [String] {
        try store.search(SearchRequest(query: query, limit: 50)).map {
            "\($0.key.type)/\($0.key.id) \($0.score.map { String($0) } ?? "")"
        }
    }

    /// Whether the query's last word is being typed (no space after it), has five letters or more, and starts no
    /// word of the index: it is found by the typo fallback alone.
    static func typesAMisspeltWord(_ store: EntityStore, _ query: String) throws -> Bool {
        guard !query.hasSuffix(" "), let last = query.split(separator: " ").last, last.count >= 5,
            last.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        let word = last.lowercased()
        let found = try store.db.scalar(
            "SELECT EXISTS(SELECT 1 FROM vocabulary WHERE term >= ?1 AND term < ?1 || char(1114111))", [.text(word)])
        return found?.int == 0
    }

    @Test func theRecordedSearchesAnswerAsBefore() throws {
        let directory = TestSupport.temporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture.appendingPathComponent("entityidx.sqlite").path, toPath: directory + "/old.sqlite")
        let upgraded = try EntityStore(path: directory + "/old.sqlite", now: Self.clock)
        #expect(try upgraded.db.scalar("SELECT count(*) FROM search_doc")?.int == 440)
        let columns = try upgraded.db.rows("SELECT name FROM pragma_table_info('search_doc')") { $0.text(0) }
        #expect(!columns.contains("description"), "the text is no longer kept beside the index")
        for table in ["search", "search_title", "search_code"] {
            #expect(try upgraded.db.scalar("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)") == nil)
        }
        let fresh = try EntityStore(path: directory + "/fresh.sqlite", now: Self.clock)
        for path in [
            "data/customers.ndjson", "data/products.json", "data/orders.json",
            "Tests/Fixtures/schema6/debian-sample.ndjson", "Tests/Fixtures/schema9/spotlight-sample.ndjson",
        ] {
            _ = try fresh.ingest(SpotlightUpgradeTests.records(path))
        }
        let expected = try Self.expected()
        #expect(expected.count > 2000)
        #expect(expected.filter { !$0.answer.isEmpty }.count > 2000)
        var refined = 0
        for (query, answer) in expected {
            // The one documented change: when the last word typed is a number, a number equal to it (or ending with
            // it from a group boundary) now ranks before numbers that merely start with it, so those answers hold
            // the same entities in another order (compared when the recorded answer is complete).
            if SearchQuery(query).ranksWholeNumbers {
                refined += 1
                guard answer.count < 50 else { continue }
                func keys(_ a: [String]) -> [String] { a.map { String($0.split(separator: " ")[0]) }.sorted() }
                #expect(try keys(Self.answer(upgraded, query)) == keys(answer), "\(query)")
                #expect(try keys(Self.answer(fresh, query)) == keys(answer), "\(query) (fresh)")
                continue
            }
            // The second (issue 36): a misspelt word being typed counts the fewest edits of any start of a word,
            // the whole word included, so its answer holds the same entities with the typos they have (scores, and
            // the order they give, may differ).
            if try Self.typesAMisspeltWord(fresh, query) {
                func keys(_ a: [String]) -> [String] { a.map { String($0.split(separator: " ")[0]) }.sorted() }
                #expect(try keys(Self.answer(upgraded, query)) == keys(answer), "\(query)")
                #expect(try keys(Self.answer(fresh, query)) == keys(answer), "\(query) (fresh)")
                continue
            }
            #expect(try Self.answer(upgraded, query) == answer, "\(query)")
            #expect(try Self.answer(fresh, query) == answer, "\(query) (fresh)")
        }
        #expect(refined < expected.count / 2)
    }
}
