import SQLite
import Testing

/// A transaction or savepoint is rolled back unless it is committed, however its scope is left.
@Suite struct TransactionTests {
    func table() throws -> Connection {
        let db = try Connection(path: ":memory:")
        try db.execute("CREATE TABLE t(x INTEGER)")
        return db
    }

    func count(_ db: Connection) throws -> Int64? { try db.scalar("SELECT count(*) FROM t")?.int }

    @Test func aDroppedTransactionRollsBack() throws {
        let db = try table()
        func abandon() throws {
            let transaction = try Transaction(db)
            try db.run("INSERT INTO t VALUES (1)")
            #expect(transaction.isOpen)
        }
        try abandon()
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test func aCommittedTransactionStays() throws {
        let db = try table()
        let transaction = try Transaction(db)
        try db.run("INSERT INTO t VALUES (1)")
        try transaction.commit()
        transaction.rollback()  // nothing left to undo
        #expect(try count(db) == 1)
    }

    @Test func anErrorThrownThroughTheClosureRollsBack() throws {
        struct Failure: Error {}
        let db = try table()
        #expect(throws: Failure.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try count(db) == 0)
    }

    @Test func aSavepointRollsBackOnlyItsOwnWrites() throws {
        let db = try table()
        let outer = try Transaction(db)
        try db.run("INSERT INTO t VALUES (1)")
        let inner = try Transaction(db, savepoint: "inner")
        try withExtendedLifetime(inner) { try db.run("INSERT INTO t VALUES (2)") }
        inner.rollback()
        #expect(db.isInTransaction)
        try outer.commit()
        #expect(try count(db) == 1)
    }
}
