import CEntityIdx
import System

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection: the handle, a statement cache and transactions.
///
/// A connection is used by one thread at a time (SQLite's "multi-thread" mode); the handle is owned here and closed
/// in `deinit`. That single-owner rule is why the type is `@unchecked Sendable`: it may move between threads, but is
/// never used from two at once.
public final class Connection: @unchecked Sendable {
    /// `immutable`: `path` is a `file:` URI with `immutable=1`, for a file this process cannot write.
    public enum Mode: Sendable { case readWrite, readOnly, immutable }

    let handle: OpaquePointer
    public let path: String
    /// Prepared statements by SQL, with the tick of their last use: at most `statementCacheCapacity`, the least
    /// recently used are finalized first (SQL built at run time must not grow memory without bound).
    private var cache: [String: (statement: Statement, used: UInt64)] = [:]
    private var cacheByAddress: [UnsafeRawPointer: Statement] = [:]
    private var attachments: [ObjectIdentifier: AnyObject] = [:]
    /// How a writer waits for another one (see `waitForLocks`); the busy handler's context, owned here.
    public let lockWait = LockWait()
    /// Names of the SQL functions defined on this connection (see `definePredicate`).
    var definedFunctions: Set<String> = []
    private var tick: UInt64 = 0
    /// How many statements `cached` keeps prepared.
    public static let statementCacheCapacity = 128
    /// How many statements are cached now (for tests).
    public var cachedStatementCount: Int { cache.count }

    /// Opens (and, in read-write mode, creates) the database at `path`.
    public init(path: String, mode: Mode = .readWrite) throws(SQLiteError) {
        eidx_sqlite_configure()
        var db: OpaquePointer?
        let flags: Int32 =
            switch mode {
            case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
            case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
            }
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        self.handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        // Defensive mode (https://sqlite.org/c3ref/c_dbconfig_defensive.html): no SQL can corrupt the file, such as
        // writes to FTS5's shadow tables or PRAGMA writable_schema, whatever a caller sends.
        eidx_sqlite_db_defensive(db, 1)
        // A stop signal (SIGINT/SIGTERM), or the end of the running thread's request budget (its deadline, or its
        // client gone), interrupts a running statement within a few thousand VM steps
        // (https://sqlite.org/c3ref/progress_handler.html): it then fails with SQLITE_INTERRUPT.
        sqlite3_progress_handler(db, 1000, { _ in eidx_should_stop() != 0 ? 1 : 0 }, nil)
        sqlite3_busy_handler(
            db,
            { context, count in
                Unmanaged<LockWait>.fromOpaque(context!).takeUnretainedValue().shouldRetry(count) ? 1 : 0
            }, Unmanaged.passUnretained(lockWait).toOpaque())
    }

    /// Registers entityidx's FTS5 auxiliary function `eidx_rank` (how each match's words matched, from its phrase
    /// positions; see `sqlite_shim.c`). Only this process can call it: the index itself stays plain FTS5.
    public func registerRankFunction() throws(SQLiteError) {
        try check(eidx_sqlite_register_rank(handle), sql: "SELECT fts5(?1)")
    }

    deinit {
        cacheByAddress.removeAll()
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Checks a result code, turning anything but OK/ROW/DONE into an error that carries the SQL.
    @discardableResult
    func check(_ rc: Int32, sql: String? = nil) throws(SQLiteError) -> Int32 {
        switch rc {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return rc
        default: throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
        }
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs one or more statements that take no parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// Prepares a statement, reusing a cached one for the same SQL (reset; its next `bind` replaces its bindings).
    public func cached(_ sql: String) throws(SQLiteError) -> Statement {
        // Hashing the SQL text costs more than running a small statement: a string literal keeps its address, so
        // that is tried first (checked by `==`, which is immediate for the same literal).
        let address = sql.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
        if let address, let statement = cacheByAddress[address], statement.sql == sql {
            sqlite3_reset(statement.handle)
            return statement
        }
        tick &+= 1
        let statement: Statement
        if let found = cache[sql] {
            sqlite3_reset(found.statement.handle)
            statement = found.statement
            cache[sql]?.used = tick
        } else {
            statement = try Statement(connection: self, sql: sql)
            if cache.count >= Self.statementCacheCapacity { evictLeastRecentlyUsed() }
            cache[sql] = (statement, tick)
        }
        if let address {
            if cacheByAddress.count >= 256 { cacheByAddress.removeAll(keepingCapacity: true) }  // SQL built at run time
            cacheByAddress[address] = statement
        }
        return statement
    }

    /// Drops the least recently used quarter of the cache (a statement still held by a caller lives until released).
    private func evictLeastRecentlyUsed() {
        let oldest = cache.sorted { $0.value.used < $1.value.used }.prefix(Self.statementCacheCapacity / 4)
        for (sql, _) in oldest { cache.removeValue(forKey: sql) }
        cacheByAddress.removeAll(keepingCapacity: true)
    }

    /// Objects that live as long as the connection, one of each type: caches of what its database holds (the
    /// dictionaries of stored records, say), made by `make` the first time they are asked for.
    public func attachment<T: AnyObject>(_ make: (Connection) -> T) -> T {
        if let found = attachments[ObjectIdentifier(T.self)] as? T { return found }
        let made = make(self)
        attachments[ObjectIdentifier(T.self)] = made
        return made
    }

    /// Prepares a statement that is not cached (for SQL built once).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs a statement with the given arguments, ignoring rows.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) {
        let statement = try cached(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a query and maps each row. (Inlinable, so that callers get it specialized for their row type.)
    @inlinable
    public func rows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (Statement) throws -> T) throws -> [T] {
        let statement = try cached(sql)
        try statement.bind(arguments)
        var result: [T] = []
        while try statement.step() { result.append(try map(statement)) }
        return result
    }

    /// The first column of the first row, or nil.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try cached(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        let value = statement.value(0)
        statement.reset()
        return value
    }

    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Sets how long a writer waits for a lock before SQLITE_BUSY (nil: as long as it takes), and what it is told
    /// about once a second while it waits.
    public func waitForLocks(timeoutSeconds: Double?, report: ((_ waitedSeconds: Double) -> Void)? = nil) {
        lockWait.timeout = timeoutSeconds
        lockWait.report = report
    }

    /// Sets how long a writer waits for a lock before SQLITE_BUSY.
    public func setBusyTimeout(milliseconds: Int32) {
        waitForLocks(timeoutSeconds: Double(milliseconds) / 1000)
    }

    /// Runs `body` again each time it fails with SQLITE_BUSY outside a transaction, waiting between tries as the
    /// busy handler does, until `lockWait` gives up (its timeout, a stop signal, the request's budget).
    ///
    /// SQLite calls the busy handler only while a connection holds no lock: a statement that reads first and then
    /// asks for the write lock fails with SQLITE_BUSY at once, without waiting, when another connection holds or
    /// wants that lock, since waiting on each other could deadlock (https://sqlite.org/c3ref/busy_handler.html).
    /// `PRAGMA journal_mode = WAL` on a database in rollback mode is such a statement: it reads the header, then
    /// takes the write lock to mark the file WAL (`sqlite3BtreeSetVersion`). The failed statement has let go of its
    /// read lock, so the other connection can finish, and the next try starts from no lock.
    public func retryingWhileBusy<T>(_ body: () throws -> T) rethrows -> T {
        var count: Int32 = 0
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && !isInTransaction && lockWait.shouldRetry(count) {
                count += 1
            }
        }
    }

    /// Makes closing this connection leave its `-wal` and `-shm` files untouched: no checkpoint into the database
    /// file and no deletion (https://sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfignockptonclose), for a
    /// connection whose file is no longer the one at its path, so that its close cannot act on another file's.
    public func skipCheckpointOnClose() {
        eidx_sqlite_no_checkpoint_on_close(handle)
    }

    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

// MARK: - Waiting for locks

/// The state of a connection's busy handler (https://sqlite.org/c3ref/busy_handler.html): it sleeps and retries
/// until the lock is free, the timeout passes, a stop signal arrives or the thread's request budget runs out.
public final class LockWait {
    /// Seconds to wait at most; nil for as long as it takes.
    public var timeout: Double?
    public var report: ((Double) -> Void)?
    /// How long the last wait lasted, in seconds (for error messages).
    public private(set) var waited = 0.0
    private var started = 0.0
    private var reported = 0.0

    func shouldRetry(_ count: Int32) -> Bool {
        let now = SystemClock.monotonicSeconds()
        if count == 0 {
            started = now
            reported = now
        }
        waited = now - started
        if eidx_should_stop() != 0 { return false }
        if let timeout, waited >= timeout { return false }
        if let report, now - reported >= 1 {
            reported = now
            report(waited)
        }
        // Short sleeps first (most waits are one commit), then 20 ms steps.
        usleep(useconds_t(min(Int(count) + 1, 20) * 1000))
        return true
    }
}

// MARK: - Transactions

/// An open transaction, or a savepoint inside one: rolled back unless `commit()` is called, also when it is dropped
/// without either (an error thrown past it, a forgotten path).
///
/// Every write goes through one: `Connection.transaction`, `Connection.savepoint`, and the store's writes and
/// streaming ingests, which span many calls and so hold the value instead of a closure.
public final class Transaction {
    public enum Kind: String, Sendable { case deferred = "DEFERRED", immediate = "IMMEDIATE" }

    let db: Connection
    /// The savepoint's name, or nil for a transaction.
    let savepoint: String?
    public private(set) var isOpen = true

    /// Begins a transaction (`BEGIN kind`); it fails, opening nothing, when the lock cannot be had.
    public init(_ db: Connection, _ kind: Kind = .immediate) throws {
        try db.run("BEGIN \(kind.rawValue)")
        self.db = db
        savepoint = nil
    }

    /// Opens a savepoint, which nests inside an open transaction (or begins a deferred one).
    public init(_ db: Connection, savepoint name: String) throws {
        try db.execute("SAVEPOINT \(name)")
        self.db = db
        savepoint = name
    }

    /// Commits (a transaction) or releases (a savepoint); when that fails, everything is rolled back and the error
    /// thrown.
    public func commit() throws {
        guard isOpen else { return }
        do {
            if let savepoint { try db.execute("RELEASE \(savepoint)") } else { try db.run("COMMIT") }
            isOpen = false
        } catch {
            rollback()
            throw error
        }
    }

    /// Undoes everything since the transaction or savepoint began.
    public func rollback() {
        guard isOpen else { return }
        isOpen = false
        if let savepoint {
            try? db.execute("ROLLBACK TO \(savepoint)")
            try? db.execute("RELEASE \(savepoint)")
        } else if db.isInTransaction {
            try? db.run("ROLLBACK")
        }
    }

    deinit { rollback() }
}

extension Connection {
    public typealias TransactionKind = Transaction.Kind

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        let transaction = try Transaction(self, kind)
        let result = try body()
        try transaction.commit()
        return result
    }

    /// Runs the reads of `body` in one read transaction (one snapshot, one lock taken instead of one per statement),
    /// or in the open transaction if there is one.
    public func read<T>(_ body: () throws -> T) throws -> T {
        isInTransaction ? try body() : try transaction(.deferred, body)
    }

    /// Runs `body` inside a savepoint, which nests inside an open transaction.
    public func savepoint<T>(_ name: String = "sp", _ body: () throws -> T) throws -> T {
        let savepoint = try Transaction(self, savepoint: name)
        let result = try body()
        try savepoint.commit()
        return result
    }
}
