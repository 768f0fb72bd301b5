import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Each lint code on a record set that triggers it and on sets that must not.
@Suite struct LintTests {
    func rec(_ type: String, _ id: String, _ title: String, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        TestSupport.record(type, id, title, extra)
    }

    func lint(_ store: EntityStore, _ records: [JSONValue]?, within: Int = 7) throws -> LintReport {
        try store.lint(LintRequest(records: records.map(RecordSource.numbered), withinDays: within))
    }

    func findings(_ report: LintReport, _ code: LintCode) -> [LintFinding] {
        report.findings.filter { $0.code == code }
    }

    /// The `type/id` of each finding of `code`.
    func at(_ report: LintReport, _ code: LintCode) -> [String] {
        findings(report, code).map { $0.location.entity?.description ?? "?" }
    }

    @Test func invalidRecord() throws {
        let store = try TestSupport.store()
        let bad = try lint(store, [rec("order", "1", "Order #1", [("colour", "red")]), rec("order", "2", "Order #2")])
        let f = try #require(findings(bad, .invalidRecord).first)
        #expect(f.location == .input(1, line: nil, EntityKey(type: "order", id: "1")))
        #expect(f.message.contains("\"colour\"") && f.severity == .error)
        #expect(findings(try lint(store, [rec("order", "2", "Order #2")]), .invalidRecord).isEmpty)
    }

    @Test func idChanged() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("order", "1", "Crème Brûlée Set", [("domain", "shop.orders")]), rec("order", "2", "Mug"),
        ])
        let moved = rec("order", "A-1", "creme brulee set", [("domain", "shop.orders")])
        let report = try lint(store, [moved])
        #expect(at(report, .idChanged) == ["order/A-1"])
        #expect(findings(report, .idChanged).first?.others == [EntityKey(type: "order", id: "1")])
        #expect(findings(report, .idChanged).first?.message.contains("keep its id \"1\"") == true)
        #expect(findings(report, .duplicateContent).isEmpty, "an id change is not reported again as a duplicate")

        for clean in [
            [moved, rec("order", "1", "Crème Brûlée Set", [("domain", "shop.orders")])],  // the old id is pushed too
            [rec("order", "A-1", "Crème Brûlée Set", [("domain", "shop.other")])],  // another domain
            [rec("invoice", "A-1", "Crème Brûlée Set", [("domain", "shop.orders")])],  // another type
            [rec("order", "1", "Crème Brûlée Set", [("domain", "shop.orders")])],  // the same id again
            [rec("order", "A-1", "Crème Brûlée Set 2", [("domain", "shop.orders")])],
        ] {
            #expect(findings(try lint(store, clean), .idChanged).isEmpty)
        }
        #expect(findings(try lint(store, nil), .idChanged).isEmpty, "the whole index has no push to compare")
    }

    @Test func typeRenamed() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((1...4).map { rec("order", "\($0)", "Order #\($0)") })
        let renamed = (1...4).map { rec("purchase", "\($0)", "Purchase #\($0)") }
        let report = try lint(store, renamed)
        #expect(at(report, .typeRenamed) == ["purchase/1"], "one finding per new type, at its first shared id")
        #expect(findings(report, .typeRenamed).first?.message.contains("4 of its 4 ids") == true)

        let both = renamed + (1...4).map { rec("order", "\($0)", "Order #\($0)") }
        #expect(findings(try lint(store, both), .typeRenamed).isEmpty, "the old type is still pushed")
        #expect(findings(try lint(store, (1...4).map { rec("purchase", "x\($0)", "P \($0)") }), .typeRenamed).isEmpty)
        let oneShared = [rec("purchase", "1", "P 1")] + (5...8).map { rec("purchase", "\($0)", "P \($0)") }
        #expect(findings(try lint(store, oneShared), .typeRenamed).isEmpty, "fewer than half the ids are shared")
        #expect(findings(try lint(store, (1...4).map { rec("order", "\($0)", "Order #\($0)") }), .typeRenamed).isEmpty)
    }

    @Test func willExpire() throws {
        let store = try TestSupport.store(now: "2026-03-02T09:00:00Z")
        _ = try store.ingest([
            rec("task", "a", "Alpha"), rec("task", "b", "Beta"),
            rec("task", "c", "Gamma", [("expiresAt", "2026-04-02T09:00:00Z")]),
        ])
        store.operation.now = Timestamp.parse("2026-03-28T09:00:00Z")!  // the month ends on 2026-04-02
        let index = try lint(store, nil)
        #expect(at(index, .willExpire) == ["task/a", "task/b"], "c sets its own expiresAt")
        #expect(findings(index, .willExpire).first?.message.contains("2026-04-02") == true)
        #expect(findings(try lint(store, nil, within: 3), .willExpire).isEmpty, "outside a 3-day window")

        let push = try lint(store, [rec("task", "a", "Alpha")])
        #expect(at(push, .willExpire) == ["task/b"], "a is pushed again, b is left out")
        #expect(findings(push, .willExpire).first?.location.isIndexed == true)
        #expect(
            at(try lint(store, [rec("task", "a", "Alpha")], within: 40), .willExpire) == ["task/a", "task/b"],
            "a pushed now without expiresAt expires within 40 days")
    }

    @Test func duplicateContent() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("product", "p1", "Crème brûlée set", [("subtitle", "Kitchen")])])
        let report = try lint(
            store,
            [
                rec("spotlight.item", "mug", "CREME BRULEE SET", [("subtitle", "kitchen")]),
                rec("product", "p2", "Tea", [("subtitle", "Food"), ("description", "Green")]),
                rec("product", "p3", "Tea", [("subtitle", "Food"), ("description", "Green")]),
            ])
        #expect(at(report, .duplicateContent) == ["spotlight.item/mug", "product/p3"])
        #expect(findings(report, .duplicateContent).first?.others == [EntityKey(type: "product", id: "p1")])

        let clean = try lint(
            store,
            [
                rec("product", "p2", "Crème brûlée set", [("subtitle", "Dessert")]),
                rec("product", "p3", "Tea", [("subtitle", "Food"), ("description", "Green")]),
                rec("product", "p4", "Tea", [("subtitle", "Food"), ("description", "Black")]),
                rec("product", "p5", "Tea", [("subtitle", "Food")]),
            ])
        #expect(findings(clean, .duplicateContent).isEmpty)
    }

    @Test func tooLarge() throws {
        let store = try TestSupport.store()
        let big = String(repeating: "word ", count: 3400)  // 17,000 bytes
        let report = try lint(store, [rec("note", "n1", "Handbook", [("description", .string(big))])])
        #expect(at(report, .tooLarge) == ["note/n1"])
        #expect(findings(report, .tooLarge).first?.message.contains("description alone 17,000") == true)
        let fits = String(repeating: "word ", count: 3200)  // 16,000 bytes, plus title and id
        #expect(
            findings(try lint(store, [rec("note", "n1", "Handbook", [("description", .string(fits))])]), .tooLarge)
                .isEmpty)
    }

    @Test func weakDisplay() throws {
        let store = try TestSupport.store()
        let shown: [JSONValue] = (1...3).map {
            rec("order", "\($0)", "Order #\($0)", [("subtitle", "Ada"), ("image", "o.png")])
        }
        _ = try store.ingest(shown)
        let report = try lint(
            store,
            [
                rec("order", "4", "Order #4"),  // no subtitle, no image
                rec("order", "5", "1005", [("subtitle", "Ada"), ("image", "o.png")]),
                rec("order", "SKU-6", "sku 6", [("subtitle", "Ada"), ("image", "o.png")]),
                rec("order", "7", "3F2504E0-4F89-11D3-9A0C-0305E82C3301", [("subtitle", "Ada"), ("image", "o.png")]),
            ])
        #expect(at(report, .weakDisplay) == ["order/4", "order/5", "order/SKU-6", "order/7"])
        let message = findings(report, .weakDisplay).first?.message ?? ""
        #expect(message.contains("no subtitle, while 6 of the 7") && message.contains("no image"))

        let other = try TestSupport.store()
        _ = try other.ingest([rec("order", "1", "Order #1", [("subtitle", "Ada")])])
        let clean = try lint(other, [rec("order", "2", "Order #2"), rec("order", "3", "Order #1042-A")])
        #expect(findings(clean, .weakDisplay).isEmpty, "1 of 3 with a subtitle, none with an image: not most")
    }

    @Test func unreachable() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("order", "internal", "Internal order", [("hidden", true)])])
        let link: JSONValue = ["type": "order", "id": "internal"]
        let report = try lint(store, [rec("order", "1", "Order #1", [("related", [link])])])
        #expect(at(report, .unreachable) == ["order/internal"])
        #expect(findings(report, .unreachable).first?.others == [EntityKey(type: "order", id: "1")])

        for clean in [
            [rec("order", "1", "Order #1", [("related", [link]), ("hidden", true)])],  // hidden links to hidden
            [
                rec("order", "1", "Order #1", [("related", [["type": "order", "id": "2"]])]),
                rec("order", "2", "Order #2"),
            ],
            [rec("order", "1", "Order #1")],
        ] {
            #expect(findings(try lint(store, clean), .unreachable).isEmpty)
        }
    }

    @Test func domainOverlap() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("order", "1", "Order #1", [("domain", "shop.orders.2026")])])
        let report = try lint(store, [rec("note", "n1", "Checklist", [("domain", "shop")])])
        #expect(at(report, .domainOverlap) == ["note/n1"])
        #expect(findings(report, .domainOverlap).first?.message.contains("deleting domain \"shop\"") == true)
        let shared = try lint(store, [rec("note", "n1", "Checklist", [("domain", "shop.orders.2026")])])
        #expect(findings(shared, .domainOverlap).first?.message.contains("shares domain") == true)

        for clean in [
            [rec("note", "n1", "Checklist", [("domain", "sho")])],  // not a dotted prefix
            [rec("note", "n1", "Checklist", [("domain", "shop.notes")])],
            [rec("order", "2", "Order #2", [("domain", "shop")])],  // the same type nested in itself
        ] {
            #expect(findings(try lint(store, clean), .domainOverlap).isEmpty)
        }
    }

    @Test func sampleDataIsClean() throws {
        let store = try TestSupport.store(now: "2026-11-29T12:00:00Z")
        var all: [JSONValue] = []
        var files: [[JSONValue]] = []
        for file in ["customers.ndjson", "products.json", "orders.json"] {
            let text = try #require(TestSupport.read(TestSupport.repository + "/data/" + file))
            let records =
                file.hasSuffix(".ndjson")
                ? text.split(separator: "\n").map { TestSupport.json(String($0)) } : TestSupport.json(text).array ?? []
            files.append(records)
            all += records
        }
        #expect(try lint(store, all).findings.isEmpty)
        // The orders link to customers and products: alone against an empty index, every link is broken.
        let orders = try lint(store, files[2])
        #expect(!orders.findings.isEmpty && orders.findings.allSatisfy { $0.code == .brokenLink })
        // Pushed as the README does, one file after the other, each is clean against the index before it.
        let other = try TestSupport.store(now: "2026-11-29T12:00:00Z")
        for records in files {
            let report = try lint(other, records)
            #expect(report.findings.isEmpty, "\(report.findings.prefix(3))")
            _ = try other.ingest(records)
        }
        _ = try store.ingest(all)
        #expect(try lint(store, nil).findings.isEmpty)
        #expect(try lint(store, all).findings.isEmpty, "pushing the same records again")
    }

    @Test func findingsComeByCodeThenPosition() throws {
        let store = try TestSupport.store()
        let report = try lint(
            store,
            [
                rec("order", "1", "1"), rec("x", "2", "Two", [("colour", "red")]), rec("order", "3", "3"),
            ])
        #expect(report.findings.map(\.code) == [.invalidRecord, .weakDisplay, .weakDisplay])
        #expect(report.findings.map { $0.location.position } == [2, 1, 3])
        #expect(report.count(.error) == 1 && report.count(.warning) == 2 && report.records == 3)
    }

    @Test func aLimitListsTheFirstFindingsAndCountsTheOthers() throws {
        let store = try TestSupport.store()
        let records = [rec("order", "1", "1"), rec("x", "2", "Two", [("colour", "red")]), rec("order", "3", "3")]
        let all = try lint(store, records)
        let first = try store.lint(LintRequest(records: RecordSource.numbered(records), limit: 2))
        #expect(first.findings == Array(all.findings.prefix(2)))
        #expect(first.unlisted == [.weakDisplay: 1])
        #expect(first.count(.error) == 1 && first.count(.warning) == 2)
        #expect(first.counts.map(\.count) == all.counts.map(\.count))
        let none = try store.lint(LintRequest(records: RecordSource.numbered(records), limit: 0))
        #expect(none.findings.isEmpty && none.unlisted == [.invalidRecord: 1, .weakDisplay: 2])
        #expect(try store.lint(LintRequest(records: RecordSource.numbered(records), limit: 3)).unlisted.isEmpty)
    }
}
