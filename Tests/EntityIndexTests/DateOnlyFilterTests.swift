import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// A filter value written as a day (`2026-11-15`) on a property of dates stands for that whole day in UTC, for each
/// comparison, with and without a sort (the sorted walk reads the same conditions).
@Suite struct DateOnlyFilterTests {
    static let times = [
        "2026-11-14T23:59:59Z", "2026-11-15T00:00:00Z", "2026-11-15T12:00:00+02:00", "2026-11-15T23:59:59.999Z",
        "2026-11-16T00:00:00Z", "2026-11-16T08:00:00Z",
    ]

    static func store() throws -> EntityStore {
        let store = try TestSupport.store()
        let records: [JSONValue] = times.enumerated().map { i, t in
            [
                "type": "order", "id": .string("\(i)"), "title": .string("Order \(i)"),
                "properties": ["placedAt": .string(t)],
            ]
        }
        _ = try store.ingest(records)
        return store
    }

    /// The ids whose time is within the condition, computed from the times themselves.
    static func expected(_ keep: (Int64) -> Bool) -> [String] {
        times.enumerated().filter { keep(Timestamp.parse($0.element)!) }.map { "\($0.offset)" }
    }

    @Test(arguments: [PropertyFilter.Op.eq, .ne, .lt, .le, .gt, .ge])
    func aDayIsTheWholeDay(_ op: PropertyFilter.Op) throws {
        let store = try Self.store()
        let start = Timestamp.parse("2026-11-15T00:00:00Z")!, end = start + Timestamp.day
        let keep: (Int64) -> Bool =
            switch op {
            case .eq: { $0 >= start && $0 < end }
            case .ne: { !($0 >= start && $0 < end) }
            case .lt: { $0 < start }
            case .le: { $0 < end }
            case .gt: { $0 >= end }
            default: { $0 >= start }
            }
        let filter = PropertyFilter(property: "placedAt", op: op, value: "2026-11-15")
        let plain = try store.query(PropertyQueryRequest(types: ["order"], filters: [filter]))
        #expect(plain.map(\.key.id).sorted() == Self.expected(keep), "\(op)")
        let sorted = try store.query(
            PropertyQueryRequest(
                types: ["order"], filters: [filter], sort: [PropertySort(property: "placedAt", descending: true)]))
        #expect(sorted.map(\.key.id) == Self.expected(keep).reversed(), "\(op), sorted")
    }

    @Test func betweenDaysTakesTheLastDayWhole() throws {
        let store = try Self.store()
        let filter = PropertyFilter(property: "placedAt", op: .between, value: ["2026-11-15", "2026-11-15"])
        let found = try store.query(PropertyQueryRequest(types: ["order"], filters: [filter]))
        #expect(found.map(\.key.id).sorted() == ["1", "2", "3"])
    }
}
