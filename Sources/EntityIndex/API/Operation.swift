/// What one request carries down to the engine: the clock it is answered at and the bounds of what it may read.
///
/// Made once by the door that received the request (a CLI command, the pipe, MCP, serve, `entityidx test`) and
/// installed for that request alone (`EntityStore.perform`): the store reads its clock and bounds from it, and
/// nothing changes them while the request runs. The request's time budget and its cancellation are the thread's
/// `RequestBudget`, which SQLite's progress and busy handlers also read.
public struct Operation: Sendable, Equatable {
    /// The request's clock (`--now`, or the wall clock when the request arrived), in milliseconds since the epoch:
    /// expiry, `$time` and date filters are computed against it.
    public var now: Int64
    /// The most bytes of stored records the answer may hold (`ResultBudget`).
    public var maxResultBytes: Int
    /// The most text the request's Core Spotlight queries may compare (`SpotlightBudget`).
    public var maxSpotlightScanBytes: Int

    public init(
        now: Int64, maxResultBytes: Int = EntityStore.defaultMaxResultBytes,
        maxSpotlightScanBytes: Int = EntityStore.defaultMaxSpotlightScanBytes
    ) {
        self.now = now
        self.maxResultBytes = maxResultBytes
        self.maxSpotlightScanBytes = maxSpotlightScanBytes
    }
}

extension EntityStore {
    /// Runs one request under its operation, then puts back the one that stood before (requests nest: `entityidx
    /// test` runs each case as a request of its own inside its own).
    public func perform<T, E: Error>(_ operation: Operation, _ body: () throws(E) -> T) throws(E) -> T {
        let standing = self.operation
        self.operation = operation
        defer { self.operation = standing }
        return try body()
    }

    /// The same operation at another clock.
    public func operation(at now: Int64) -> Operation {
        var operation = self.operation
        operation.now = now
        return operation
    }
}
