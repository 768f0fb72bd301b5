import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// Faults and hostile input: each gives a clear error, changes nothing, and leaves the store usable.
@Suite struct ReliabilityTests {
    @Test func aFullDiskChangesNothing() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("task", "keep", "Kept")])
        let pages = try store.db.scalar("PRAGMA page_count")?.int ?? 0
        try store.db.execute("PRAGMA max_page_count = \(pages + 8)")
        let big = (0..<2000).map {
            TestSupport.record("task", "\($0)", "Task \($0) " + String(repeating: "lorem ipsum ", count: 20))
        }
        #expect { try store.ingest(big) } throws: { ($0 as? EntityIndexError)?.code == .diskFull }
        #expect(try store.get(type: "task", ids: ["keep", "1"]).map(\.key.id) == ["keep"])
        try store.db.execute("PRAGMA max_page_count = 1073741823")
        #expect(try store.ingest(Array(big.prefix(10))).inserted == 10, "the store works again once there is room")
    }

    @Test func aReadOnlyDatabaseSaysSoAndStillAnswers() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("task", "1", "One")])
        // What a write-protected file gives (the tests may run as root, whom file modes do not stop).
        try store.db.execute("PRAGMA query_only = 1")
        #expect { try store.ingest([TestSupport.record("task", "2", "Two")]) } throws: {
            ($0 as? EntityIndexError)?.code == .readOnly
        }
        #expect { try store.delete(DeleteRequest(all: true)) } throws: { ($0 as? EntityIndexError)?.code == .readOnly }
        #expect(try store.get(type: "task", ids: ["1", "2"]).map(\.key.id) == ["1"])
        #expect(try store.search(SearchRequest(query: "one")).map(\.key.id) == ["1"])
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndKept() throws {
        let path = TestSupport.temporaryDirectory() + "/notes.txt"
        let garbage = String(repeating: "This is not a database. ", count: 400)
        TestSupport.write(path, garbage)
        #expect { try EntityStore(path: path, now: 0) } throws: { ($0 as? EntityIndexError)?.code == .notADatabase }
        #expect(TestSupport.read(path) == garbage, "nothing is overwritten to recover")
    }

    @Test func aCorruptedPageGivesAClearError() throws {
        let dir = TestSupport.temporaryDirectory()
        let path = dir + "/i.sqlite"
        do {
            let store = try EntityStore(path: path, now: 0)
            _ = try store.ingest(
                (0..<3000).map { TestSupport.record("task", "\($0)", "Task number \($0) with some words") })
            try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // Scribble over pages in the middle of the file.
        let fd = open(path, O_WRONLY)
        var junk = [UInt8](repeating: 0xA5, count: 4096 * 4)
        _ = pwrite(fd, &junk, junk.count, 4096 * 20)
        close(fd)
        let error = useCorrupted(path)
        #expect(
            error?.code == .notADatabase || error?.code == .storage,
            "corruption was noticed: \(String(describing: error))")
    }

    /// Reads and writes everything; returns the first error.
    func useCorrupted(_ path: String) -> EntityIndexError? {
        do {
            let store = try EntityStore(path: path, now: 0)
            for q in ["task", "number", "words"] { _ = try store.search(SearchRequest(query: q, limit: 5000)) }
            _ = try store.query(PropertyQueryRequest(type: "task", filters: []))
            _ = try store.ingest((0..<3000).map { TestSupport.record("task", "\($0)", "Changed \($0)") })
            return nil
        } catch {
            return error
        }
    }

    @Test func hostileRecordsAreRejectedNamingTheProblem() throws {
        let store = try TestSupport.store()
        let cases: [(JSONValue, String)] = [
            (TestSupport.record("t", "1", String(repeating: "x", count: 10 << 20)), "bytes; the maximum is"),
            // Lists are bounded by the record's bytes, not by a count.
            (
                TestSupport.record("t", "1", "x", [("keywords", .array(Array(repeating: "k", count: 300_000)))]),
                "bytes; the maximum is"
            ),
            (
                TestSupport.record(
                    "t", "1", "x",
                    [("properties", .object(JSONObject((0..<10_001).map { (key: "p\($0)", value: JSONValue(1)) })))]),
                "has 10001 properties"
            ),
            (
                TestSupport.record("t", "1", "x", [("rankingHint", .number(JSONNumber(text: "1e308", double: 1e308)))]),
                "between 0 and 100"
            ),
            (
                TestSupport.record("t", "1", "x", [("priority", .number(JSONNumber(text: "1e300", double: 1e300)))]),
                "must be an integer"
            ),
        ]
        for (record, message) in cases {
            let error = try #require(throws: EntityIndexError.self, "a hostile record is refused (\(message))") {
                try store.ingest([record])
            }
            #expect(error.code == .invalidRecord || error.code == .limitExceeded)
            #expect(error.message.contains(message), "\(error.message.prefix(300))")
        }
        #expect(try store.stats().all.entities == 0)
    }

    @Test func textWithNULsAndControlsRoundTrips() throws {
        let store = try TestSupport.store()
        let title = "nul\u{0}inside \u{1}\u{7F} and \u{FEFF}bom \u{202E}rtl"
        _ = try store.ingest([TestSupport.record("t", "a\u{0}b", title)])
        #expect(try store.get(type: "t", ids: ["a\u{0}b"]).first?.record["title"] == .string(title))
        #expect(try store.search(SearchRequest(query: "inside")).map(\.key.id) == ["a\u{0}b"])
    }
}
