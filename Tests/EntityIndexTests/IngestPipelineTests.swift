import JSON
import TestSupport
import Testing

@testable import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// The two-thread ingest (reading and analysis on one thread, writing on the other) must be indistinguishable from
/// adding the records one by one.
@Suite struct IngestPipelineTests {
    func lines(_ count: Int, bad: [Int: String] = [:]) -> String {
        (0..<count).map { i in
            bad[i]
                ?? #"{"type":"task","id":"\#(i)","title":"Task \#(i) café","keywords":["k\#(i % 7)"],"properties":{"n":\#(i),"tag":"t\#(i % 3)"}}"#
        }.joined(separator: "\n") + "\n"
    }

    func ingestFile(_ store: EntityStore, _ text: String) throws(EntityIndexError) -> IngestCounts {
        let path = TestSupport.temporaryDirectory() + "/in.ndjson"
        TestSupport.write(path, text)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let ingestion = try store.beginIngest()
        var calls = 0
        try ingestion.addAll(from: JSONStreamReader(fd: fd)) { _, _ in calls += 1 }
        return try ingestion.finish()
    }

    @Test func givesTheSameIndexAsOneByOne() throws {
        let text = lines(3000)
        let piped = try TestSupport.store(), sequential = try TestSupport.store()
        #expect(try ingestFile(piped, text) == IngestCounts(inserted: 3000))
        let oneByOne = try sequential.beginIngest()
        for line in text.split(separator: "\n") { try oneByOne.add(TestSupport.json(String(line))) }
        _ = try oneByOne.finish()
        // The piped ingest compresses its records with a dictionary trained on them, the one by one ingest with
        // deflate: the records compare as read back.
        #expect(try piped.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 1)
        #expect(try sequential.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 0)
        let entities = "SELECT rowid, type, id, id_key, title, domain, hidden, expires_at FROM entity ORDER BY rowid"
        let records = "SELECT rowid, record FROM entity ORDER BY rowid"
        #expect(
            try piped.db.rows(entities) { "\($0.int(0)) \($0.text(1)) \($0.text(2)) \($0.text(3)) \($0.text(4))" }
                == sequential.db.rows(entities) {
                    "\($0.int(0)) \($0.text(1)) \($0.text(2)) \($0.text(3)) \($0.text(4))"
                })
        #expect(
            try piped.db.rows(records) { $0.recordText(1).bytes }
                == sequential.db.rows(records) { $0.recordText(1).bytes })
        for table in ["search_doc", "property", "property_kind"] {
            let sql = "SELECT * FROM \(table) ORDER BY 1, 2, 3"
            let a = try piped.db.rows(sql) { s in (0..<s.columnCount).map { "\(s.value($0))" }.joined(separator: "|") }
            let b = try sequential.db.rows(sql) { s in
                (0..<s.columnCount).map { "\(s.value($0))" }.joined(separator: "|")
            }
            #expect(a == b, "table \(table)")
        }
        #expect(
            try piped.search(SearchRequest(query: "t2 cafe", limit: 5)).map(\.key)
                == sequential.search(SearchRequest(query: "t2 cafe", limit: 5)).map(\.key))
        #expect(try ingestFile(piped, text) == IngestCounts(unchanged: 3000))
    }

    /// The reading thread skips analyzing records it finds stored unchanged; the writer must still analyze a record
    /// that changed earlier in the same input.
    @Test func aRecordChangedEarlierInTheSameInputIsStillIndexed() throws {
        let store = try TestSupport.store()
        let v1 = #"{"type":"task","id":"a","title":"Amber lantern"}"#,
            v2 = #"{"type":"task","id":"a","title":"Cobalt kettle"}"#
        #expect(try ingestFile(store, v1 + "\n") == IngestCounts(inserted: 1))
        #expect(
            try ingestFile(store, [v1, v2, v1, v2, v1].joined(separator: "\n") + "\n")
                == IngestCounts(updated: 4, unchanged: 1))
        #expect(try store.search(SearchRequest(query: "amber")).map(\.key.id) == ["a"])
        #expect(try store.search(SearchRequest(query: "cobalt")).isEmpty)
        #expect(try store.db.scalar("INSERT INTO search(search, rank) VALUES ('integrity-check', 1)") == nil)
        #expect(try ingestFile(store, v1 + "\n") == IngestCounts(unchanged: 1))
        try store.db.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, search, 'row')")
        let missing = try store.db.rows(
            "SELECT term FROM temp.v WHERE term NOT GLOB '*[0-9]*' AND term NOT IN (SELECT term FROM vocabulary)"
        ) {
            $0.text(0)
        }
        #expect(missing == [], "every indexed word is in the vocabulary")
    }

    @Test func aListIsIngestedOnTwoThreadsWithTheSameOutcome() throws {
        let values = lines(1000, bad: [500: #"{"type":"task","id":"x","title":""}"#]).split(separator: "\n").map {
            TestSupport.json(String($0))
        }
        let store = try TestSupport.store()
        #expect(throws: EntityIndexError.self) { try store.ingest(values) }
        do { _ = try store.ingest(values) } catch { #expect(error.details.map(\.position) == [501]) }
        var good = values
        good.remove(at: 500)
        #expect(try store.ingest(good) == IngestCounts(inserted: 999))
        #expect(try store.ingest(good) == IngestCounts(unchanged: 999))
        #expect(try store.search(SearchRequest(query: "task 999")).first?.key.id == "999")
    }

    @Test func listsEveryBadRecordInOrderAndWritesNothing() throws {
        let store = try TestSupport.store()
        let text = lines(
            2000,
            bad: [5: "{not json", 1200: #"{"type":"task","id":"x"}"#, 1999: #"{"type":"task","id":"y","title":"ok"#])
        let error = try #require(throws: EntityIndexError.self) { try ingestFile(store, text) }
        #expect(error.details.map(\.position) == [6, 1201, 2000])
        #expect(error.details.map(\.line) == [6, 1201, 2000])
        #expect(try store.db.scalar("SELECT count(*) FROM entity")?.int == 0)
    }

    @Test func aBrokenArrayIsReportedAtTheElementItBreaks() throws {
        let store = try TestSupport.store()
        let error = try #require(throws: EntityIndexError.self) {
            try ingestFile(store, #"[{"type":"task","id":"1","title":"A"}, {"type":"task","id":"2","title":"B"} 7"#)
        }
        #expect(error.details.map(\.position) == [2], "the second element is not followed by , or ]")
    }

    @Test func aWriteErrorStopsTheReaderAndLeavesNothing() throws {
        let store = try TestSupport.store()
        let path = TestSupport.temporaryDirectory() + "/in.ndjson"
        TestSupport.write(path, lines(5000))
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let ingestion = try store.beginIngest()
        try store.db.execute("PRAGMA query_only = ON")  // every write now fails, with the reader far ahead
        #expect(throws: EntityIndexError.self) { try ingestion.addAll(from: JSONStreamReader(fd: fd)) { _, _ in } }
        ingestion.rollback()
        try store.db.execute("PRAGMA query_only = OFF")
        #expect(try store.db.scalar("SELECT count(*) FROM entity")?.int == 0)
        #expect(
            try store.ingest([TestSupport.record("task", "1", "After")]) == IngestCounts(inserted: 1),
            "the store still works")
    }

    @Test func theQueueKeepsOrderAndUnblocksAProducerWhenClosed() {
        let queue = HandoffQueue<Int>(capacity: 4)
        final class Flag: @unchecked Sendable { var refused = false }
        let flag = Flag()
        let thread = WorkerThread.start {
            for i in 0..<10_000 where !queue.push(i) { flag.refused = true; return }
            queue.close()
        }
        var received: [Int] = []
        var retained = 0
        while let i = queue.pop() {
            received.append(i)
            retained = max(retained, queue.retainedCount)
            if received.count == 5000 { queue.close() }
        }
        thread?.join()
        #expect(received.count >= 5000 && received.count <= 5004)
        #expect(received == Array(0..<received.count))
        #expect(flag.refused, "a producer waiting on a full queue is told when the consumer gives up")
        #expect(retained <= 8, "taken elements are released, however long the queue stays busy")
    }
}
