import EntityIndex
import JSON
import TestSupport
import Testing

/// Values of more than one kind in one property: an undeclared property compares each filter with the values of
/// its own kind and sorts numbers before strings; a declared property refuses another kind.
@Suite struct MixedKindsTests {
    /// A value of the corpus: a number, a string, or none.
    enum Value { case number(Double), string(String), none }

    /// A corpus of numbers with strings and missing values among them, from a fixed seed.
    static func corpus(seed: UInt64) -> [(id: String, value: Value)] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let words = ["abc", "mno", "pending", "xyz"]
        return (0..<80).map { i in
            let r = next() % 10
            let value: Value =
                r < 6 ? .number(Double(next() % 300) / 10) : r < 8 ? .string(words[Int(next() % 4)]) : .none
            return ("e\(i)", value)
        }
    }

    static func store(_ corpus: [(id: String, value: Value)]) throws -> EntityStore {
        let store = try TestSupport.store()
        _ = try store.ingest(
            corpus.map { entity in
                var properties: [(key: String, value: JSONValue)] = [("group", .string("g"))]
                switch entity.value {
                case .number(let n): properties.append(("total", .number(JSONNumber(n))))
                case .string(let s): properties.append(("total", .string(s)))
                case .none: break
                }
                return TestSupport.record(
                    "order", entity.id, "Order \(entity.id)", [("properties", .object(JSONObject(properties)))])
            })
        return store
    }

    /// The brute-force answer: numbers that meet the comparison; sorted numbers first, then strings (bytes), then
    /// the entities without a value, ties by id.
    static func expected(
        _ corpus: [(id: String, value: Value)], op: PropertyFilter.Op?, bound: Double, descending: Bool, limit: Int?
    ) -> [String] {
        let kept = corpus.filter { entity in
            guard let op else { return true }
            guard case .number(let n) = entity.value else { return false }
            switch op {
            case .gt: return n > bound
            case .ge: return n >= bound
            case .lt: return n < bound
            case .le: return n <= bound
            case .eq: return n == bound
            default: return false
            }
        }
        func group(_ v: Value) -> Int {
            switch v {
            case .number: 0
            case .string: 1
            case .none: 2
            }
        }
        let sorted = kept.sorted { a, b in
            if group(a.value) != group(b.value) { return group(a.value) < group(b.value) }
            switch (a.value, b.value) {
            case (.number(let x), .number(let y)) where x != y: return descending ? x > y : x < y
            case (.string(let x), .string(let y)) where x != y:
                return descending ? y.utf8.lexicographicallyPrecedes(x.utf8) : x.utf8.lexicographicallyPrecedes(y.utf8)
            default: return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
            }
        }
        return sorted.prefix(limit ?? .max).map(\.id)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func filtersAndSortsAgreeWithBruteForce(seed: UInt64) throws {
        let corpus = Self.corpus(seed: seed)
        let store = try Self.store(corpus)
        var compared = 0
        for op in [nil, .gt, .ge, .lt, .le, .eq] as [PropertyFilter.Op?] {
            for bound in [0.0, 12, 25.5] {
                for descending in [false, true] {
                    for limit in [nil, 1, 4, 30] as [Int?] {
                        let filters = op.map {
                            [PropertyFilter(property: "total", op: $0, value: .number(.init(bound)))]
                        }
                        let request = PropertyQueryRequest(
                            type: "order", filters: filters ?? [],
                            sort: [.init(property: "total", descending: descending)],
                            limit: limit)
                        let got = try store.query(request).map(\.key.id)
                        let want = Self.expected(corpus, op: op, bound: bound, descending: descending, limit: limit)
                        #expect(
                            got == want,
                            "seed \(seed) \(String(describing: op)) \(bound) \(descending) \(String(describing: limit))"
                        )
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 144)
    }

    @Test func aStringFilterAnswersTheStrings() throws {
        let corpus = Self.corpus(seed: 4)
        let store = try Self.store(corpus)
        let got = try store.query(
            PropertyQueryRequest(
                type: "order", filters: [PropertyFilter(property: "total", op: .eq, value: "pending")],
                sort: [.init(property: "total")], limit: 5)
        ).map(\.key.id)
        let want = corpus.filter { if case .string("pending") = $0.value { true } else { false } }.map(\.id)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.prefix(5)
        #expect(got == Array(want))
    }

    @Test func aDeclaredPropertyRefusesAnotherKind() throws {
        let store = try TestSupport.store()
        try store.declare(type: "order", [PropertyDeclaration(name: "total", kind: .number)])
        let records = [
            TestSupport.record("order", "1", "Order 1", [("properties", ["total": 12.5])]),
            TestSupport.record("order", "2", "Order 2", [("properties", ["total": "12,50"])]),
        ]
        #expect {
            _ = try store.ingest(records)
        } throws: { error in
            let e = error as? EntityIndexError
            return e?.code == .invalidRecord && e?.message.contains("order/2") == true
                && e?.message.contains("properties.total") == true && e?.message.contains("\"12,50\"") == true
        }
        let counts = try store.ingest(records, skipInvalid: true)
        #expect(counts.skipped == 1)
        #expect(try store.query(PropertyQueryRequest(type: "order", filters: [])).map(\.key.id) == ["1"])
    }

    @Test func declaringAKindStoredValuesDoNotFitIsRefused() throws {
        let store = try Self.store([("a", .number(3)), ("b", .string("abc"))])
        #expect {
            try store.declare(type: "order", [PropertyDeclaration(name: "total", kind: .number)])
        } throws: { ($0 as? EntityIndexError)?.message.contains("order/b") == true }
        #expect(try store.declarations(for: "order").isEmpty)
    }

    @Test func lintReportsMixedKinds() throws {
        let store = try Self.store([("a", .number(3)), ("b", .number(4)), ("c", .string("abc"))])
        let report = try store.lint(LintRequest(records: nil))
        let mixed = report.findings.filter { $0.code == .mixedKinds }
        #expect(mixed.map(\.location) == [.indexed(EntityKey(type: "order", id: "c"))])
        let clean = try Self.store([("a", .number(3)), ("b", .none)])
        #expect(try clean.lint(LintRequest(records: nil)).findings.allSatisfy { $0.code != .mixedKinds })
    }
}
