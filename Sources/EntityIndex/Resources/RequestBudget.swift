internal import CEntityIdx

/// The time one request may take, and whether its client is still there: what `serve` gives each request.
///
/// A thread runs a request under its budget (`run`); SQLite's progress handler, each statement step, a wait for
/// the write lock and `StopSignal.check` then stop the work once the deadline passes or the budget is cancelled
/// (from any thread: the server's, when the client hangs up), as they do for a stop signal. What was written is
/// rolled back with its transaction, so a stopped write applies nothing. The deadline is on the monotonic clock.
public final class RequestBudget: @unchecked Sendable {
    // Safe to share: the pointer is owned here and freed in deinit; the C side reads the deadline (set once) and
    // the cancel flag (atomic) from any thread.
    private let pointer: OpaquePointer
    /// The seconds the request was given (nil: no deadline).
    public let seconds: Double?

    /// A budget of `seconds` from now (nil: no deadline, only cancellation).
    public init(seconds: Double?) {
        self.seconds = seconds
        guard let pointer = eidx_budget_new(seconds ?? 0) else { fatalError("out of memory for a request budget") }
        self.pointer = pointer
    }

    deinit { eidx_budget_free(pointer) }

    /// Stops the request at its next check (its client went away); safe from any thread.
    public func cancel() { eidx_budget_cancel(pointer) }

    /// Why the request should stop, if it should.
    public var stopReason: StopReason? { StopReason(rawValue: eidx_budget_state(pointer)) }

    /// Runs `body` on this thread under the budget (the thread's previous budget comes back after).
    public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = eidx_budget_enter(pointer)
        defer { eidx_budget_enter(previous) }
        return try body()
    }

    /// Why work stops.
    public enum StopReason: Int32, Sendable {
        case signal = 1
        case deadline = 2
        case cancelled = 3
    }

    /// Why the calling thread's work should stop now (a signal, or its request budget), nil to go on.
    public static var current: StopReason? { StopReason(rawValue: eidx_should_stop()) }

    /// The error for work stopped for `reason` while doing `what`.
    public static func error(_ reason: StopReason, doing what: String, cause: (any Error)? = nil) -> EntityIndexError {
        switch reason {
        case .signal:
            return EntityIndexError(
                .interrupted, "interrupted by a stop signal while \(what); nothing of it was applied", cause: cause)
        case .deadline:
            return EntityIndexError(
                .timedOut,
                "the request ran past its time budget while \(what); nothing of it was applied (ask for less: a narrower query, fewer records a request, a smaller page)",
                cause: cause)
        case .cancelled:
            return EntityIndexError(
                .cancelled, "the client went away while \(what); nothing of it was applied", cause: cause)
        }
    }
}
