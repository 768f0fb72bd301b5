import System

#if canImport(Glibc)
    import Glibc
#endif

/// Which processes use a database's wal-index (its `-shm` file) and which file each of them has open, read from the
/// kernel's table of file locks (`/proc/locks`) without opening either file: closing a descriptor of a file drops
/// every POSIX lock this process holds on it, SQLite's own included.
///
/// A SQLite connection in WAL mode holds, while it is open, a read lock on the `-shm` file's "DMS" byte and a read
/// lock on its database file's SHARED range (https://sqlite.org/walformat.html#the_wal_index_file_format); it takes
/// the second before the first and drops it after. So a process that holds a lock on the `-shm` beside a path and
/// none on the file at that path is using that wal-index for another file: one that was at the path when it opened
/// it, before another file was moved over it. Its `-wal` holds that file's pages, which SQLite would apply to the
/// new one (SQLite cannot tell whose a `-wal` is: nothing in it names its database file).
enum WALIndex {
    /// One lock of the table.
    struct Lock {
        var pid: Int32
        var device: (major: UInt64, minor: UInt64)
        var inode: UInt64
        var write: Bool
        var start: UInt64
        /// The last byte locked, nil for "to the end of the file".
        var end: UInt64?

        func covers(_ byte: UInt64) -> Bool { start <= byte && (end.map { byte <= $0 } ?? true) }

        func isOn(_ file: DatabaseFile.Identity) -> Bool {
            inode == file.inode && device == WALIndex.deviceNumbers(file.device)
        }
    }

    /// Who uses the wal-index beside a database path.
    struct Users {
        /// The other processes that hold a lock on the `-shm` file, each with whether it also holds a lock on the
        /// database file named (else its connection is to another file).
        var others: [Int32: Bool]
        /// Whether this process holds a lock on that `-shm` file (its wal-index is the one at the path).
        var includesThisProcess: Bool

        /// The other processes whose connection is to another file than the one named.
        var foreign: [Int32] { others.filter { !$0.value }.map(\.key).sorted() }
    }

    /// The users of `databasePath`'s `-shm` file, where `database` is the file they should have open; nil when
    /// there is no `-shm` file or the lock table cannot be read.
    static func users(databasePath: String, database: DatabaseFile.Identity) -> Users? {
        guard let shm = DatabaseFile.identity(databasePath + "-shm"), let locks = locks() else { return nil }
        let me = getpid()
        var users = Users(others: [:], includesThisProcess: false)
        for lock in locks where lock.isOn(shm) {
            if lock.pid == me {
                users.includesThisProcess = true
            } else if lock.pid > 0 {
                users.others[lock.pid] = false
            }
        }
        for lock in locks where lock.isOn(database) && users.others[lock.pid] != nil { users.others[lock.pid] = true }
        return users
    }

    /// The process other than this one that holds the lock on `byte` of the file `file`, if any.
    static func writer(of file: DatabaseFile.Identity, byte: UInt64) -> Int32? {
        let me = getpid()
        return locks()?.first { $0.isOn(file) && $0.write && $0.covers(byte) && $0.pid != me && $0.pid > 0 }?.pid
    }

    /// The locks held now (the table's waiting requests, marked `->`, left out); nil when it cannot be read.
    static func locks() -> [Lock]? {
        guard let text = Descriptor.readWhole("/proc/locks") else { return nil }
        var locks: [Lock] = []
        for line in text.split(separator: 0x0A) {
            let fields = line.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
            // "1: POSIX  ADVISORY  READ 1234 fe:00:16236784 128 128"
            guard fields.count >= 8, fields[1] != "->", let pid = Int32(fields[4]) else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, let major = UInt64(file[0], radix: 16), let minor = UInt64(file[1], radix: 16),
                let inode = UInt64(file[2]), let start = UInt64(fields[6])
            else { continue }
            locks.append(
                Lock(
                    pid: pid, device: (major, minor), inode: inode, write: fields[3] == "WRITE", start: start,
                    end: UInt64(fields[7])))
        }
        return locks
    }

    /// The major and minor numbers of a `st_dev`, as glibc's `major()` and `minor()` decode it (the table prints
    /// them in hexadecimal).
    static func deviceNumbers(_ device: UInt64) -> (major: UInt64, minor: UInt64) {
        (((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff), (device & 0xff) | ((device >> 12) & ~0xff))
    }
}

extension DatabaseFile {
    /// How long an opener waits by default for a process that still uses the path's wal-index for another file to
    /// let go of it (entityidx's pipe and MCP server notice within a second when idle, at once at their next
    /// request).
    static let foreignWALIndexWait = 3.0

    /// Refuses to open the file while another process uses the `-wal` and `-shm` beside it for another file (one
    /// that was at the path before a file was moved over it): SQLite would read that file's pages from the `-wal`
    /// as this one's, and a checkpoint would write them into it. Waits up to `seconds` for it to go.
    func checkWALIndexIsItsOwn(waitingAtMost seconds: Double) throws(EntityIndexError) {
        guard let database = Self.identity(resolvedName) else { return }
        var waited = 0.0
        while true {
            guard let users = WALIndex.users(databasePath: resolvedName, database: database) else { return }
            let foreign = users.foreign
            guard let pid = foreign.first else { return }
            if waited >= seconds || StopSignal.received != nil {
                let who = LockHolder.describe(pid: pid) + (foreign.count > 1 ? " and \(foreign.count - 1) more" : "")
                throw EntityIndexError(
                    .databaseReplaced,
                    "the -wal and -shm files beside \(sqliteName) belong to another database file, which \(who) still has open: a file was moved over \(sqliteName) while that process used it. Opening it now would apply the other file's changes to this one, so nothing was read or written; try again once that process has let go of it (an entityidx process does at its next request, or within a second when idle) or has ended"
                )
            }
            usleep(50_000)
            waited += 0.05
        }
    }
}
