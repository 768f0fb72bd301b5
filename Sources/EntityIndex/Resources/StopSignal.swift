internal import CEntityIdx

/// SIGINT/SIGTERM, as the work of a request sees them.
///
/// The signal handler only sets a flag (`eidx_install_stop_signals`). SQLite work notices it through the progress
/// handler and each statement step; Swift work that runs long without SQLite (highlighting a large field,
/// matching long texts) calls `check` in its loops, so that a running request stops within milliseconds.
public enum StopSignal {
    /// The signal that asked to stop, or nil.
    public static var received: Int32? {
        let signal = eidx_stop_signal()
        return signal == 0 ? nil : signal
    }

    /// Installs the handler (SIGINT, SIGTERM; SIGPIPE ignored) and unblocks the signals, for a command that
    /// stops its work itself: a blocked read then returns, as the handler does not restart it.
    public static func install() { eidx_install_stop_signals() }

    /// Throws `interrupted` once a stop signal has arrived (`timed_out` or `cancelled` once the thread's request
    /// budget has run out, see `RequestBudget`).
    @inline(__always)
    public static func check(_ what: @autoclosure () -> String) throws(EntityIndexError) {
        let reason = eidx_should_stop()
        if reason != 0, let reason = RequestBudget.StopReason(rawValue: reason) {
            throw RequestBudget.error(reason, doing: what())
        }
    }
}
