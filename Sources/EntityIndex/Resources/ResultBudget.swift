import JSON
import SQLite
import System

/// The bytes one request may put into its result, so that a request's memory is bounded whatever its limit and
/// the size of the records (10,000 results of 1 MB would be 10 GB).
///
/// Stored records are charged the size of their JSON text, highlights about the size they encode to. Past
/// `EntityStore.maxResultBytes`, or once the process's memory room could no longer hold the response being
/// built, the request fails with `resource_exhausted`, saying what to ask for instead. (A stop signal ends the
/// request at the next row read: `Statement.step`.)
final class ResultBudget {
    private(set) var bytes = 0
    let limit: Int
    /// The charge at which the memory room is read next.
    private var nextRoomCheck = ResultBudget.roomCheckStep

    /// The room is read at every MiB of result.
    static let roomCheckStep = 1 << 20

    init(limit: Int) { self.limit = limit }

    /// The stored record in a column (`entity.record`) as JSON text, charging its size.
    func recordText(_ s: Statement, _ column: Int32) throws(EntityIndexError) -> JSONText {
        let text = s.recordText(column)
        try charge(text.bytes.count)
        return text
    }

    /// Reads an entity from a row whose first columns are type, id and record.
    func entity(_ s: Statement) throws(EntityIndexError) -> EntityResult {
        EntityResult(key: EntityKey(type: s.text(0), id: s.text(1)), recordText: try recordText(s, 2))
    }

    /// Adds `count` bytes to the result.
    func charge(_ count: Int) throws(EntityIndexError) {
        bytes += count
        if bytes > limit {
            throw EntityIndexError(
                .resourceExhausted,
                "the result holds more than \(limit) bytes of records and highlights (\(limit >> 20) MiB, the most one request may return); ask for fewer entities (a smaller limit, a cursor, fewer ids)"
            )
        }
        if bytes >= nextRoomCheck {
            nextRoomCheck = bytes + Self.roomCheckStep
            // The result in memory is copied into JSON values, then encoded by doubling a buffer: about four
            // times its bytes must still fit.
            try MemoryRoom.require(4 * bytes, for: "a result of more than \(bytes >> 20) MiB")
        }
    }
}

extension EntityStore {
    /// The most bytes of stored records one request returns by default (`resource_exhausted` beyond); a store's
    /// `maxResultBytes` may lower it.
    public static let defaultMaxResultBytes = 64 << 20
}
