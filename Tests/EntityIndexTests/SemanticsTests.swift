import JSON
import TestSupport
import Testing

@testable import EntityIndex

@Suite struct SemanticsTests {
    func rec(_ id: String, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        TestSupport.record("task", id, "Task \(id)", extra)
    }

    @Test func getKeepsOrderAndSkipsMissing() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((1...5).map { rec("\($0)") })
        #expect(try store.get(type: "task", ids: ["4", "zzz", "2", "4"]).map(\.key.id) == ["4", "2"])
    }

    @Test func suggestionsFollowPriorityThenEngagement() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("low"), rec("used", [("lastUsedAt", "2026-03-01T09:00:00Z")]), rec("donated"),
            rec("important", [("priority", 5)]), rec("hidden", [("hidden", true), ("priority", 9)]),
            rec("hinted", [("rankingHint", 80)]),
        ])
        #expect(try store.donate(type: "task", id: "donated"))
        #expect(try store.donate(type: "task", id: "donated") == false, "a repeat inside the window counts once")
        store.operation.now += 10 * 60 * 1000
        #expect(try store.donate(type: "task", id: "donated"))
        let ids = try store.suggest(type: "task", limit: 10).map(\.key.id)
        #expect(ids == ["important", "donated", "used", "hinted", "low"])
    }

    @Test func allPagesWithoutSkippingOrRepeating() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((10..<30).map { rec("\($0)") })
        var seen: [String] = []
        var cursor: String?
        var round = 0
        repeat {
            let page = try store.all(type: "task", limit: 7, cursor: cursor)
            seen += page.entities.map(\.key.id)
            cursor = page.nextCursor
            // Entities inserted between pages, before and after the cursor.
            _ = try store.ingest([rec("0\(round)"), rec("9\(round)")])
            round += 1
        } while cursor != nil
        #expect(Set(seen).count == seen.count, "nothing repeated")
        #expect((10..<30).allSatisfy { seen.contains("\($0)") }, "nothing skipped")
    }

    @Test func propertyQueries() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec(
                "1",
                [
                    (
                        "properties",
                        [
                            "total": 9.5, "status": "Shipped", "tags": ["gift"], "at": "2026-01-10T10:00:00+02:00",
                            "name": "Crème",
                        ]
                    )
                ]),
            rec(
                "2",
                [("properties", ["total": 100, "status": "open", "at": "2026-01-09T10:00:00Z", "name": "Apple pie"])]),
            rec(
                "3",
                [
                    (
                        "properties",
                        [
                            "total": 20, "status": "shipped", "tags": ["gift", "bulk"], "at": "2026-01-10T09:00:00Z",
                            "name": "crepe",
                        ]
                    )
                ]),
            rec("4", [("properties", ["status": "open"])]),
        ])
        func q(
            _ filters: [PropertyFilter], mode: PropertyQueryRequest.Mode = .and, sort: [PropertySort] = [],
            limit: Int? = nil
        ) throws -> [String] {
            try store.query(PropertyQueryRequest(type: "task", filters: filters, mode: mode, sort: sort, limit: limit))
                .map(\.key.id)
        }
        #expect(
            try q([.init(property: "total", op: .ge, value: 10)], sort: [.init(property: "total", descending: true)])
                == ["2", "3"])
        #expect(try q([.init(property: "status", op: .eq, value: "SHIPPED")]) == ["1", "3"])
        #expect(try q([.init(property: "status", op: .ne, value: "open")]) == ["1", "3"])
        #expect(try q([.init(property: "tags", op: .contains, value: "bulk")]) == ["3"])
        #expect(
            try q([.init(property: "tags", op: .notContains, value: "bulk")]) == ["1"],
            "an entity without the property matches no filter")
        #expect(
            try q([.init(property: "total", op: .between, value: [9.5, 20])]) == ["1", "3"], "between is inclusive")
        #expect(
            try q([.init(property: "name", op: .hasPrefix, value: "cre")]) == ["1", "3"],
            "strings ignore case and accents")
        #expect(try q([.init(property: "name", op: .hasSuffix, value: "PIE")]) == ["2"])
        #expect(try q([.init(property: "name", op: .contains, value: "pl")]) == ["2"])
        // Task 1 is at 10:00+02:00, that is 08:00Z: before task 3 (09:00Z) although its local time is later.
        #expect(
            try q([.init(property: "at", op: .lt, value: "2026-01-10T08:30:00Z")]) == ["1", "2"],
            "dates compare chronologically, zones included")
        #expect(
            try q(
                [.init(property: "at", op: .gt, value: "2026-01-10T07:30:00Z")],
                sort: [.init(property: "at", descending: true)]) == ["3", "1"])
        #expect(
            try q(
                [.init(property: "total", op: .lt, value: 15), .init(property: "status", op: .eq, value: "open")],
                mode: .or) == ["1", "2", "4"])
        #expect(try q([], sort: [.init(property: "total", descending: true)], limit: 2) == ["2", "3"])
        #expect(throws: EntityIndexError.self) { try q([.init(property: "colour", op: .eq, value: 1)]) }
        #expect(throws: EntityIndexError.self) { try q([.init(property: "total", op: .hasPrefix, value: "1")]) }
        #expect(throws: EntityIndexError.self) { try q([.init(property: "status", op: .gt, value: 3)]) }
    }

    /// A sorted query with a limit walks the sort index (bounded by filters on the sort property, and without the
    /// general plan when such a filter rules out entities lacking the property); it must agree with the general plan.
    @Test func sortedLimitedQueriesAgreeWithTheGeneralPlan() throws {
        let store = try TestSupport.store()
        var records: [JSONValue] = []
        for i in 0..<80 {
            var properties: [(String, JSONValue)] = [("status", .string(i % 3 == 0 ? "open" : "paid"))]
            if i % 7 != 0 {
                properties.append(("total", i % 11 == 0 ? .null : .number(JSONNumber(Double((i * 7) % 50)))))
            }
            records.append(
                TestSupport.record(
                    "task", "t\(i)", "Task",
                    [("properties", .object(JSONObject(properties.map { (key: $0.0, value: $0.1) })))]))
            // A type where the sort property is sometimes an array: no shortcut applies.
            let total: JSONValue =
                i % 4 == 0
                ? .array([.number(JSONNumber(Double(i % 30))), .number(JSONNumber(Double(45 - i % 30)))])
                : .number(JSONNumber(Double(i % 30)))
            records.append(
                TestSupport.record(
                    "bag", "b\(i)", "Bag",
                    [
                        (
                            "properties",
                            .object(
                                JSONObject([
                                    (key: "total", value: total),
                                    (key: "status", value: .string(i % 2 == 0 ? "open" : "paid")),
                                ]))
                        )
                    ]))
        }
        _ = try store.ingest(records)
        let filterSets: [[PropertyFilter]] = [
            [.init(property: "total", op: .ge, value: 40)], [.init(property: "total", op: .lt, value: 5)],
            [.init(property: "total", op: .between, value: [10, 12])], [.init(property: "total", op: .eq, value: 21)],
            [.init(property: "total", op: .ne, value: 21)], [.init(property: "status", op: .eq, value: "open")],
            [.init(property: "total", op: .gt, value: 30), .init(property: "status", op: .eq, value: "open")],
            [.init(property: "total", op: .le, value: 3), .init(property: "total", op: .ge, value: 1)], [],
        ]
        var compared = 0
        for type in ["task", "bag"] {
            for filters in filterSets {
                for descending in [true, false] {
                    let sort = [PropertySort(property: "total", descending: descending)]
                    let all = try store.query(PropertyQueryRequest(type: type, filters: filters, sort: sort)).map(
                        \.key.id)
                    for limit in [1, 3, 10, 200] {
                        let limited = try store.query(
                            PropertyQueryRequest(type: type, filters: filters, sort: sort, limit: limit)
                        ).map(\.key.id)
                        #expect(
                            limited == Array(all.prefix(limit)),
                            "\(type) \(filters.map { "\($0.property) \($0.op) \($0.value)" }) \(descending) \(limit)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 144)
    }

    @Test func declaredDatesAndUnsortable() throws {
        let store = try TestSupport.store()
        try store.declare(
            type: "task",
            [
                PropertyDeclaration(name: "due", kind: .date),
                PropertyDeclaration(name: "note", kind: .string, sortable: false),
            ])
        _ = try store.ingest([
            rec("1", [("properties", ["due": "2026-05-01T00:00:00Z", "note": "b"])]),
            rec("2", [("properties", ["due": "2026-04-01T00:00:00-05:00", "note": "a"])]),
        ])
        #expect(
            try store.query(PropertyQueryRequest(type: "task", filters: [], sort: [.init(property: "due")])).map(
                \.key.id) == ["2", "1"])
        #expect(throws: EntityIndexError.self) {
            try store.query(PropertyQueryRequest(type: "task", filters: [], sort: [.init(property: "note")]))
        }
    }

    @Test func relatedInBothDirections() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("customer", "c1", "Ada"),
            TestSupport.json(
                #"{"type":"order","id":"o1","title":"Order","related":[{"type":"product","id":"p9"},{"type":"customer","id":"c1"},{"type":"product","id":"gone"}]}"#
            ),
            TestSupport.json(
                #"{"type":"order","id":"o2","title":"Order 2","hidden":true,"related":[{"type":"customer","id":"c1"}]}"#
            ),
            TestSupport.record("product", "p9", "Lamp"),
        ])
        #expect(
            try store.related(type: "order", id: "o1", direction: .out).map(\.key.description) == [
                "product/p9", "customer/c1",
            ])
        #expect(
            try store.related(type: "customer", id: "c1", direction: .in).map(\.key.description) == [
                "order/o1", "order/o2",
            ])
        #expect(try store.related(type: "customer", id: "ghost", direction: .in).isEmpty)
        #expect { try store.related(type: "order", id: "nope", direction: .out) } throws: {
            ($0 as? EntityIndexError)?.code == .notFound
        }
    }

    @Test func deleteByDomainTypeIdsAndAll() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("1", [("domain", "work")]), rec("2", [("domain", "work.q1")]), rec("3", [("domain", "workshop")]),
            rec("4", [("domain", "home")]), TestSupport.record("note", "n", "Note"),
        ])
        #expect(try store.delete(DeleteRequest(domains: ["work"])) == 2)
        #expect(try store.get(type: "task", ids: ["1", "2", "3", "4"]).map(\.key.id) == ["3", "4"])
        #expect(try store.delete(DeleteRequest(type: "task", ids: ["3"])) == 1)
        #expect(try store.delete(DeleteRequest(type: "task")) == 1)
        try store.beginBatch()
        try store.endBatch(clientState: "s1", expected: nil)
        #expect(try store.delete(DeleteRequest(all: true)) == 1)
        #expect(try store.clientState() == nil, "deleting everything resets the client state")
    }

    @Test func batchesAreAtomicWithCompareAndSwap() throws {
        let store = try TestSupport.store()
        try store.beginBatch()
        _ = try store.ingest([rec("1")])
        try store.endBatch(clientState: "v1", expected: nil)
        try store.beginBatch()
        _ = try store.ingest([rec("2")])
        _ = try store.delete(DeleteRequest(type: "task", ids: ["1"]))
        #expect { try store.endBatch(clientState: "v2", expected: .some("v0")) } throws: {
            ($0 as? EntityIndexError)?.code == .mismatchedClientState
        }
        #expect(try store.get(type: "task", ids: ["1", "2"]).map(\.key.id) == ["1"])
        #expect(try store.clientState() == "v1")
        try store.beginBatch()
        #expect(throws: EntityIndexError.self) { try store.ingest([rec("3"), TestSupport.json(#"{"type":"task"}"#)]) }
        _ = try store.ingest([rec("4")])
        try store.endBatch(clientState: "v2", expected: .some("v1"))
        #expect(
            try store.get(type: "task", ids: ["3", "4"]).map(\.key.id) == ["4"],
            "a failed ingest inside a batch does not spoil it")
        #expect(throws: EntityIndexError.self) {
            try store.endBatch(clientState: String(repeating: "x", count: 251), expected: nil)
        }
    }

    @Test func expiryDefaultsToAMonthAndIsRenewed() throws {
        let store = try TestSupport.store(now: "2026-03-02T09:00:00Z")
        _ = try store.ingest([rec("1"), rec("2", [("expiresAt", "2026-03-05T00:00:00Z")])])
        store.operation.now = Timestamp.parse("2026-03-10T00:00:00Z")!
        #expect(try store.get(type: "task", ids: ["1", "2"]).map(\.key.id) == ["1"])
        let stats = try store.stats()
        #expect(stats.all.expired == 1)
        store.operation.now = Timestamp.parse("2026-03-30T00:00:00Z")!
        #expect(try store.stats().all.expiringSoon == 1, "expires 2026-04-02, within 7 days")
        #expect(try store.ingest([rec("1")]).unchanged == 1)
        store.operation.now = Timestamp.parse("2026-04-20T00:00:00Z")!
        #expect(
            try store.get(type: "task", ids: ["1"]).map(\.key.id) == ["1"], "an unchanged re-ingest renews the month")
        store.operation.now = Timestamp.parse("2026-05-01T00:00:00Z")!
        #expect(try store.get(type: "task", ids: ["1"]).isEmpty)
        _ = try store.ingest([TestSupport.record("note", "x", "x")])
        #expect(try store.stats().all.expired == 0, "a write purges expired entities")
    }

    @Test func reindexRequestsTrackWhatWasNotRepushed() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((1...3).map { rec("\($0)") } + [TestSupport.record("note", "n", "Note")])
        let whole = try store.requestReindex(type: "task", ids: nil)
        let some = try store.requestReindex(type: "task", ids: ["3", "9"])
        let everything = try store.requestReindex(type: nil, ids: nil)
        _ = try store.ingest([rec("2")])
        _ = try store.delete(DeleteRequest(type: "task", ids: ["3"]))
        let pending = Dictionary(uniqueKeysWithValues: try store.pendingReindex().map { ($0.requestId, $0) })
        #expect(pending[whole]?.outstanding.map(\.id) == ["1"])
        #expect(pending[some]?.outstanding.map(\.id) == ["9"])
        #expect(pending[everything]?.outstanding.map(\.description) == ["note/n", "task/1"])
        try store.acknowledgeReindex(whole)
        #expect(try store.pendingReindex().map(\.requestId) == [some, everything])
        #expect(throws: EntityIndexError.self) { try store.acknowledgeReindex(whole) }
    }

    @Test func statsReportsVersionsAndCounts() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("1"), rec("2", [("hidden", true)]), TestSupport.record("note", "n", "Note")])
        let s = try store.stats()
        #expect(s.all.entities == 3)
        #expect(s.all.hidden == 1)
        #expect(s.types.first { $0.type == "task" }?.counts.entities == 2)
        #expect(s.icuVersion.hasPrefix("7"))
        #expect(s.sqliteVersion.hasPrefix("3."))
    }
}
