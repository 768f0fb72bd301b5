import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// Stored records: compressed with a dictionary trained on the first records of a large ingest, read back as
/// ingested in every form (text, deflate, dictionary), recognized unchanged whatever form they are stored in.
@Suite struct StoredRecordTests {
    /// Records of a shop, alike as an application's records are.
    func lines(_ range: Range<Int>, note: String = "") -> [String] {
        range.map { i in
            #"{"type":"order","id":"\#(i)","title":"Order \#(i) for Müller","subtitle":"\#(["shipped", "pending", "returned"][i % 3])\#(note)","keywords":["k\#(i % 7)","store \#(i % 5)"],"properties":{"total":\#(i * 3),"status":"\#(["open", "closed"][i % 2])","customer":"customer-\#(i % 97)"}}"#
        }
    }

    func ingestFile(_ store: EntityStore, _ lines: [String]) throws(EntityIndexError) -> IngestCounts {
        let path = TestSupport.temporaryDirectory() + "/in.ndjson"
        TestSupport.write(path, lines.joined(separator: "\n") + "\n")
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let ingestion = try store.beginIngest()
        try ingestion.addAll(from: JSONStreamReader(fd: fd)) { _, _ in }
        return try ingestion.finish()
    }

    func forms(_ store: EntityStore) throws -> [String: Int] {
        var forms: [String: Int] = [:]
        for form in try store.db.rows(
            "SELECT typeof(record), substr(hex(record), 1, 2) FROM entity", [],
            {
                $0.text(0) == "text" ? "text" : $0.text(1)
            })
        {
            forms[form, default: 0] += 1
        }
        return forms
    }

    /// Every stored record, read back, is the record as ingested (the JSON writer's form of it).
    func expectRecordsAsIngested(_ store: EntityStore, _ lines: [String]) throws {
        let expected = Dictionary(
            uniqueKeysWithValues: lines.map { line in
                let value = TestSupport.json(line)
                return (value.object!["id"]!.string!, JSONWriter.string(value))
            })
        let stored = try store.db.rows("SELECT id, record FROM entity") {
            ($0.text(0), String(decoding: $0.recordText(1).bytes, as: UTF8.self))
        }
        #expect(stored.count == expected.count)
        for (id, text) in stored { #expect(expected[id] == text, "order \(id)") }
    }

    @Test func aLargeIngestTrainsADictionaryAndCompressesItsRecordsWithIt() throws {
        let store = try TestSupport.store()
        let input = lines(0..<3000)
        #expect(try ingestFile(store, input) == IngestCounts(inserted: 3000))
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 1)
        #expect(try forms(store) == ["02": 3000])
        try expectRecordsAsIngested(store, input)
        // Half the bytes deflate would have left, or less.
        let compressed = try store.db.scalar("SELECT sum(length(record)) FROM entity")?.int ?? 0
        let deflated = input.reduce(0) { total, line in
            switch StoredRecord(text: JSONWriter.string(TestSupport.json(line)), dictionary: nil).value {
            case .blob(let b): total + b.count
            case .text(let t): total + t.utf8.count
            default: total
            }
        }
        #expect(compressed * 2 <= deflated, "\(compressed) bytes against deflate's \(deflated)")
        // Unchanged when pushed again, and searchable, gettable, filterable as ever.
        #expect(try ingestFile(store, input) == IngestCounts(unchanged: 3000))
        #expect(try store.search(SearchRequest(query: "order 1234", limit: 1)).first?.key.id == "1234")
        #expect(try store.get(type: "order", ids: ["7"]).first?.record["subtitle"]?.string == "pending")
        #expect(try store.db.scalar("PRAGMA integrity_check")?.string == "ok")
    }

    @Test func aSmallIngestKeepsDeflateAndALaterLargeOneConvertsUnchangedRecords() throws {
        let store = try TestSupport.store()
        let first = lines(0..<100)
        #expect(try ingestFile(store, first) == IngestCounts(inserted: 100))
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 0)
        #expect(try forms(store).keys.allSatisfy { $0 == "text" || $0 == "01" })
        // The same 100 and 2,900 more: a dictionary is trained, the 100 are unchanged and take its form.
        let all = lines(0..<3000)
        #expect(try ingestFile(store, all) == IngestCounts(inserted: 2900, unchanged: 100))
        #expect(try forms(store) == ["02": 3000])
        try expectRecordsAsIngested(store, all)
        // Later ingests, large or small, compress with the dictionary the database has: no second one.
        let changed = lines(0..<400, note: " again")
        #expect(try ingestFile(store, changed) == IngestCounts(updated: 400))
        _ = try store.ingest([TestSupport.json(lines(5000..<5001)[0])])
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 1)
        #expect(try forms(store) == ["02": 3001])
        try expectRecordsAsIngested(store, changed + Array(all[400...]) + lines(5000..<5001))
    }

    /// The reading thread compares each record with the one stored before the ingest and leaves an unchanged one
    /// uncompressed; the writer, which finds it changed by an earlier record of the same input, compresses it.
    @Test func aRecordPushedBackToItsStoredTextInTheSameInputIsWrittenWhole() throws {
        let store = try TestSupport.store()
        let original = lines(0..<1000)
        _ = try ingestFile(store, original)
        let changed = lines(0..<300, note: " changed")
        #expect(try ingestFile(store, changed + original) == IngestCounts(updated: 600, unchanged: 700))
        try expectRecordsAsIngested(store, original)
        #expect(try forms(store) == ["02": 1000])
        #expect(try store.search(SearchRequest(query: "changed")).isEmpty)
        #expect(try ingestFile(store, original) == IngestCounts(unchanged: 1000))
    }

    @Test func aRefusedIngestLeavesNoDictionary() throws {
        let store = try TestSupport.store()
        var input = lines(0..<2000)
        input[1500] = #"{"type":"order","id":"x","title":""}"#
        #expect(throws: EntityIndexError.self) { try ingestFile(store, input) }
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 0)
        #expect(try store.db.scalar("SELECT count(*) FROM entity")?.int == 0)
        // The pipe's list ingest (two threads from 256 records) trains one too.
        input[1500] = lines(1500..<1501)[0]
        #expect(try store.ingest(input.map(TestSupport.json)) == IngestCounts(inserted: 2000))
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == 1)
        try expectRecordsAsIngested(store, input)
    }

    /// Another connection (a reader, a read-only process) reads the dictionary when a record first names it, also
    /// from inside a query that is stepping (Core Spotlight's record predicate).
    @Test func anotherConnectionReadsRecordsThroughTheDictionary() throws {
        let dir = TestSupport.temporaryDirectory()
        let now = Timestamp.parse("2026-03-02T09:00:00Z")!
        let writer = try EntityStore(path: dir + "/i.sqlite", now: now)
        let input = lines(0..<1000)
        _ = try ingestFile(writer, input)
        let reader = try EntityStore(path: dir + "/i.sqlite", now: now)
        try expectRecordsAsIngested(reader, input)
        for query in [#"subtitle == "pend*"c"#, #"subtitle == "*endin*"c"#, #"subtitle == "pending"w"#] {
            #expect(try reader.spotlight(SpotlightRequest(query: query, limit: 1000)).count == 333, "\(query)")
        }
        let readOnly = try Connection(path: dir + "/i.sqlite", mode: .readOnly)
        let text = try readOnly.rows("SELECT record FROM entity WHERE id = '42'") { $0.recordText(0).bytes }.first
        #expect(text.map { String(decoding: $0, as: UTF8.self) } == JSONWriter.string(TestSupport.json(input[42])))
    }

    /// A frame naming a dictionary the database does not hold reads as nothing rather than as wrong text.
    @Test func aFrameOfAnUnknownDictionaryDoesNotDecode() throws {
        let store = try TestSupport.store()
        _ = try ingestFile(store, lines(0..<1000))
        let stored = try store.db.rows("SELECT record FROM entity WHERE id = '1'") { Array($0.borrowedBytes(0)) }[0]
        #expect(stored.withUnsafeBufferPointer { StoredRecord.decode($0, store.db.recordDictionaries) } != nil)
        try store.db.run("DELETE FROM record_dictionary")
        let fresh = try Connection(path: store.path, mode: .readOnly)
        #expect(stored.withUnsafeBufferPointer { StoredRecord.decode($0, fresh.recordDictionaries) } == nil)
    }
}
