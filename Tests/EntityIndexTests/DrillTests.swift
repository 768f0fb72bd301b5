import EntityIndex
import JSON
import TestSupport
import Testing

/// The reindex drill on the sample data: what a restore that drops and changes entities reports.
@Suite struct DrillTests {
    func sample() throws -> [JSONValue] {
        var all: [JSONValue] = []
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let text = try #require(TestSupport.read(TestSupport.repository + "/data/" + file))
            all +=
                file.hasSuffix(".ndjson")
                ? text.split(separator: "\n").map { TestSupport.json(String($0)) } : TestSupport.json(text).array ?? []
        }
        return all
    }

    func key(_ record: JSONValue) -> EntityKey {
        let id = record["id"]?.string ?? record["id"]?.number?.text ?? ""
        return EntityKey(type: record["type"]?.string ?? "", id: id)
    }

    func setting(_ record: JSONValue, _ change: (inout JSONObject) -> Void) -> JSONValue {
        var o = record.object ?? JSONObject()
        change(&o)
        return .object(o)
    }

    @Test func restoreMissingThreeAndChangingTwo() throws {
        let store = try TestSupport.store(now: "2026-11-29T12:00:00Z")
        let records = try sample()
        _ = try store.ingest(records)
        let dropped: Set<EntityKey> = [
            EntityKey(type: "customer", id: "c5"), EntityKey(type: "product", id: "p7"),
            EntityKey(type: "order", id: "1100"),
        ]
        var restore: [JSONValue] = []
        for r in records where !dropped.contains(key(r)) {
            switch key(r) {
            case EntityKey(type: "order", id: "1042"): restore.append(setting(r) { $0["title"] = "Order 1042" })
            case EntityKey(type: "product", id: "p2"):
                restore.append(
                    setting(r) { o in
                        var p = o["properties"]?.object ?? JSONObject()
                        p["price"] = 49.5
                        o["properties"] = .object(p)
                    })
            case EntityKey(type: "product", id: "p3"):
                // Only how a number is written changes: 112.41 as 112.410 is the same value.
                restore.append(
                    setting(r) { o in
                        var p = o["properties"]?.object ?? JSONObject()
                        p["price"] = .number(JSONNumber(text: "112.410", double: 112.41))
                        o["properties"] = .object(p)
                    })
            default: restore.append(r)
            }
        }
        let report = try store.drill(restore: RecordSource.numbered(restore))
        #expect(report.indexed == 365, "order/1014 has expired")
        #expect(Set(report.missing) == dropped && report.missing.count == 3)
        #expect(
            report.changed.map(\.entity) == [
                EntityKey(type: "product", id: "p2"), EntityKey(type: "order", id: "1042"),
            ])
        #expect(report.changed.map(\.fields) == [["properties.price"], ["title"]])
        #expect(report.new.isEmpty)
        #expect(report.expired.map(\.entity) == [EntityKey(type: "order", id: "1014")])
        #expect(report.restored == 360 && report.pushed == 363 && !report.isComplete)

        let full = try store.drill(restore: RecordSource.numbered(records + [TestSupport.record("note", "n1", "New")]))
        #expect(
            full.isComplete && full.restored == 365 && full.new.map(\.entity) == [EntityKey(type: "note", id: "n1")])
    }

    @Test func badRecordsAreAnErrorNamingThem() throws {
        let store = try TestSupport.store()
        #expect {
            try store.drill(restore: RecordSource.numbered([TestSupport.record("a", "1", "A", [("colour", "red")])]))
        } throws: { error in
            let e = error as? EntityIndexError
            return e?.code == .invalidRecord && e?.message.contains("record 1 (a/1): field \"colour\"") == true
        }
    }
}
