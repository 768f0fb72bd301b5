internal import CEntityIdx

/// SIGINT/SIGTERM, as the work of a request sees them.
///
/// The signal handler only sets a flag (`eidx_install_stop_signals`): SQLite work notices it through the progress
/// handler and each statement step, a blocked read or `poll` returns `EINTR` (the handler does not restart it), and
/// Swift work that runs long without SQLite asks `received` (the engine's `StopSignal.check`) in its loops, so that
/// a running request stops within milliseconds. Installed once, by the command that serves or reads a stream.
public enum StopSignal {
    /// The signal that asked to stop, or nil.
    @inline(__always)
    public static var received: Int32? {
        let signal = eidx_stop_signal()
        return signal == 0 ? nil : signal
    }

    /// Installs the handler (SIGINT, SIGTERM; SIGPIPE ignored) and unblocks the signals, for a command that
    /// stops its work itself: a blocked read then returns, as the handler does not restart it.
    public static func install() { eidx_install_stop_signals() }

    /// Why the calling thread's work should stop now: 0 to go on, else a reason of `RequestBudget.StopReason` (a
    /// stop signal, or the thread's request budget running out or being cancelled).
    @inline(__always)
    public static var stopReason: Int32 { eidx_should_stop() }
}
