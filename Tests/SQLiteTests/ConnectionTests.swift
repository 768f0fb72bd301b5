import Testing

@testable import SQLite

@Suite struct ConnectionTests {
    @Test func roundTripsTextWithNUL() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(v TEXT)")
        try db.run("INSERT INTO t VALUES (?)", [.text("a\u{0}b")])
        #expect(try db.scalar("SELECT v FROM t")?.string == "a\u{0}b")
    }

    /// SQL built at run time (short strings share one address; longer ones reuse freed memory) always gets the
    /// statement of its own text.
    @Test func cachedStatementsMatchTheirSQL() throws {
        let db = try Connection(path: ":memory:")
        for i in 0..<600 {
            for sql in ["SELECT \(i)", "SELECT \(i) AS value_with_a_name_long_enough_for_the_heap"] {
                let statement = try db.cached(sql)
                #expect(statement.sql == sql)
                #expect(try db.rows(sql) { $0.int(0) } == [Int64(i)])
            }
        }
    }

    /// The cache keeps at most its capacity, dropping the least recently used: a statement in constant use stays.
    @Test func statementCacheIsBounded() throws {
        let db = try Connection(path: ":memory:")
        let hot = "SELECT 'hot'"
        let first = try db.cached(hot)
        for i in 0..<1_000 {
            _ = try db.cached("SELECT \(i) + 1")
            if i % 10 == 0 { _ = try db.cached(hot) }
        }
        #expect(db.cachedStatementCount <= Connection.statementCacheCapacity)
        #expect(try db.cached(hot) === first, "the statement used most recently is still prepared")
    }

    /// Defensive mode is on: SQL cannot corrupt the file (here, by writing the schema table directly).
    @Test func defensiveModeRefusesWritableSchema() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(v)")
        try db.execute("PRAGMA writable_schema = ON")
        #expect(throws: SQLiteError.self) {
            try db.execute("UPDATE sqlite_master SET sql = 'garbage' WHERE name = 't'")
        }
    }

    @Test func errorsCarryTheSQL() throws {
        let db = try Connection(path: ":memory:")
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT * FROM nowhere") }
        #expect(error.description.contains("no such table: nowhere"))
        #expect(error.description.contains("SELECT * FROM nowhere"))
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(v INTEGER)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)"); throw Boom()
            }
        }
        #expect(try db.scalar("SELECT count(*) FROM t")?.int == 0)
    }

    @Test func migratorAppliesInOrderAndRefusesNewer() throws {
        let db = try Connection(path: ":memory:")
        let migrator = Migrator([
            .init(version: 2, name: "b", sql: "ALTER TABLE a ADD COLUMN y"),
            .init(version: 1, name: "a", sql: "CREATE TABLE a(x)"),
        ])
        #expect(try migrator.migrate(db, now: "t") == [1, 2])
        #expect(try migrator.migrate(db, now: "t") == [])
        let older = Migrator([.init(version: 1, name: "a", sql: "CREATE TABLE a(x)")])
        #expect(throws: Migrator.Failure.newerSchema(found: 2, known: 1)) { try older.migrate(db, now: "t") }
    }
}
