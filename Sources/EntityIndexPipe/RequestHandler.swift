import EntityIndex
import JSON

/// What runs the pipe's methods for a server: one store (`RequestHandler`, the pipe's and MCP's process), or the
/// stores of `serve`, where each request goes to a reading connection, the writer or its client's batch.
public protocol MethodRunner: AnyObject {
    /// Runs one request: decodes `params`, runs it and encodes its result, its stored records within `room` bytes.
    func run(_ method: Method, _ params: JSONValue?, room: Int) throws(EntityIndexError) -> JSONValue
    /// Called about once a second while no request comes.
    func idle()
    /// The client is gone: its open batch, if any, is rolled back.
    func finish()
}

/// Runs the methods of the contract (§3) on a store: typed requests in, typed results out.
///
/// The pipe decodes each request's params with `Method`; the CLI builds the same request values from its options.
/// Both run them through `perform`, and both encode results with the method's `encode`.
public final class RequestHandler {
    public private(set) var store: EntityStore
    /// The clock for each request: fixed by `--now`, else the wall clock.
    let clock: () -> Int64
    /// Opens the path again, for a server whose file was replaced (nil: its requests stay `database_replaced`).
    let reopen: (() throws(EntityIndexError) -> EntityStore)?
    /// Set when the store let go of a replaced file: what the next write (or, after a batch was discarded, the
    /// next request) is refused with, so that the client learns its earlier changes are not in the new file.
    private var replacement: (message: String, batchDiscarded: Bool)?

    public init(
        store: EntityStore, clock: @escaping () -> Int64,
        reopen: (() throws(EntityIndexError) -> EntityStore)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.reopen = reopen
    }

    // MARK: - A replaced file

    /// Lets go of the store's file when the path no longer names it (see `EntityStore.letGoIfReplaced`) and opens
    /// the path again; a server calls it before each request and when idle.
    public func noticeReplacement() {
        let batchOpen = store.batchIsOpen
        guard store.letGoIfReplaced() else { return }
        if replacement == nil {
            let path = store.path
            replacement = (
                "the database file \(path) was replaced by another file (or removed) after this process opened it; "
                    + (batchOpen ? "the open batch was discarded and " : "")
                    + "nothing was written. The changes acknowledged before are in the file that was moved away; the next request uses the file now at \(path)",
                batchOpen
            )
        }
        if let reopen, let fresh = try? reopen() { store = fresh }
    }

    /// Before a request: lets go of a replaced file and opens the path again (an error when that fails), and
    /// refuses the first write after a replacement (or any request, after a batch was discarded) with
    /// `database_replaced`.
    public func prepare(for method: Method) throws(EntityIndexError) {
        noticeReplacement()
        if store.isDetached {
            guard let reopen else { throw EntityIndexError(.databaseReplaced, replacement?.message ?? "") }
            store = try reopen()
        }
        if let replacement, replacement.batchDiscarded || !method.reads {
            self.replacement = nil
            throw EntityIndexError(.databaseReplaced, replacement.message)
        }
    }

    /// Every method name.
    public static var methods: [String] { Method.names }

    /// Whether `method` exists (unknown methods are a protocol error, not an invalid-params one).
    public static func knows(_ method: String) -> Bool { Method(rawValue: method) != nil }

    /// Runs a typed request.
    public func perform<R: PipeMethod>(_ request: R) throws(EntityIndexError) -> R.Result {
        try store.perform(store.operation(at: clock())) { () throws(EntityIndexError) -> R.Result in
            try request.validate()
            return try request.run(on: store)
        }
    }

    /// Runs one pipe request: decodes `params`, runs it and encodes its result.
    public func call(_ method: Method, _ params: JSONValue?) throws(EntityIndexError) -> JSONValue {
        try call(method, params, operation: store.operation(at: clock()))
    }

    /// Runs one pipe request under its operation.
    func call(_ method: Method, _ params: JSONValue?, operation: Operation) throws(EntityIndexError) -> JSONValue {
        try store.perform(operation) { () throws(EntityIndexError) -> JSONValue in
            try method.request.respond(to: params, on: store)
        }
    }

    /// Runs one pipe request by method name.
    public func call(_ name: String, _ params: JSONValue?, room: Int) throws(EntityIndexError) -> JSONValue {
        guard let method = Method(rawValue: name) else {
            throw EntityIndexError(.invalidParams, "unknown method \"\(name)\"")
        }
        return try run(method, params, room: room)
    }

    /// Runs one pipe request by method name.
    public func call(_ name: String, _ params: JSONValue?) throws(EntityIndexError) -> JSONValue {
        guard let method = Method(rawValue: name) else {
            throw EntityIndexError(.invalidParams, "unknown method \(Quoting.quoted(name))")
        }
        return try call(method, params)
    }
}

extension RequestHandler: MethodRunner {
    /// Prepares the store (a replaced file), then runs the request with its records bounded by `room`.
    public func run(_ method: Method, _ params: JSONValue?, room: Int) throws(EntityIndexError) -> JSONValue {
        try prepare(for: method)
        // The engine stops reading records once they alone would pass the room left for the response.
        var operation = store.operation(at: clock())
        operation.maxResultBytes = max(0, min(operation.maxResultBytes, room))
        return try call(method, params, operation: operation)
    }

    public func idle() { noticeReplacement() }

    public func finish() { store.abortBatch() }
}
