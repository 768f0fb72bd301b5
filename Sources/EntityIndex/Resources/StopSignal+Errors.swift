import System

extension StopSignal {
    /// Throws `interrupted` once a stop signal has arrived (`timed_out` or `cancelled` once the thread's request
    /// budget has run out, see `RequestBudget`).
    @inline(__always)
    static func check(_ what: @autoclosure () -> String) throws(EntityIndexError) {
        let reason = stopReason
        if reason != 0, let reason = RequestBudget.StopReason(rawValue: reason) {
            throw RequestBudget.error(reason, doing: what())
        }
    }
}

extension MemoryRoom {
    /// Throws `resource_exhausted` when `need` bytes, and the margin beside them, do not fit in the room left.
    static func require(_ need: Int, for what: @autoclosure () -> String) throws(EntityIndexError) {
        if let message = shortage(need, for: what()) { throw EntityIndexError(.resourceExhausted, message) }
    }
}
