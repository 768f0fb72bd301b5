import CEntityIdx

/// Holds a Swift predicate for SQLite; released by SQLite when the function is replaced or the connection closes.
private final class PredicateBox {
    let body: ([String]) -> Bool
    init(_ body: @escaping ([String]) -> Bool) { self.body = body }
}

extension Connection {
    /// Defines an SQL function `name(text, …)` of `arity` text arguments that returns 1 or 0, once per connection.
    ///
    /// Defining a function expires every prepared statement of the connection, so a second call with the same name
    /// does nothing. NULL arguments reach `body` as empty strings. https://sqlite.org/c3ref/create_function.html
    public func definePredicate(_ name: String, arity: Int32, _ body: @escaping ([String]) -> Bool) throws(SQLiteError)
    {
        guard !definedFunctions.contains(name) else { return }
        let box = Unmanaged.passRetained(PredicateBox(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, arity, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let box = Unmanaged<PredicateBox>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                var arguments: [String] = []
                arguments.reserveCapacity(Int(count))
                for k in 0..<Int(count) {
                    let value = values![k]
                    if let text = sqlite3_value_text(value) {
                        let length = Int(sqlite3_value_bytes(value))
                        arguments.append(
                            String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
                    } else {
                        arguments.append("")
                    }
                }
                sqlite3_result_int(context, box.body(arguments) ? 1 : 0)
            },
            nil, nil,
            { pointer in if let pointer { Unmanaged<PredicateBox>.fromOpaque(pointer).release() } })
        try check(rc)
        definedFunctions.insert(name)
    }
}
