import CEntityIdx

/// A value bound to or read from SQLite.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var int: Int64? {
        switch self {
        case .integer(let v): return v
        case .real(let v): return Int64(exactly: v.rounded()) ?? nil
        default: return nil
        }
    }
    public var double: Double? {
        switch self {
        case .integer(let v): return Double(v)
        case .real(let v): return v
        default: return nil
        }
    }
    public var string: String? {
        if case .text(let v) = self { return v }
        return nil
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
}

/// A prepared statement, finalized when released.
///
/// https://sqlite.org/c3ref/stmt.html
public final class Statement {
    let handle: OpaquePointer
    /// The connection the statement was prepared on.
    public unowned let connection: Connection
    public let sql: String
    /// A query: read-only and returning rows (not a write, nor a transaction's BEGIN, COMMIT or ROLLBACK, which
    /// SQLite also counts read-only).
    let isQuery: Bool

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(
                code: sqlite3_extended_errcode(connection.handle), message: connection.lastMessage, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        // BEGIN, COMMIT and ROLLBACK return no columns.
        isQuery = sqlite3_stmt_readonly(statement) != 0 && sqlite3_column_count(statement) > 0
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and clears its bindings so that it can run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement and binds `values` to its parameters in order (those left over are bound to NULL).
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        if values.count < parameterCount { sqlite3_clear_bindings(handle) }
        for (index, value) in values.enumerated() { try bind(value, at: Int32(index + 1)) }
    }

    private lazy var parameterCount = Int(sqlite3_bind_parameter_count(handle))

    public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .blob(let v):
            rc = v.withUnsafeBytes { eidx_sqlite_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
        case .text(let v):
            var text = v
            rc = text.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) {
                    eidx_sqlite_bind_text(handle, index, $0.baseAddress, Int32($0.count))
                }
            }
        }
        try connection.check(rc, sql: sql)
    }

    /// Steps once; true when a row is available.
    ///
    /// A read stops at the next row once a stop signal has arrived (or its thread's request budget ran out) (`SQLITE_INTERRUPT`), so that Swift work done
    /// between rows is not outside its reach; writes are left to the progress handler, which rolls their
    /// statement back, so that a rollback itself is never refused.
    public func step() throws(SQLiteError) -> Bool {
        if isQuery, eidx_should_stop() != 0 {
            sqlite3_reset(handle)
            throw SQLiteError(code: SQLITE_INTERRUPT, message: "interrupted", sql: sql)
        }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let error = SQLiteError(
            code: sqlite3_extended_errcode(connection.handle), message: connection.lastMessage, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    // MARK: - Columns

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func isText(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_TEXT }

    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// Reads a text column by its byte length, so that an embedded NUL does not cut it short.
    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes of a text or blob column, copied.
    public func bytes(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The bytes of a text or blob column, borrowed: valid only until the statement steps, resets or is finalized.
    public func borrowedBytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let pointer = sqlite3_column_blob(handle, column) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
    }

    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    public func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_NULL: return .null
        case SQLITE_BLOB: return .blob(bytes(column))
        default: return .text(text(column))
        }
    }
}
