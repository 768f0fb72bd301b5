import CEntityIdx

/// Why a predicate stopped its statement: the statement fails with this message (SQLITE_ERROR).
public struct PredicateFailure: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Holds a Swift predicate for SQLite; released by SQLite when the function is replaced or the connection closes.
private final class PredicateBox {
    let body: ([UnsafeBufferPointer<UInt8>]) throws(PredicateFailure) -> Bool
    init(_ body: @escaping ([UnsafeBufferPointer<UInt8>]) throws(PredicateFailure) -> Bool) { self.body = body }
}

extension Connection {
    /// Defines an SQL function `name(value, …)` of `arity` arguments that returns 1 or 0, once per connection.
    ///
    /// `body` sees each argument's bytes (the UTF-8 of a text, the bytes of a blob; NULL is empty), valid only during
    /// the call. A `PredicateFailure` fails the statement with its message. Defining a function expires every
    /// prepared statement of the connection, so a second call with the same name does nothing.
    /// https://sqlite.org/c3ref/create_function.html
    public func definePredicate(
        _ name: String, arity: Int32,
        _ body: @escaping ([UnsafeBufferPointer<UInt8>]) throws(PredicateFailure) -> Bool
    ) throws(SQLiteError) {
        guard !definedFunctions.contains(name) else { return }
        let box = Unmanaged.passRetained(PredicateBox(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let box = Unmanaged<PredicateBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                var arguments: [UnsafeBufferPointer<UInt8>] = []
                arguments.reserveCapacity(Int(count))
                for k in 0..<Int(count) {
                    let value = values![k]
                    // The text form first for a text value (sqlite3_value_blob would give the same bytes), then
                    // the length, as SQLite's documentation orders the calls.
                    let start =
                        sqlite3_value_type(value) == SQLITE_TEXT
                        ? UnsafeRawPointer(sqlite3_value_text(value)) : sqlite3_value_blob(value)
                    let length = Int(sqlite3_value_bytes(value))
                    arguments.append(
                        UnsafeBufferPointer(
                            start: start?.assumingMemoryBound(to: UInt8.self), count: start == nil ? 0 : length))
                }
                do throws(PredicateFailure) {
                    sqlite3_result_int(context, try box.body(arguments) ? 1 : 0)
                } catch {
                    sqlite3_result_error(context, error.message, -1)
                }
            },
            nil, nil,
            { pointer in if let pointer { Unmanaged<PredicateBox>.fromOpaque(pointer).release() } })
        try check(rc)
        definedFunctions.insert(name)
    }
}
