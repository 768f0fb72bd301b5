import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// `export`: the records as stored, by type then id, which ingest reads back into the same records.
@Suite struct ExportTests {
    static let now = "2026-03-02T09:00:00Z"

    /// A generated corpus: several types, string and integer ids, every optional field, text in several scripts,
    /// hidden entities and entities already expired.
    func corpus(_ count: Int) -> [String] {
        let words = ["crème brûlée", "東京タワー", "Straße", "widget", "tea \"green\"", "a\\b", "emoji 🍵", "tab\there"]
        return (0..<count).map { i in
            let type = ["order", "product", "customer", "note.v2"][i % 4]
            var members: [(String, JSONValue)] = [
                ("type", .string(type)),
                ("id", i % 5 == 0 ? JSONValue(i) : .string("id-\(i)-\(words[i % words.count])")),
                ("title", .string("\(words[i % words.count]) \(i)")),
            ]
            if i % 2 == 0 { members.append(("subtitle", .string("subtitle \(i % 13)"))) }
            if i % 3 == 0 { members.append(("synonyms", .array([.string("syn \(i)"), .string(words[(i + 1) % 8])]))) }
            if i % 4 == 1 { members.append(("keywords", .array([.string("k\(i % 7)")]))) }
            if i % 6 == 0 { members.append(("description", .string(String(repeating: "long text \(i) ", count: 20)))) }
            members.append(
                (
                    "properties",
                    .object(
                        JSONObject([
                            ("total", JSONValue(Double(i) * 1.25)), ("status", .string(["open", "shipped"][i % 2])),
                            ("tags", .array([.string("t\(i % 3)"), .string("t\(i % 5)")])), ("flag", .bool(i % 2 == 0)),
                            ("nothing", .null),
                        ]))
                ))
            if i % 7 == 0 { members.append(("domain", .string("shop.\(type).\(i % 3)"))) }
            if i % 9 == 0 {
                members.append(("related", .array([.object(JSONObject([("type", "order"), ("id", "id-1")]))])))
            }
            if i % 10 == 0 { members.append(("rankingHint", JSONValue(i % 100))) }
            if i % 11 == 0 { members.append(("priority", JSONValue(i % 4))) }
            if i % 12 == 0 { members.append(("lastUsedAt", .string("2026-02-0\(1 + i % 9)T10:00:00+02:00"))) }
            if i % 13 == 0 { members.append(("hidden", .bool(true))) }
            if i % 17 == 0 {
                members.append(("expiresAt", .string("2026-03-01T00:00:00Z")))
            }  // already expired
            else if i % 19 == 0 {
                members.append(("expiresAt", .string("2027-01-01T00:00:00Z")))
            }
            if i % 23 == 0 { members.append(("url", .string("https://example.com/\(i)"))) }
            return JSONWriter.string(.object(JSONObject(members)))
        }
    }

    func ingestFile(_ store: EntityStore, _ text: String) throws -> IngestCounts {
        let path = TestSupport.temporaryDirectory() + "/in.ndjson"
        TestSupport.write(path, text)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        let ingestion = try store.beginIngest()
        try ingestion.addAll(from: JSONStreamReader(fd: fd)) { _, _ in }
        return try ingestion.finish()
    }

    func export(_ store: EntityStore, types: [String] = []) throws -> (text: String, counts: ExportCounts) {
        var out: [UInt8] = []
        let counts = try store.export(types: types) { text throws(EntityIndexError) in
            out += text
            out.append(0x0A)
        }
        return (String(decoding: out, as: UTF8.self), counts)
    }

    /// Small (text and deflate forms) and large (a dictionary trained, every record in its form).
    @Test(arguments: [40, 1000])
    func anExportIngestedIntoAFreshIndexExportsTheSameBytes(_ count: Int) throws {
        let store = try TestSupport.store(now: Self.now)
        let input = corpus(count)
        let ingested = try ingestFile(store, input.joined(separator: "\n") + "\n")
        #expect(ingested.inserted == count)
        #expect(try store.db.scalar("SELECT count(*) FROM record_dictionary")?.int == (count >= 1000 ? 1 : 0))
        let (first, counts) = try export(store)
        let lines = first.split(separator: "\n").map(String.init)
        // What queries see: not the expired ones; the hidden ones, yes.
        let expired = (0..<count).filter { $0 % 17 == 0 }.count
        #expect(counts.records == count - expired)
        #expect(lines.count == counts.records)
        #expect(counts.bytes + counts.records == first.utf8.count)
        #expect(first.contains(#""hidden":true"#))
        // Each line is the record as stored, whatever its stored form.
        let stored = try store.db.rows("SELECT record FROM entity WHERE expires_at > ?", [.integer(store.now)]) {
            String(decoding: $0.recordText(0).bytes, as: UTF8.self)
        }
        #expect(Set(lines) == Set(stored))
        #expect(!first.contains(#""id":0,"#), "an integer id is exported as its string")
        // Ordered by type then id, in byte order.
        let keys = lines.map { line -> [UInt8] in
            let value = TestSupport.json(line)
            return Array(value["type"]!.string!.utf8) + [0] + Array(value["id"]!.string!.utf8)
        }
        #expect(keys == keys.sorted { $0.lexicographicallyPrecedes($1) })
        // Into the same index: every record unchanged.
        #expect(try ingestFile(store, first) == IngestCounts(unchanged: counts.records))
        // Into a fresh index: the same export, byte for byte.
        let fresh = try TestSupport.store(now: Self.now)
        #expect(try ingestFile(fresh, first) == IngestCounts(inserted: counts.records))
        #expect(try export(fresh).text == first)
    }

    /// Real records: every 80th package of Debian's package list, long descriptions included.
    @Test func debiansPackagesRoundTripByteForByte() throws {
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        let count = text.split(separator: "\n").count
        #expect(count > 700)
        let store = try TestSupport.store(now: Self.now)
        #expect(try ingestFile(store, text) == IngestCounts(inserted: count))
        let (first, counts) = try export(store)
        #expect(counts.records == count)
        #expect(try ingestFile(store, first) == IngestCounts(unchanged: count))
        let fresh = try TestSupport.store(now: Self.now)
        #expect(try ingestFile(fresh, first) == IngestCounts(inserted: count))
        #expect(try export(fresh).text == first)
    }

    @Test func typesKeepOnlyThoseTypesInByteOrder() throws {
        let store = try TestSupport.store(now: Self.now)
        _ = try ingestFile(store, corpus(40).joined(separator: "\n"))
        let all = try export(store).text.split(separator: "\n")
        let some = try export(store, types: ["product", "customer", "product"]).text.split(separator: "\n")
        #expect(some == all.filter { $0.contains(#""type":"customer""#) || $0.contains(#""type":"product""#) })
        #expect(try export(store, types: ["nothing"]).counts == ExportCounts())
    }

    @Test func anEmptyIndexExportsNothing() throws {
        let store = try TestSupport.store(now: Self.now)
        #expect(try export(store).text == "")
    }
}
