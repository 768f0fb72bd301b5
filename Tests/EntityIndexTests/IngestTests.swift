import Foundation
import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

@Suite struct IngestTests {
    @Test func countsInsertsUpdatesAndUnchanged() throws {
        let store = try TestSupport.store()
        #expect(
            try store.ingest([TestSupport.record("task", "1", "One"), TestSupport.record("task", "2", "Two")])
                == IngestCounts(inserted: 2))
        #expect(
            try store.ingest([TestSupport.record("task", "1", "One"), TestSupport.record("task", "2", "Two!")])
                == IngestCounts(updated: 1, unchanged: 1))
        #expect(try store.get(type: "task", ids: ["2"]).first?.record["title"] == .string("Two!"))
    }

    @Test func returnsTheRecordAsIngested() throws {
        let store = try TestSupport.store()
        let text =
            #"{"type":"order","id":1042,"title":"Order","properties":{"total":9.50,"tags":["a","b"]},"subtitle":null}"#
        _ = try store.ingest([TestSupport.json(text)])
        let e = try #require(try store.get(type: "order", ids: ["1042"]).first)
        #expect(
            JSONWriter.string(.object(e.record))
                == #"{"type":"order","id":"1042","title":"Order","properties":{"total":9.50,"tags":["a","b"]}}"#)
    }

    @Test(
        "rejects bad records naming record, field and problem",
        arguments: [
            (#"{"type":"task","id":"1","title":"x","colour":"red"}"#, "colour", "not a record field"),
            (#"{"type":"task","id":"1","title":""}"#, "title", "must not be empty"),
            (#"{"type":"task","id":"1","title":5}"#, "title", "must be a string"),
            (#"{"type":"task","id":"1"}"#, "title", "is required"),
            (#"{"type":"9x","id":"1","title":"x"}"#, "type", "must start with a letter"),
            (#"{"type":"task","id":1.5,"title":"x"}"#, "id", "string or an integer"),
            (#"{"type":"task","id":"1","title":"x","rankingHint":101}"#, "rankingHint", "between 0 and 100"),
            (#"{"type":"task","id":"1","title":"x","expiresAt":"2026-03-02"}"#, "expiresAt", "ISO-8601"),
            (#"{"type":"task","id":"1","title":"x","domain":"a..b"}"#, "domain", "dot-separated"),
            (#"{"type":"task","id":"1","title":"x","related":[{"type":"t"}]}"#, "related[0].id", "non-empty"),
            (#"{"type":"task","id":"1","title":"x","properties":{"p":{"q":1}}}"#, "properties.p", "got an object"),
            (#"{"type":"task","id":"1","title":"x","hidden":"yes"}"#, "hidden", "true or false"),
            (#"{"type":"task","id":"1","title":"x","keywords":["a",2]}"#, "keywords[1]", "must be a string"),
        ])
    func rejects(_ text: String, _ field: String, _ problem: String) throws {
        let store = try TestSupport.store()
        let error = try #require(throws: EntityIndexError.self) {
            try store.ingest([TestSupport.record("task", "0", "ok"), TestSupport.json(text)])
        }
        #expect(error.code == .invalidRecord)
        #expect(error.message.contains("record 2"))
        #expect(error.message.contains("field \"\(field)\""), "\(error.message)")
        #expect(error.message.contains(problem), "\(error.message)")
        #expect(error.details.first?.field == field)
        #expect(try store.get(type: "task", ids: ["0"]).isEmpty, "nothing of a rejected ingest is applied")
    }

    @Test func rejectsAnIdOver4096Characters() throws {
        let store = try TestSupport.store()
        #expect(throws: EntityIndexError.self) {
            try store.ingest([TestSupport.record("task", String(repeating: "x", count: 4097), "long")])
        }
        _ = try store.ingest([TestSupport.record("task", String(repeating: "x", count: 4096), "long")])
    }

    @Test func namesTheEntityInProblems() throws {
        let store = try TestSupport.store()
        let error = try #require(throws: EntityIndexError.self) {
            try store.ingest([TestSupport.json(#"{"type":"order","id":"1042","title":"x","priority":"high"}"#)])
        }
        #expect(
            error.message.contains("record 1 (order/1042): field \"priority\" must be an integer"), "\(error.message)")
    }

    @Test func oneBadRecordAmongThousandsLeavesTheDatabaseUnchanged() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((0..<100).map { TestSupport.record("task", "\($0)", "Task \($0)") })
        let before = try snapshot(store)
        var records = (0..<3000).map { TestSupport.record("task", "\($0)", "Changed \($0)") }
        records[1717] = TestSupport.json(#"{"type":"task","id":"x","title":"bad","colour":"red"}"#)
        records[2500] = TestSupport.json(#"{"type":"task","id":"y"}"#)
        let error = try #require(throws: EntityIndexError.self) { try store.ingest(records) }
        #expect(error.details.map(\.position) == [1718, 2501], "every bad record is listed")
        #expect(try snapshot(store) == before)
    }

    /// Every row of every table, as text.
    func snapshot(_ store: EntityStore) throws -> [String] {
        let tables = try store.db.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_%' ORDER BY name"
        ) { $0.text(0) }
        var rows: [String] = []
        for table in tables where table != "search" {
            rows += try store.db.rows("SELECT * FROM \"\(table)\"") { s in
                table + ":" + (0..<s.columnCount).map { "\(s.value($0))" }.joined(separator: "|")
            }
        }
        rows += try store.db.rows("SELECT rowid FROM search WHERE search MATCH 'task'") { "fts:\($0.int(0))" }
        return rows
    }

    @Test func integerIdsComeBackAsStrings() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.json(#"{"type":"task","id":7,"title":"Seven"}"#)])
        #expect(try store.get(type: "task", ids: ["7"]).first?.record["id"] == .string("7"))
    }

    @Test func idsDifferingByNormalizationAreDifferent() throws {
        let store = try TestSupport.store()
        let counts = try store.ingest([
            TestSupport.record("task", "caf\u{E9}", "NFC"), TestSupport.record("task", "cafe\u{301}", "NFD"),
        ])
        #expect(counts.inserted == 2)
        #expect(try store.get(type: "task", ids: ["cafe\u{301}"]).first?.record["title"] == .string("NFD"))
    }

    /// The FTS index is written by the engine, not by triggers: after inserts, updates (twice in one ingest too),
    /// re-declarations and deletes it must agree with the search documents, and search must see the latest text.
    @Test func theFullTextIndexStaysInStepWithTheDocuments() throws {
        let store = try TestSupport.store()
        func titles(_ q: String) throws -> [String] {
            try store.search(SearchRequest(query: q, limit: 100)).map(\.key.id).sorted()
        }
        _ = try store.ingest((1...50).map { TestSupport.record("task", "\($0)", "Alpha \($0)") })
        #expect(
            try store.ingest([
                TestSupport.record("task", "7", "Bravo"), TestSupport.record("task", "7", "Charlie"),
                TestSupport.record("task", "99", "Delta"), TestSupport.record("task", "99", "Echo"),
            ])
                == IngestCounts(inserted: 1, updated: 3))
        try store.declare(type: "task", [PropertyDeclaration(name: "label", kind: .string, indexingKey: "title")])
        _ = try store.ingest([
            TestSupport.record(
                "task", "8", "Foxtrot", [("properties", .object(JSONObject([("label", .string("golf"))])))])
        ])
        _ = try store.delete(DeleteRequest(type: "task", ids: ["9", "10"]))
        #expect(try store.db.scalar("INSERT INTO search(search, rank) VALUES ('integrity-check', 1)") == nil)
        #expect(try titles("alpha").count == 46)
        #expect(try titles("bravo").isEmpty)
        #expect(try titles("charlie") == ["7"])
        #expect(try titles("delta").isEmpty)
        #expect(try titles("echo") == ["99"])
        #expect(try titles("golf") == ["8"])
        #expect(try store.db.scalar("SELECT count(*) FROM search WHERE search MATCH 'alpha'")?.int == 46)
        // The trigram index of codes too: every document has one entry, ids replaced and deleted with it.
        #expect(try store.db.scalar("INSERT INTO search_code(search_code, rank) VALUES ('integrity-check', 1)") == nil)
        // And the index of titles and ids (schema 10).
        #expect(
            try store.db.scalar("INSERT INTO search_title(search_title, rank) VALUES ('integrity-check', 1)") == nil)
        #expect(try store.db.scalar("SELECT count(*) FROM search_title WHERE search_title MATCH 'alpha'")?.int == 46)
    }

    /// A database made by the previous release (schema 6, text version 8: `Tests/Fixtures/schema6-sample.sqlite`, the
    /// sample customers and products and one part) is upgraded when opened: the same entities, and the same search
    /// results as a database made now from the same records.
    @Test func openingADatabaseOfThePreviousSchemaKeepsItsEntitiesAndResults() throws {
        let dir = TestSupport.temporaryDirectory()
        let path = dir + "/i.sqlite"
        let fixture = try #require(
            FileManager.default.contents(atPath: TestSupport.repository + "/Tests/Fixtures/schema6-sample.sqlite"))
        #expect(FileManager.default.createFile(atPath: path, contents: fixture))
        let now = Timestamp.parse("2026-03-02T09:00:00Z")!
        let upgraded = try EntityStore(path: path, now: now)
        #expect(try upgraded.db.scalar("SELECT max(version) FROM schema_migrations")?.int == Int64(Schema.version))
        let fresh = try EntityStore(path: dir + "/fresh.sqlite", now: now)
        let customers = try #require(TestSupport.read(TestSupport.repository + "/data/customers.ndjson"))
        _ = try fresh.ingest(customers.split(separator: "\n").map { TestSupport.json(String($0)) })
        _ = try fresh.ingest(
            TestSupport.json(try #require(TestSupport.read(TestSupport.repository + "/data/products.json"))).array ?? []
        )
        _ = try fresh.ingest([
            .object(
                JSONObject([
                    ("type", "part"), ("id", "K83913.39F29.59444AT"), ("title", "Router"),
                    ("rankingHint", JSONValue(40)),
                ]))
        ])
        // Records compare as read back: the upgraded file keeps its text records, a new one stores them compressed.
        func everything(_ store: EntityStore) throws -> [String] {
            try store.db.rows("SELECT type, id FROM entity ORDER BY type, id") { ($0.text(0), $0.text(1)) }.map {
                type, id in
                "\(type)/\(id) "
                    + (try store.get(type: type, ids: [id]).map { JSONWriter.string(.object($0.record)) }.first
                        ?? "expired")
            }
        }
        #expect(try everything(upgraded) == everything(fresh))
        func results(_ store: EntityStore, _ q: String) throws -> [String] {
            try store.search(SearchRequest(query: q, limit: 50, explain: true)).map {
                "\($0.key.type)/\($0.key.id) \($0.score ?? -1) \(JSONWriter.string($0.explanation ?? .null)) \(JSONWriter.string(.object($0.record)))"
            }
        }
        for q in ["blue", "mug", "cafe", "東京", "9444", "1007", "strasse", "tea", "k", "widgte", "sku-1007-b", "müller"]
        {
            #expect(try results(upgraded, q) == results(fresh, q), "query \(q)")
        }
        for table in ["search", "search_title", "search_code"] {
            #expect(try upgraded.db.scalar("INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 1)") == nil)
        }
        _ = try upgraded.delete(DeleteRequest(type: "part", ids: ["K83913.39F29.59444AT"]))
        #expect(try upgraded.search(SearchRequest(query: "9444")).isEmpty)
        #expect(
            try upgraded.db.scalar("SELECT count(*) FROM name_key WHERE doc NOT IN (SELECT doc FROM search_doc)")?.int
                == 0)
    }

    @Test func theFirstWriteRebuildsWhenTheTextVersionChanges() throws {
        let dir = TestSupport.temporaryDirectory()
        let store = try EntityStore(path: dir + "/i.sqlite", now: Timestamp.parse("2026-03-02T09:00:00Z")!)
        _ = try store.ingest([TestSupport.record("task", "1", "Café")])
        try store.db.run("UPDATE index_version SET version = '0' WHERE name = 'search_text'")
        // An index made by another text pipeline: its entries hold other words than today's derivation gives.
        let docid = try #require(try store.db.scalar("SELECT doc FROM search_doc")?.int)
        for table in ["search", "search_title", "search_code"] {
            try store.db.execute("INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        }
        try store.db.run(
            "INSERT INTO search(rowid, title, names, subtitle, description, props, ident) VALUES (?, 'stale', '', '', '', '', '1')",
            [.integer(docid)])
        try store.db.run("INSERT INTO search_title(rowid, title, ident) VALUES (?, 'stale', '1')", [.integer(docid)])
        try store.db.run("UPDATE search_doc SET title = 'stale', text_hash = 0")
        final class Box: @unchecked Sendable { var count = 0 }
        let told = Box()
        let reader = try EntityStore(
            path: dir + "/i.sqlite", now: Timestamp.parse("2026-03-02T09:00:00Z")!, onRebuild: { told.count += $0 })
        #expect(told.count == 0 && !reader.indexesAreCurrent, "opening for a read does not rebuild")
        #expect(
            try reader.search(SearchRequest(query: "stale")).map(\.key.id) == ["1"], "an old index is still searched")
        #expect(try reader.storedStamp("search_text") == "0")
        let writer = try EntityStore(
            path: dir + "/i.sqlite", now: Timestamp.parse("2026-03-02T09:00:00Z")!, onRebuild: { told.count += $0 })
        _ = try writer.donate(type: "task", id: "1")
        #expect(told.count == 1, "the first write rebuilds, and the caller is told why it takes long")
        #expect(try writer.search(SearchRequest(query: "cafe")).map(\.key.id) == ["1"])
        // The reader, opened before, finds the version current once it holds the lock: it does not rebuild again.
        #expect(try reader.rebuild() == true)
        #expect(told.count == 1, "the rebuild is re-checked under the lock and happens once")
        #expect(try reader.search(SearchRequest(query: "cafe")).map(\.key.id) == ["1"])
    }

    @Test func refusesADatabaseFromANewerSchema() throws {
        let dir = TestSupport.temporaryDirectory()
        let store = try EntityStore(path: dir + "/i.sqlite", now: 0)
        try store.db.run("INSERT INTO schema_migrations(version, name, applied_at) VALUES (999, 'future', 'x')")
        #expect { try EntityStore(path: dir + "/i.sqlite", now: 0) } throws: {
            ($0 as? EntityIndexError)?.code == .schemaTooNew
        }
    }
}
