/// Applies numbered schema migrations in order, each in its own transaction, and records them.
///
/// A database that records a migration this build does not know was made by a newer entityidx: it is refused
/// rather than guessed at. Modelled on GRDB's DatabaseMigrator.
public struct Migrator: Sendable {
    public struct Migration: Sendable {
        public let version: Int
        public let name: String
        public let sql: String
        public init(version: Int, name: String, sql: String) {
            self.version = version
            self.name = name
            self.sql = sql
        }
    }

    public enum Failure: Error, Sendable, Equatable {
        /// The database has migrations newer than `known`.
        case newerSchema(found: Int, known: Int)
    }

    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The highest migration recorded in the database (0 for a new one).
    public func appliedVersion(_ db: Connection) throws -> Int {
        let exists =
            try db.scalar(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")?.int ?? 0
        guard exists > 0 else { return 0 }
        return Int(try db.scalar("SELECT coalesce(max(version), 0) FROM schema_migrations")?.int ?? 0)
    }

    /// Brings the database up to date; returns the versions applied.
    @discardableResult
    public func migrate(_ db: Connection, now: String) throws -> [Int] {
        let current = try appliedVersion(db)
        if current > latestVersion { throw Failure.newerSchema(found: current, known: latestVersion) }
        var applied: [Int] = []
        for migration in migrations where migration.version > current {
            try db.transaction(.immediate) {
                // Another process may have migrated while this one waited for the lock.
                if try appliedVersion(db) >= migration.version { return }
                try db.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
                )
                try db.execute(migration.sql)
                try db.run(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    [.integer(Int64(migration.version)), .text(migration.name), .text(now)])
                applied.append(migration.version)
            }
        }
        return applied
    }
}
