import SQLite

/// The database schema: the numbered migrations in `schema/`, embedded by `make schema`.
public enum Schema {
    public static var migrator: Migrator { Migrator(migrations) }
    public static var version: Int { migrator.latestVersion }
}
