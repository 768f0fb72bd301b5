import SQLite

/// A file moved over the database (or the database removed) while this store has it open.
///
/// SQLite keeps a database's `-wal` and `-shm` beside its path, and nothing in them names the file they belong to:
/// the changes this store committed and that are not yet in its file sit in the `-wal` at the path, where the next
/// process to open the file now at the path would apply them to it (and a checkpoint would write them into it).
/// So a store that finds its file replaced lets go of it: its changes are written into its own file (the one moved
/// away, through the descriptor it holds), the `-wal` at the path is emptied, and the connection is closed without
/// touching the `-wal` and `-shm` again. `DatabaseFile.checkWALIndexIsItsOwn` is the other side: an opener waits
/// while another process still uses them for another file.
extension EntityStore {
    /// The device and inode the path names now, nil when it names nothing.
    var currentIdentity: DatabaseFile.Identity? {
        DatabaseFile.identity(path.hasPrefix("file:") ? "./" + path : path)
    }

    /// Whether the path no longer names the file this store opened (another file was moved over it, or it was
    /// removed).
    public var fileIsReplaced: Bool {
        guard let identity else { return false }
        return isDetached || currentIdentity != identity
    }

    /// Lets go of the file when the path no longer names it; returns whether it did (now or before).
    ///
    /// An open batch is rolled back. When no other process uses the wal-index at the path, its frames are
    /// checkpointed into this store's file and the `-wal` truncated to nothing (`wal_checkpoint(TRUNCATE)`); when
    /// only other connections to the same file use it, they are checkpointed without truncating (the last one to
    /// let go truncates); when a connection to another file uses it, nothing is checkpointed, since that would
    /// mark the other file's frames as written. Then the connection is closed without a checkpoint and without
    /// deleting the `-wal` and `-shm` (`skipCheckpointOnClose`), and the store is detached: its writes are
    /// `database_replaced` and a caller opens the path again.
    @discardableResult
    public func letGoIfReplaced() -> Bool {
        guard fileIsReplaced else { return false }
        guard !isDetached, let identity else { return true }
        abortBatch()
        if !isReadOnly, let users = WALIndex.users(databasePath: resolvedPath, database: identity),
            users.includesThisProcess
        {
            if users.others.isEmpty {
                try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            } else if users.foreign.isEmpty {
                try? db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            }
        }
        db.skipCheckpointOnClose()
        isDetached = true
        // The old connection closes here, releasing the wal-index; the placeholder holds no file.
        if let placeholder = try? Connection(path: ":memory:") { db = placeholder }
        return true
    }
}

extension EntityStore {
    /// Whether a batch is open (its changes held in an open transaction until `batch.end`).
    public var batchIsOpen: Bool { batchOpen }
}
