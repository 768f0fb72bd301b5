import Foundation
import SQLite

/// The bytes of one table of a database with its indexes, or of one FTS5 table with its shadow tables.
///
/// Read from SQLite's `dbstat` virtual table (https://sqlite.org/dbstat.html), which Debian's libsqlite3 is built
/// with: the pages of every b-tree, summed by name, then each index put under its table and each shadow table of an
/// FTS5 table (`search_data`, `search_idx`, `search_content`, `search_docsize`, `search_config`) under that table.
struct TableBytes {
    var name: String
    /// "table", "FTS5" or "other" (pages no b-tree owns: the free list, the WAL's leftovers).
    var kind: String
    var bytes: Int64
    /// The b-trees summed into `bytes`, largest first: the table itself, its indexes, or the FTS5 shadow tables.
    var parts: [(name: String, bytes: Int64)]

    static let shadowSuffixes = ["_data", "_idx", "_content", "_docsize", "_config"]

    /// Every table of the database at `path` (its file's size gives the pages no b-tree holds), largest first.
    static func read(_ db: Connection, fileBytes: Int64) throws -> [TableBytes] {
        let pages = try db.rows("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name") {
            (name: $0.text(0), bytes: $0.int(1))
        }
        let schema = try db.rows("SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema") {
            (type: $0.text(0), name: $0.text(1), table: $0.text(2), sql: $0.text(3))
        }
        let fts5 = Set(
            schema.filter { $0.type == "table" && $0.sql.range(of: "USING fts5", options: .caseInsensitive) != nil }
                .map(\.name))
        let tableOf = Dictionary(schema.map { ($0.name, $0.table) }, uniquingKeysWith: { a, _ in a })
        func owner(_ name: String) -> String {
            let table = tableOf[name] ?? name
            for suffix in shadowSuffixes where table.hasSuffix(suffix) {
                let base = String(table.dropLast(suffix.count))
                if fts5.contains(base) { return base }
            }
            return table
        }
        var groups: [String: TableBytes] = [:]
        for p in pages {
            let o = owner(p.name)
            groups[o, default: TableBytes(name: o, kind: fts5.contains(o) ? "FTS5" : "table", bytes: 0, parts: [])]
                .bytes += p.bytes
            groups[o]!.parts.append((p.name, p.bytes))
        }
        var tables = groups.values.map { g -> TableBytes in
            var g = g
            g.parts.sort { $0.bytes > $1.bytes || ($0.bytes == $1.bytes && $0.name < $1.name) }
            return g
        }
        tables.sort { $0.bytes > $1.bytes || ($0.bytes == $1.bytes && $0.name < $1.name) }
        let held = tables.reduce(Int64(0)) { $0 + $1.bytes }
        if fileBytes > held {
            tables.append(TableBytes(name: "free pages", kind: "other", bytes: fileBytes - held, parts: []))
        }
        return tables
    }

    /// The listing make bench prints: one line a table, then one a part when there are several.
    static func text(_ tables: [TableBytes], title: String) -> String {
        let total = tables.reduce(Int64(0)) { $0 + $1.bytes }
        var t = "bytes of \(title) (dbstat), \(total) in all\n"
        for g in tables {
            let share = String(format: "%5.1f %%", Double(g.bytes) * 100 / Double(max(total, 1)))
            t += "  \(g.name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(pad(g.bytes)) \(share)\n"
            if g.parts.count > 1 {
                for p in g.parts {
                    t += "    \(p.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(pad(p.bytes))\n"
                }
            }
        }
        return t
    }

    static func pad(_ v: Int64) -> String {
        let s = String(v)
        return String(repeating: " ", count: max(0, 12 - s.count)) + s
    }
}
