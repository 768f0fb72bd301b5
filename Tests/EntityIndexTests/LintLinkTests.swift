import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// `broken-link` and `duplicate-key`: links to entities nobody holds, and one entity pushed twice.
@Suite struct LintLinkTests {
    func rec(_ type: String, _ id: String, _ title: String, _ extra: [(String, JSONValue)] = []) -> JSONValue {
        TestSupport.record(type, id, title, extra)
    }

    func links(_ keys: [(String, String)]) -> (String, JSONValue) {
        ("related", .array(keys.map { ["type": .string($0.0), "id": .string($0.1)] }))
    }

    func lint(_ store: EntityStore, _ records: [JSONValue]?) throws -> LintReport {
        try store.lint(LintRequest(records: records.map(RecordSource.numbered)))
    }

    func findings(_ report: LintReport, _ code: LintCode) -> [LintFinding] {
        report.findings.filter { $0.code == code }
    }

    // MARK: - broken-link

    @Test func brokenLinkInAPush() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("customer", "c1", "Ada")])
        let report = try lint(
            store,
            [
                rec("order", "o1", "Order #1", [links([("customer", "c1"), ("customer", "c2"), ("product", "p1")])]),
                rec("product", "p1", "Mug"),  // later in the same push: not missing
            ])
        let broken = findings(report, .brokenLink)
        #expect(broken.count == 1)
        let f = try #require(broken.first)
        #expect(f.location == .input(1, line: nil, EntityKey(type: "order", id: "o1")))
        #expect(f.field == "related[1]" && f.others == [EntityKey(type: "customer", id: "c2")])
        #expect(f.severity == .warning)
        #expect(f.message.contains("customer/c2") && f.message.contains("neither in the index nor in this push"))
    }

    @Test func linksThatResolveAreNotBroken() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("customer", "c1", "Ada"), rec("customer", "secret", "Internal", [("hidden", true)])])
        for clean in [
            [rec("order", "o1", "Order #1", [links([("customer", "c1")])])],  // in the index
            [rec("order", "o1", "Order #1", [links([("customer", "c9")])]), rec("customer", "c9", "Bo")],  // pushed
            [rec("order", "o1", "Order #1", [links([("customer", "secret")])])],  // hidden is held (unreachable)
            [rec("order", "o1", "Order #1", [links([("order", "o1")])])],  // itself
            [rec("order", "o1", "Order #1")],
        ] {
            #expect(findings(try lint(store, clean), .brokenLink).isEmpty, "\(clean)")
        }
        #expect(findings(try lint(store, nil), .brokenLink).isEmpty)
    }

    /// The index as it would be after the push: a re-pushed entity links as its new record says.
    @Test func replacedEntitiesLinkAsTheirNewRecord() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("customer", "c1", "Ada"), rec("order", "o1", "Order #1", [links([("customer", "c1")])]),
        ])
        let moved = try lint(store, [rec("order", "o1", "Order #1", [links([("customer", "c3")])])])
        #expect(findings(moved, .brokenLink).map(\.field) == ["related[0]"])
        #expect(findings(try lint(store, [rec("order", "o1", "Order #1")]), .brokenLink).isEmpty)

        // An indexed entity's broken link is not the push's doing: reported by the whole-index lint only.
        _ = try store.ingest([rec("order", "o2", "Order #2", [links([("customer", "gone")])])])
        #expect(findings(try lint(store, [rec("customer", "c2", "Bo")]), .brokenLink).isEmpty)
        #expect(
            findings(try lint(store, nil), .brokenLink).map(\.location) == [
                .indexed(EntityKey(type: "order", id: "o2"))
            ])
    }

    /// The case: the contacts were deleted, and the orders still point at them.
    @Test func deletedAndExpiredTargetsAreBrokenInTheWholeIndex() throws {
        let store = try TestSupport.store(now: "2026-03-02T09:00:00Z")
        _ = try store.ingest([
            rec("contact", "k1", "Ada"), rec("contact", "k2", "Bo", [("expiresAt", "2026-03-10T00:00:00Z")]),
            rec("order", "o1", "Order #1", [links([("contact", "k1"), ("contact", "k2")])]),
            rec("order", "o2", "Order #2", [links([("contact", "k1")])]),
        ])
        #expect(findings(try lint(store, nil), .brokenLink).isEmpty)
        _ = try store.delete(DeleteRequest(type: "contact", ids: ["k1"]))
        store.operation.now = Timestamp.parse("2026-03-11T00:00:00Z")!  // k2 has expired
        let report = try lint(store, nil)
        let broken = findings(report, .brokenLink)
        #expect(
            broken.map { "\($0.location.entity!) \($0.field!) \($0.others[0])" } == [
                "order/o1 related[0] contact/k1", "order/o1 related[1] contact/k2", "order/o2 related[0] contact/k1",
            ])
        #expect(broken.allSatisfy { $0.message.contains("which is not in the index") })

        // `related` says which targets it left out.
        let related = try store.related(RelatedRequest(type: "order", id: "o1"))
        #expect(related.entities.isEmpty)
        #expect(related.missing == [EntityKey(type: "contact", id: "k1"), EntityKey(type: "contact", id: "k2")])
        #expect(try store.related(RelatedRequest(type: "contact", id: "k1", direction: .in)).missing.isEmpty)
    }

    @Test func relatedNamesNothingMissingWhenAllTargetsExist() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            rec("customer", "c1", "Ada"),
            rec("order", "o1", "Order #1", [links([("customer", "c1"), ("customer", "c1"), ("customer", "x")])]),
        ])
        let out = try store.related(RelatedRequest(type: "order", id: "o1", direction: .both))
        #expect(out.entities.map(\.key.description) == ["customer/c1"])
        #expect(out.missing == [EntityKey(type: "customer", id: "x")])
        _ = try store.ingest([rec("customer", "x", "Xavier")])
        #expect(try store.related(RelatedRequest(type: "order", id: "o1")).missing.isEmpty)
    }

    /// A record that lists many missing ids gets a few findings in related order, the last saying how many more.
    @Test func brokenLinksOfOneRecordAreCapped() throws {
        let store = try TestSupport.store()
        let targets = (0..<8).map { ("product", "gone-\($0)") }
        let report = try lint(store, [rec("order", "o1", "Order #1", [links(targets)])])
        let broken = findings(report, .brokenLink)
        #expect(broken.map(\.field) == (0..<5).map { "related[\($0)]" })
        #expect(broken.last?.message.hasSuffix("(3 more related entries of it are missing too)") == true)
        #expect(broken.dropLast().allSatisfy { !$0.message.contains("more related") })
    }

    // MARK: - duplicate-key

    @Test func duplicateKeyNamesTheFirstAndTheLastWins() throws {
        let store = try TestSupport.store()
        let push = [
            rec("note", "n1", "First"), rec("note", "n2", "Other"), rec("note", "n1", "Second"),
            rec("note", "n1", "Third"),
        ]
        let report = try lint(store, push)
        let repeats = findings(report, .duplicateKey)
        #expect(repeats.map { $0.location.position } == [3, 4])
        #expect(repeats.allSatisfy { $0.first?.position == 1 && $0.severity == .error })
        #expect(repeats[0].message.contains("of record 1 of this push") && repeats[0].message.contains("(record 4)"))
        #expect(repeats[1].message.contains("(this one)"))
        #expect(report.findings.first?.code == .duplicateKey, "an error of the push's identity comes early")

        // The ingest is unchanged: it takes the push, and the last record is what the index holds.
        let counts = try store.ingest(push)
        #expect(counts.inserted == 2 && counts.updated == 2)
        #expect(try store.get(type: "note", ids: ["n1"]).first?.record["title"] == "Third")
    }

    @Test func distinctKeysAreNoDuplicates() throws {
        let store = try TestSupport.store()
        _ = try store.ingest([rec("note", "n1", "Indexed")])
        for clean in [
            [rec("note", "n1", "Again")],  // replaces the indexed one: one record of it in the push
            [rec("note", "n1", "A"), rec("task", "n1", "B")],  // another type
            [rec("note", "n1", "A"), rec("note", "N1", "B")],  // ids are compared exactly
            [rec("note", "1", "A"), rec("note", "01", "B")],
        ] {
            #expect(findings(try lint(store, clean), .duplicateKey).isEmpty, "\(clean)")
        }
        #expect(findings(try lint(store, nil), .duplicateKey).isEmpty)
        // An invalid record does not count: only valid records reach the index.
        let invalid = [rec("note", "n2", "A", [("colour", "red")]), rec("note", "n2", "B")]
        #expect(findings(try lint(store, invalid), .duplicateKey).isEmpty)
    }
}
