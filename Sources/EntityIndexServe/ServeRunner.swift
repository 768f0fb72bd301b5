import EntityIndex
import EntityIndexPipe
import JSON

/// The methods of one HTTP request of `serve`, each run on the connection it needs: its client's batch when the
/// request names one (`Entityidx-Batch`), else a reader for a read and the writer for a write.
///
/// A request that names a batch that is no longer open gets an error for each of its methods, never a write outside
/// the batch its client believes open. Core Spotlight queries share one budget of text for the whole request (a
/// JSON-RPC batch of them compares at most what one may).
final class ServeRunner: MethodRunner {
    static let batchHeader = "Entityidx-Batch"

    let stores: ServeStores
    /// The batch the request belongs to: named by its header, or begun by one of its methods.
    private var batch: ServeBatch?
    /// Why the batch the request names cannot be used.
    private var batchProblem: EntityIndexError?
    private var reader: RequestHandler?
    /// What Core Spotlight queries may still compare in this request.
    private var spotlightRoom = EntityStore.defaultMaxSpotlightScanBytes

    init(stores: ServeStores, batchId: String?) {
        self.stores = stores
        if let batchId {
            do {
                batch = try stores.batch(batchId)
            } catch {
                batchProblem = error
            }
        }
    }

    func run(_ method: Method, _ params: JSONValue?, room: Int) throws(EntityIndexError) -> JSONValue {
        if let batchProblem { throw batchProblem }
        switch method {
        case .batchBegin:
            if let batch {
                throw EntityIndexError(
                    .batchState,
                    "this request belongs to batch \(Quoting.quoted(batch.id)) already; end it with batch.end (or batch.abort) first"
                )
            }
            _ = try Params(params, method: method.rawValue, allowed: [])
            let opened = try stores.openBatch()
            batch = opened
            return ["batch": .string(opened.id)]
        case .batchEnd, .batchAbort:
            guard let batch else {
                throw EntityIndexError(
                    .batchState,
                    "no batch is open for this request: send the header \(Self.batchHeader) with the id batch.begin returned"
                )
            }
            let result = try inBatch(batch, method, params, room: room)
            return result
        default:
            if let batch { return try inBatch(batch, method, params, room: room) }
            if method.reads {
                let reader = try takeReader()
                return try spotlight(method, on: reader) { () throws(EntityIndexError) in
                    try reader.run(method, params, room: room)
                }
            }
            return try stores.write { writer throws(EntityIndexError) in
                try spotlight(method, on: writer) { () throws(EntityIndexError) in
                    try writer.run(method, params, room: room)
                }
            }
        }
    }

    /// Runs a method in the batch, in its client's turn; forgets the batch once it ended (applied, refused or
    /// rolled back).
    private func inBatch(_ batch: ServeBatch, _ method: Method, _ params: JSONValue?, room: Int)
        throws(EntityIndexError)
        -> JSONValue
    {
        try batch.turn.take(doing: "waiting for this batch's previous request")
        guard batch.ended == nil, batch.handler.store.batchIsOpen else {
            // Ended while this request waited for its turn: it must not run on the connection outside the batch.
            let why = batch.ended ?? "it ended"
            batch.turn.leave()
            self.batch = nil
            throw ServeStores.notOpen(batch.id, why: why)
        }
        var failed = true
        defer {
            batch.lastUsed = stores.clock()
            let open = batch.handler.store.batchIsOpen
            let why =
                switch method {
                case .batchEnd where !failed: "it was applied by batch.end"
                case .batchAbort where !failed: "it was rolled back by batch.abort"
                default: "it was rolled back when its \(method.rawValue) failed"
                }
            if !open { batch.ended = why }
            batch.turn.leave()
            if !open {
                stores.close(batch, why: why)
                self.batch = nil
            }
        }
        let result = try spotlight(method, on: batch.handler) { () throws(EntityIndexError) in
            try batch.handler.run(method, params, room: room)
        }
        failed = false
        return result
    }

    /// The request's reader, taken once for all its reads.
    private func takeReader() throws(EntityIndexError) -> RequestHandler {
        if let reader { return reader }
        let taken = try stores.takeReader()
        reader = taken
        return taken
    }

    /// Runs a method with the text its Core Spotlight queries may compare cut to what the request has left (each
    /// query of a `test`'s cases too).
    private func spotlight(
        _ method: Method, on handler: RequestHandler, _ body: () throws(EntityIndexError) -> JSONValue
    ) throws(EntityIndexError) -> JSONValue {
        guard method == .spotlight || method == .userQuery || method == .test else { return try body() }
        let store = handler.store
        let limit = store.maxSpotlightScanBytes
        let room = max(0, spotlightRoom)
        var operation = store.operation
        operation.maxSpotlightScanBytes = room
        do {
            return try store.perform(operation) { () throws(EntityIndexError) -> JSONValue in
                store.resetSpotlightScan()
                defer { spotlightRoom -= store.spotlightScannedBytes }
                return try body()
            }
        } catch  where error.code == .resourceExhausted && room < limit {
            // Past the room the request's earlier queries left: say so, not "the most one query may read".
            throw EntityIndexError(
                .resourceExhausted,
                "the Core Spotlight queries of this request compare more than \(limit >> 20) MiB of text together (the most one request may read; this query had \(room >> 20) MiB left of it): send the queries in separate requests, or narrow them (whole values, prefixes, words the full-text index finds)",
                cause: error)
        }
    }

    func idle() {}

    /// Gives the reader back; a batch stays open for its client's next request.
    func finish() {
        if let reader { stores.returnReader(reader) }
        reader = nil
    }
}
