import EntityIndex
import EntityIndexPipe
import JSON
import Synchronization

/// The connections of `serve` to its index: one writer, a few readers, and one per open batch.
///
/// SQLite lets one connection write at a time, and in WAL mode readers read beside it. So a read takes a reader
/// and runs while a write runs or waits for the lock; writes take the writer one after another; a batch is an open
/// transaction on a connection of its own, which only its client's requests use (they name it, see `ServeBatch`),
/// so no other client's write is ever part of it. Each connection is used by one thread at a time.
final class ServeStores: @unchecked Sendable {
    // Safe to share: `writer` is used only by the holder of `writerTurn`, a reader only by the thread that took it
    // from `free` (under `monitor`), a batch's store only under its own turn; the lists are read and written under
    // `monitor`.
    typealias Opener = @Sendable () throws(EntityIndexError) -> RequestHandler

    private let open: Opener
    private let writer: RequestHandler
    private let writerTurn = Turn()
    private let monitor = Monitor()
    private var free: [RequestHandler] = []
    private var readers = 0
    let maxReaders: Int
    private var batches: [String: ServeBatch] = [:]
    /// Batches being opened (counted against `maxBatches`).
    private var opening = 0
    /// Why recent batches are no longer open, for the client that names one (the most recent 256).
    private var ended: [(id: String, why: String)] = []
    let maxBatches: Int
    /// Seconds a batch may go without a request before it is rolled back.
    let batchTimeout: Double
    let clock: @Sendable () -> Double

    init(
        writer: RequestHandler, open: @escaping Opener, maxReaders: Int, maxBatches: Int, batchTimeout: Double,
        clock: @escaping @Sendable () -> Double
    ) {
        self.writer = writer
        self.open = open
        self.maxReaders = maxReaders
        self.maxBatches = maxBatches
        self.batchTimeout = batchTimeout
        self.clock = clock
    }

    // MARK: - Writes and reads

    /// Runs `body` with the writer, after the writes before it.
    func write<T>(_ body: (RequestHandler) throws(EntityIndexError) -> T) throws(EntityIndexError) -> T {
        try writerTurn.take(doing: "waiting for the writes before this one")
        defer { writerTurn.leave() }
        return try body(writer)
    }

    /// Takes a reader (opening one while fewer than `maxReaders` are open), waiting for one to be free.
    func takeReader() throws(EntityIndexError) -> RequestHandler {
        enum Next {
            case reader(RequestHandler)
            case open
        }
        let next: Next = try monitor.locked { () throws(EntityIndexError) -> Next in
            while true {
                if let reader = free.popLast() { return .reader(reader) }
                if readers < maxReaders {
                    readers += 1
                    return .open
                }
                if let reason = RequestBudget.current {
                    throw RequestBudget.error(reason, doing: "waiting for a reading connection")
                }
                monitor.wait(seconds: 0.05)
            }
        }
        switch next {
        case .reader(let reader): return reader
        case .open:
            do {
                return try open()
            } catch {
                monitor.locked { readers -= 1 }
                throw error
            }
        }
    }

    func returnReader(_ reader: RequestHandler) {
        monitor.locked {
            free.append(reader)
            monitor.broadcast()
        }
    }

    // MARK: - Batches

    /// Opens a batch on a connection of its own; its transaction waits for the write lock (within the request's
    /// budget) like any write.
    func openBatch() throws(EntityIndexError) -> ServeBatch {
        let id = try monitor.locked { () throws(EntityIndexError) -> String in
            guard batches.count + opening < maxBatches else {
                throw EntityIndexError(
                    .limitExceeded,
                    "\(batches.count) batches are open, the most serve holds at once; end one (batch.end or batch.abort) or wait for an idle one to be rolled back (after \(Int(batchTimeout)) s)"
                )
            }
            opening += 1
            return "b-" + WebServer.randomHex(bytes: 16)
        }
        defer { monitor.locked { opening -= 1 } }
        let handler = try open()
        _ = try handler.run(.batchBegin, nil, room: 0)
        let batch = ServeBatch(id: id, handler: handler, now: clock())
        monitor.locked { batches[id] = batch }
        return batch
    }

    /// The open batch `id`, or the error that says why it is not open.
    func batch(_ id: String) throws(EntityIndexError) -> ServeBatch {
        try monitor.locked { () throws(EntityIndexError) -> ServeBatch in
            if let batch = batches[id] { return batch }
            let why =
                ended.last { $0.id == id }?.why
                ?? "no batch has that id (it ended, or the server restarted since it began)"
            throw Self.notOpen(id, why: why)
        }
    }

    /// Forgets a batch that ended (`why` is what a client naming it later is told).
    func close(_ batch: ServeBatch, why: String) {
        monitor.locked {
            guard batches.removeValue(forKey: batch.id) != nil else { return }
            ended.append((batch.id, why))
            if ended.count > 256 { ended.removeFirst(ended.count - 256) }
        }
    }

    /// How many batches are open (for tests and logs).
    var openBatches: Int { monitor.locked { batches.count } }

    // MARK: - Upkeep

    /// Rolls back the batches idle for longer than `batchTimeout` and lets go of a replaced file in the idle
    /// connections; never waits for a connection in use.
    func upkeep() {
        let now = clock()
        let idle = monitor.locked { batches.values.filter { now - $0.lastUsed > batchTimeout } }
        for batch in idle where batch.turn.tryTake() {
            defer { batch.turn.leave() }
            guard now - batch.lastUsed > batchTimeout, batch.handler.store.batchIsOpen else { continue }
            batch.handler.finish()
            batch.ended = "it was rolled back after \(Int(batchTimeout)) s without a request"
            close(batch, why: batch.ended!)
        }
        if writerTurn.tryTake() {
            writer.idle()
            writerTurn.leave()
        }
        let readers = monitor.locked {
            defer { free.removeAll() }
            return free
        }
        for reader in readers { reader.idle() }
        monitor.locked {
            free += readers
            monitor.broadcast()
        }
    }

    /// Rolls back every open batch (the server stops: none of them was applied).
    func closeAll() {
        let open = monitor.locked { Array(batches.values) }
        for batch in open {
            batch.turn.takeWaiting()
            batch.handler.finish()
            batch.ended = "the server stopped before it ended"
            batch.turn.leave()
            close(batch, why: batch.ended!)
        }
        writerTurn.takeWaiting()
        writer.finish()
        writerTurn.leave()
    }

    /// The refusal of a request that names a batch that is no longer open, saying why.
    static func notOpen(_ id: String, why: String) -> EntityIndexError {
        EntityIndexError(
            .batchState,
            "batch \(Quoting.quoted(id)) is not open (\(why)); this request was not run: start a new batch with batch.begin"
        )
    }
}

/// A batch of `serve`: its connection, whose open transaction holds the batch's changes, and its client's turn.
final class ServeBatch: @unchecked Sendable {
    // Safe to share: `handler` and `ended` are used only by the holder of `turn`; `lastUsed` only under it too, or
    // read by `upkeep` as a hint it checks again under the turn.
    let id: String
    let handler: RequestHandler
    let turn = Turn()
    var lastUsed: Double
    /// Why the batch is over, once it was rolled back by the server (set in its turn): a request that waited for
    /// the turn meanwhile is refused instead of running on the connection outside the batch.
    var ended: String?

    init(id: String, handler: RequestHandler, now: Double) {
        self.id = id
        self.handler = handler
        lastUsed = now
    }
}

/// One holder at a time, in the order they came, each waiting within its request's budget.
final class Turn: @unchecked Sendable {
    // Safe to share: `held`, `next` and `serving` change only under `monitor`.
    private let monitor = Monitor()
    private var held = false
    private var next: UInt64 = 0
    private var serving: UInt64 = 0

    /// Waits for the turn; throws once the running request's budget (or a stop signal) says to stop.
    func take(doing what: String) throws(EntityIndexError) {
        try monitor.locked { () throws(EntityIndexError) in
            let ticket = next
            next += 1
            while held || serving != ticket {
                if let reason = RequestBudget.current {
                    // Give the ticket up: the ones after it move on.
                    if serving == ticket {
                        serving += 1
                    } else {
                        abandoned.insert(ticket)
                    }
                    monitor.broadcast()
                    throw RequestBudget.error(reason, doing: what)
                }
                monitor.wait(seconds: 0.05)
            }
            held = true
            serving += 1
            skipAbandoned()
        }
    }

    private var abandoned = Set<UInt64>()

    private func skipAbandoned() {
        while abandoned.remove(serving) != nil { serving += 1 }
    }

    /// Takes the turn when it is free and no one waits; false otherwise.
    func tryTake() -> Bool {
        monitor.locked {
            guard !held, serving == next else { return false }
            held = true
            next += 1
            serving += 1
            return true
        }
    }

    /// Waits for the turn however long it takes (the server stopping).
    func takeWaiting() {
        monitor.locked {
            let ticket = next
            next += 1
            while held || serving != ticket { monitor.wait(seconds: 0.05) }
            held = true
            serving += 1
            skipAbandoned()
        }
    }

    func leave() {
        monitor.locked {
            held = false
            skipAbandoned()
            monitor.broadcast()
        }
    }
}
