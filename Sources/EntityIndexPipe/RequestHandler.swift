import EntityIndex
import JSON

/// Runs the methods of the contract (§3) on a store: typed requests in, typed results out.
///
/// The pipe decodes each request's params with `Method`; the CLI builds the same request values from its options.
/// Both run them through `perform`, and both encode results with the method's `encode`.
public final class RequestHandler {
    public let store: EntityStore
    /// The clock for each request: fixed by `--now`, else the wall clock.
    let clock: () -> Int64

    public init(store: EntityStore, clock: @escaping () -> Int64) {
        self.store = store
        self.clock = clock
    }

    /// Every method name.
    public static var methods: [String] { Method.names }

    /// Whether `method` exists (unknown methods are a protocol error, not an invalid-params one).
    public static func knows(_ method: String) -> Bool { Method(rawValue: method) != nil }

    /// Runs a typed request.
    public func perform<R: PipeMethod>(_ request: R) throws(EntityIndexError) -> R.Result {
        store.now = clock()
        try request.validate()
        return try request.run(on: store)
    }

    /// Runs one pipe request: decodes `params`, runs it and encodes its result.
    public func call(_ method: Method, _ params: JSONValue?) throws(EntityIndexError) -> JSONValue {
        store.now = clock()
        return try method.request.respond(to: params, on: store)
    }

    /// Runs one pipe request by method name.
    public func call(_ name: String, _ params: JSONValue?) throws(EntityIndexError) -> JSONValue {
        guard let method = Method(rawValue: name) else {
            throw EntityIndexError(.invalidParams, "unknown method \"\(name)\"")
        }
        return try call(method, params)
    }
}
