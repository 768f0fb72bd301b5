import CEntityIdx

/// An error reported by SQLite, with the statement that failed.
///
/// Reads like `SQLite error 19: UNIQUE constraint failed: entity.id - while executing "INSERT …"`.
/// Bound values are never printed: they may hold user data.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (https://sqlite.org/rescode.html).
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low byte of the extended code).
    public var primaryCode: Int32 { code & 0xFF }

    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    public var isFull: Bool { primaryCode == SQLITE_FULL }
    public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }
    public var isInterrupted: Bool { primaryCode == SQLITE_INTERRUPT }
    public var isOutOfMemory: Bool { primaryCode == SQLITE_NOMEM || primaryCode == SQLITE_TOOBIG }
    public var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing \"\(sql.count > 200 ? String(sql.prefix(200)) + "…" : sql)\"" }
        return text
    }
}
