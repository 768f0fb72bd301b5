import Foundation
import SQLite
import Testing

/// A statement that SQLite fails with SQLITE_BUSY without calling the busy handler waits when retried.
@Suite struct BusyTests {
    /// A new file in its own directory.
    static func path() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-test-\(UUID())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("db.sqlite").path
    }

    /// While another connection holds the write lock of a file in rollback mode, `PRAGMA journal_mode = WAL` fails
    /// at once (it reads, then asks for the write lock: SQLite will not wait, lest the two wait on each other);
    /// `retryingWhileBusy` waits until the lock is let go. The holder lets go once the waiter has waited a second
    /// (`report`), so that nothing here depends on how fast the machine is.
    @Test func switchingToWALWaitsForTheWriteLock() throws {
        let path = Self.path()
        let holder = try Connection(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        let waiter = try Connection(path: path)
        waiter.waitForLocks(timeoutSeconds: 600)
        let error = try #require(throws: SQLiteError.self) { try waiter.execute("PRAGMA journal_mode = WAL") }
        #expect(error.isBusy)
        #expect(waiter.lockWait.waited == 0, "SQLite did not call the busy handler")

        waiter.waitForLocks(timeoutSeconds: 600) { _ in
            if holder.isInTransaction { try? holder.execute("COMMIT") }
        }
        let mode = try waiter.retryingWhileBusy { try waiter.scalar("PRAGMA journal_mode = WAL")?.string }
        #expect(mode == "wal")
        #expect(!holder.isInTransaction)
    }

    /// A busy statement inside a transaction is not retried: its locks are still held, so waiting cannot help.
    @Test func insideATransactionBusyIsThrown() throws {
        let path = Self.path()
        let holder = try Connection(path: path)
        try holder.execute("CREATE TABLE t(x)")
        let waiter = try Connection(path: path)
        waiter.waitForLocks(timeoutSeconds: 600)
        try waiter.execute("BEGIN")
        _ = try waiter.scalar("SELECT count(*) FROM t")
        try holder.execute("BEGIN IMMEDIATE")
        var tries = 0
        let error = try #require(throws: SQLiteError.self) {
            try waiter.retryingWhileBusy {
                tries += 1
                try waiter.execute("INSERT INTO t VALUES (1)")
            }
        }
        #expect(error.isBusy && tries == 1)
        try waiter.execute("ROLLBACK")
        try holder.execute("COMMIT")
    }
}
