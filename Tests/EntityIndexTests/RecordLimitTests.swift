import EntityIndex
import JSON
import TestSupport
import Testing

/// Real records are bounded by bytes, not by counts; invalid records can be skipped instead of refusing the input.
@Suite struct RecordLimitTests {
    @Test(
        "long lists ingest and are searchable",
        arguments: [
            ("keywords", 5_000), ("synonyms", 5_000), ("related", 5_000), ("properties.provides", 20_000),
        ])
    func longListsIngest(_ field: String, _ count: Int) throws {
        let store = try TestSupport.store()
        var extra: [(String, JSONValue)]
        switch field {
        case "related":
            extra = [("related", .array((0..<count).map { ["type": "pkg", "id": .string("r\($0)")] }))]
        case "properties.provides":
            extra = [("properties", ["provides": .array((0..<count).map { .string("librust-winapi-\($0)-dev") })])]
        default:
            extra = [(field, .array((0..<count).map { .string("provided\(Self.letters($0))name") }))]
        }
        let counts = try store.ingest([TestSupport.record("pkg", "librust-winapi-dev", "librust-winapi-dev", extra)])
        #expect(counts.inserted == 1)
        if field == "keywords" || field == "synonyms" {
            let last = "provided\(Self.letters(count - 1))name"
            #expect(try store.search(SearchRequest(query: last)).map(\.key.id) == ["librust-winapi-dev"])
        }
        let stored = try store.get(type: "pkg", ids: ["librust-winapi-dev"]).first?.record
        let list = field == "properties.provides" ? stored?["properties"]?["provides"] : stored?[field]
        #expect(list?.array?.count == count)
    }

    /// A distinct word per index (`aaa`, `aab`…), so that every keyword is its own term.
    static func letters(_ n: Int) -> String {
        var n = n, s = ""
        for _ in 0..<3 { s = String(UnicodeScalar(UInt8(97 + n % 26))) + s; n /= 26 }
        return s
    }

    @Test func theRecordSizeStillBoundsLists() throws {
        let store = try TestSupport.store()
        let huge = TestSupport.record("pkg", "x", "x", [("keywords", .array((0..<200_000).map { .string("kw\($0)") }))])
        #expect(throws: EntityIndexError.self) { try store.ingest([huge]) }
    }

    @Test(
        "skipping invalid records commits the valid ones and locates every skipped one",
        arguments: [
            ([true, false, true, false, false], 2),
            ([false, false], 0),
            ([true, true], 2),
        ])
    func skipInvalid(_ bad: [Bool], _ skipped: Int) throws {
        let store = try TestSupport.store()
        let records: [JSONValue] = bad.enumerated().map { i, isBad in
            isBad
                ? TestSupport.record("pkg", "p\(i)", "Package \(i)", [("rankingHint", 140), ("colour", "red")])
                : TestSupport.record("pkg", "p\(i)", "Package \(i)")
        }
        let counts = try store.ingest(records, skipInvalid: true)
        #expect(counts.inserted == bad.filter { !$0 }.count)
        #expect(counts.skipped == skipped)
        let positions = bad.enumerated().filter(\.element).map { $0.offset + 1 }
        #expect(Set(counts.problems.map(\.position)) == Set(positions))
        #expect(counts.problems.count == 2 * skipped, "both problems of each bad record")
        #expect(counts.problems.allSatisfy { $0.entity != nil && $0.field != nil })
        for (i, isBad) in bad.enumerated() {
            #expect(try store.get(type: "pkg", ids: ["p\(i)"]).isEmpty == isBad)
        }
        // All or nothing stays the default.
        let strict = try TestSupport.store()
        if skipped > 0 {
            #expect(throws: EntityIndexError.self) { try strict.ingest(records) }
            #expect(try strict.get(type: "pkg", ids: ["p1"]).isEmpty)
        }
    }
}
