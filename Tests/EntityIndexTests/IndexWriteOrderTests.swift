import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// An ingest holds its full-text rows and writes them sorted by document id (`SearchTextIndex.writeHeldRows`): a row held
/// must never be lost, written twice, or written after a delete of the same document.
@Suite struct IndexWriteOrderTests {
    /// Titles of 1 to 6 words, so that document ids (which rank shorter titles first) go up and down.
    static func record(_ i: Int, _ words: String) -> JSONValue {
        TestSupport.json(#"{"type":"note","id":"n\#(i)","title":"\#(words)","subtitle":"entry \#(i)"}"#)
    }

    static func ids(_ store: EntityStore, _ query: String) throws -> Set<String> {
        Set(try store.search(SearchRequest(query: query, limit: 10_000)).map(\.key.id))
    }

    /// An ingest that writes a large share of the index ends with each full-text index in one segment; a small one
    /// leaves FTS5's own merging as it is.
    @Test func aLargeIngestLeavesEachIndexInOneSegment() throws {
        let store = try TestSupport.store()
        func segments(_ table: String) throws -> Int64 {
            try store.db.scalar("SELECT count(DISTINCT segid) FROM \(table)_idx")?.int ?? 0
        }
        let lengths = ["alpha", "alpha beta gamma delta", "alpha beta"]
        _ = try store.ingest((0..<30_000).map { Self.record($0, lengths[$0 % lengths.count] + " w\($0 % 997)") })
        for table in ["search", "search_title", "search_code"] { #expect(try segments(table) == 1, "\(table)") }
        _ = try store.ingest((30_000..<30_050).map { Self.record($0, "kappa") })
        #expect(try segments("search") == 2)
        #expect(try Self.ids(store, "kappa").count == 50)
        #expect(try Self.ids(store, "w996 alpha").count == 30)
        for table in ["search", "search_title", "search_code"] {
            #expect(try store.db.scalar("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)") == nil)
        }
    }

    @Test func heldRowsAreWrittenOnceInAnyOrderOfArrival() throws {
        let store = try TestSupport.store()
        let lengths = ["alpha", "alpha beta gamma delta", "alpha beta", "alpha beta gamma delta epsilon zeta"]
        var records = (0..<20_000).map { Self.record($0, lengths[$0 % lengths.count]) }
        // The same entity twice in one ingest: its first rows are still held when the second replaces them.
        records.append(Self.record(3, "omega"))
        records.append(Self.record(8, "alpha sigma"))
        #expect(try store.ingest(records) == IngestCounts(inserted: 20_000, updated: 2))
        func count(_ table: String, _ word: String) throws -> Int64? {
            try store.db.scalar("SELECT count(*) FROM \(table) WHERE \(table) MATCH ?", [.text(word)])?.int
        }
        #expect(try count("search", "alpha") == 19_999)
        #expect(try count("search_title", "alpha") == 19_999)
        #expect(try count("search_code", "n43") == Int64((0..<20_000).filter { "n\($0)".hasPrefix("n43") }.count))
        #expect(try Self.ids(store, "omega") == ["n3"])
        #expect(try Self.ids(store, "sigma") == ["n8"])
        #expect(try count("search", "entry") == 20_000)
        #expect(try store.searchPage(SearchRequest(query: "n4321")).entities.first?.key.id == "n4321")
        // FTS5 checks its structure and every posting of `search_title` against the rows it was given.
        for table in ["search", "search_title", "search_code"] {
            try store.db.execute("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 0)")
        }
    }

    @Test func aRefusedIngestLeavesNothingHeld() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([Self.record(1, "kept words")])
        let bad = TestSupport.json(#"{"type":"note","id":"x"}"#)
        #expect(throws: EntityIndexError.self) {
            _ = try store.ingest((2..<5_000).map { Self.record($0, "dropped words") } + [bad])
        }
        _ = try store.ingest([Self.record(9, "later words")])
        #expect(try Self.ids(store, "words") == ["n1", "n9"])
        #expect(try Self.ids(store, "dropped").isEmpty)
    }
}
