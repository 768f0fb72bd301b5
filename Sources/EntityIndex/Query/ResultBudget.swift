import JSON
import SQLite

/// The bytes of stored records one request may read into its result, so that a request's memory is bounded
/// whatever its limit and the size of the records (10,000 results of 1 MB would be 10 GB).
///
/// Past `EntityStore.maxResultBytes` the request fails with `resource_exhausted`, saying what to ask for instead.
final class ResultBudget {
    private(set) var bytes = 0
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Parses the stored record in a column (`entity.record`), charging the size of its JSON text.
    func record(_ s: Statement, _ column: Int32) throws(EntityIndexError) -> JSONObject {
        guard let text = StoredRecord.decode(s.borrowedBytes(column)) else { return JSONObject() }
        bytes += text.count
        if bytes > limit {
            throw EntityIndexError(
                .resourceExhausted,
                "the result holds more than \(limit) bytes of records (\(limit >> 20) MiB, the most one request may return); ask for fewer entities (a smaller limit, a cursor, fewer ids)"
            )
        }
        return (try? JSONParser().parse(text))?.object ?? JSONObject()
    }

    /// Reads an entity from a row whose first columns are type, id and record.
    func entity(_ s: Statement) throws(EntityIndexError) -> EntityResult {
        EntityResult(key: EntityKey(type: s.text(0), id: s.text(1)), record: try record(s, 2))
    }
}

extension EntityStore {
    /// The most bytes of stored records one request returns by default (`resource_exhausted` beyond); a store's
    /// `maxResultBytes` may lower it.
    public static let defaultMaxResultBytes = 64 << 20
}
