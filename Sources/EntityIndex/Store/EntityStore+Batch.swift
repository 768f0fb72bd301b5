import SQLite

extension EntityStore {
    /// Core Spotlight's limit on a batch's client state.
    public static let maxClientStateBytes = 250
    static let clientStateName = "default"

    /// Starts a batch: ingests and deletes until `endBatch` are applied together, or not at all.
    ///
    /// The batch is an open write transaction, so other writers wait for it. A read-only database, or a file replaced
    /// since it was opened, fails here already. If the process
    /// dies before `endBatch`, SQLite rolls it back: nothing of it is applied.
    public func beginBatch() throws(EntityIndexError) {
        guard !batchOpen else {
            throw EntityIndexError(.batchState, "a batch is already open; end it with batch.end first")
        }
        do {
            try prepareWrite()
            do {
                try db.execute("BEGIN IMMEDIATE")
            } catch {
                throw lockError(error)
            }
            do {
                try checkFile()
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        } catch {
            throw EntityIndexError.wrap(error, doing: "starting a batch")
        }
        batchOpen = true
    }

    /// Commits the batch with a new client state; with `expected`, only if the stored state equals it
    /// (`endIndexBatch(expectedClientState:newClientState:)`), else nothing is applied.
    public func endBatch(clientState: String, expected: String??) throws(EntityIndexError) {
        guard batchOpen else { throw EntityIndexError(.batchState, "no batch is open; call batch.begin first") }
        guard clientState.utf8.count <= Self.maxClientStateBytes else {
            throw EntityIndexError(
                .limitExceeded,
                "the client state is \(clientState.utf8.count) bytes; the maximum is \(Self.maxClientStateBytes)")
        }
        do {
            if let expected {
                let stored = try self.clientState()
                if stored != expected {
                    abortBatch()
                    throw EntityIndexError(
                        .mismatchedClientState,
                        "the stored client state is \(stored.map { "\"\($0)\"" } ?? "null"), not the expected \(expected.map { "\"\($0)\"" } ?? "null"); the batch was not applied (Core Spotlight error -1006)"
                    )
                }
            }
            try db.run(
                "INSERT INTO client_state(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                [.text(Self.clientStateName), .text(clientState)])
            try db.execute("COMMIT")
            batchOpen = false
        } catch let error as EntityIndexError {
            throw error
        } catch {
            abortBatch()
            throw EntityIndexError.wrap(error, doing: "committing the batch")
        }
    }

    /// Drops the open batch, if any: nothing of it is applied.
    public func abortBatch() {
        guard batchOpen else { return }
        batchOpen = false
        if db.isInTransaction { try? db.execute("ROLLBACK") }
    }

    /// The client state of the last committed batch (`fetchLastClientState`), nil when none.
    public func clientState() throws(EntityIndexError) -> String? {
        do {
            return try db.scalar("SELECT value FROM client_state WHERE name = ?", [.text(Self.clientStateName)])?.string
        } catch {
            throw EntityIndexError.wrap(error, doing: "reading the client state")
        }
    }
}
