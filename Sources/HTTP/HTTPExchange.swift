import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One request being answered away from the server's thread: the handler (or the worker it hands the request to)
/// calls `respond` once, from any thread, and the server writes the answer when it wakes.
///
/// When the client hangs up first, the server calls `onCancel` (on its own thread) and throws the answer away:
/// work that can stop early should stop.
public final class HTTPExchange: Sendable {
    /// The connection's serial number: an answer is delivered only to the connection that asked.
    let serial: UInt64
    private let inbox: ExchangeInbox
    private let state = Mutex<State>(State())

    struct State {
        var responded = false
        var cancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    init(serial: UInt64, inbox: ExchangeInbox) {
        self.serial = serial
        self.inbox = inbox
    }

    /// Delivers the answer; only the first call counts.
    public func respond(_ response: HTTPResponse) {
        let first = state.withLock { state in
            defer { state.responded = true }
            return !state.responded
        }
        if first { inbox.post(serial, response) }
    }

    /// Called once if the client goes away before the answer (at once if it already has).
    public func onCancel(_ body: @escaping @Sendable () -> Void) {
        let already = state.withLock { state in
            state.onCancel = body
            return state.cancelled
        }
        if already { body() }
    }

    /// Whether the client went away before the answer.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() {
        let body = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            return state.onCancel
        }
        body?()
    }
}

/// The answers delivered from other threads, and the pipe that wakes the server's `poll` when one arrives.
final class ExchangeInbox: Sendable {
    private let answers = Mutex<[(serial: UInt64, response: HTTPResponse)]>([])
    /// The pipe's read end (polled by the server) and write end.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws(HTTPServerError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HTTPServerError("cannot make the server's wake-up pipe") }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func post(_ serial: UInt64, _ response: HTTPResponse) {
        answers.withLock { $0.append((serial, response)) }
        var byte: UInt8 = 1
        // A full pipe already holds a wake-up: the server takes every answer when it wakes.
        _ = write(writeEnd, &byte, 1)
    }

    /// The answer delivered for `serial`, if it has come (the handler answered at once).
    func take(serial: UInt64) -> HTTPResponse? {
        answers.withLock { answers in
            guard let i = answers.firstIndex(where: { $0.serial == serial }) else { return nil }
            return answers.remove(at: i).response
        }
    }

    /// The answers delivered since the last call, the wake-up bytes drained.
    func take() -> [(serial: UInt64, response: HTTPResponse)] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(readEnd, &drain, drain.count) > 0 {}
        return answers.withLock { answers in
            defer { answers.removeAll() }
            return answers
        }
    }
}
