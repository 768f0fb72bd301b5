import EntityIndex
import Foundation
import JSON

/// `entityidx-bench spotlight FILE`: each Core Spotlight query form on Debian's package list, timed in process.
///
/// The corpus has no dates, so each record gets a `lastUsedAt` in the year before the fixed clock (from a hash of its
/// id) for the date-range forms. Values of every query are drawn from the corpus with a fixed seed.
struct SpotlightRun {
    let file: String
    let binary: String
    let work: String
    let queriesPerForm: Int
    /// A database that already holds the corpus (skips the ingest).
    var database: String?
    static let clock = "2026-03-02T09:00:00Z"

    struct Form {
        var name: String
        var example: String
        var latency: Latency
        var matches: Double
        var plan: String
    }

    struct Report {
        var records: Int
        var ingestSeconds: Double
        var spotlightRows: Int
        /// Each table's bytes with its indexes (a full-text table with its shadow tables), largest first.
        var tables: [(name: String, bytes: Int)]
        var forms: [Form]
    }

    func run() throws -> Report {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        var records: [JSONValue] = []
        var out = ""
        let now = Timestamp.parse(Self.clock)!
        for line in lines {
            guard case .object(var o) = try JSONParser().parse(String(line)), let id = o["id"]?.string else { continue }
            var hash: UInt64 = 1469598103934665603
            for b in id.utf8 { hash = (hash ^ UInt64(b)) &* 1099511628211 }
            o["lastUsedAt"] = .string(Timestamp.format(now - Int64(hash % (365 * 86_400)) * 1000))
            records.append(.object(o))
            out += JSONWriter.string(.object(o)) + "\n"
        }
        let input = work + "/spotlight.ndjson", db = database ?? work + "/spotlight.sqlite"
        var ingestSeconds = 0.0
        if database == nil {
            try out.write(toFile: input, atomically: true, encoding: .utf8)
            let started = now_()
            let ingest = Process()
            ingest.executableURL = URL(fileURLWithPath: binary)
            ingest.arguments = ["--db", db, "--now", Self.clock, "ingest", input]
            ingest.standardOutput = FileHandle.nullDevice
            try ingest.run()
            ingest.waitUntilExit()
            ingestSeconds = now_() - started
        }
        let store = try EntityStore(path: db, now: now)
        let rows = Int(try store.db.scalar("SELECT count(*) FROM spotlight_key")?.int ?? 0)
        let tables = try Self.tableBytes(store)

        var rng = SeededRandom(seed: 16)
        let names = records.compactMap { $0["id"]?.string }.filter { $0.count >= 6 }
        let subtitleWords = records.compactMap { $0["subtitle"]?.string }.map(RealCorpus.words).filter { !$0.isEmpty }
        let sizes = records.compactMap { $0["properties"]?["installedSize"]?.number?.double }.sorted()
        func name() -> String { names.randomElement(using: &rng)! }
        func word() -> String { subtitleWords.randomElement(using: &rng)!.randomElement(using: &rng)! }
        func middle(_ s: String, _ k: Int) -> String {
            let chars = Array(s), from = (chars.count - k) / 2
            return String(chars[from..<(from + k)])
        }
        func size() -> Int { Int(sizes.randomElement(using: &rng)!) }
        let n = queriesPerForm
        let forms: [(String, () -> String)] = [
            ("exact", { "title == \"\(name())\"" }),
            ("exact, cd", { "title == \"\(name().uppercased())\"cd" }),
            ("prefix", { "title == \"\(name().prefix(4))*\"" }),
            ("prefix, c", { "title == '\(name().prefix(3).uppercased())*'c" }),
            ("suffix", { "title == \"*\(name().suffix(5))\"" }),
            ("infix", { "title == \"*\(middle(name(), 4))*\"" }),
            ("infix, cd, subtitle", { "subtitle == \"*\(word())*\"cd" }),
            ("word, wc, subtitle", { "subtitle == \"\(word())\"wc" }),
            ("word, w, description", { "textContent == \"\(word())\"w" }),
            ("tokenized, description", { "textContent == \"\(word())\"t" }),
            (
                "numeric range",
                {
                    let a = size(); return "InRange(installedSize, \(a), \(a + a / 10))"
                }
            ),
            ("numeric >", { "size > \(size() * 1000)" }),
            (
                "date range",
                {
                    let d = Int.random(in: 1...300, using: &rng);
                    return "InRange(lastUsedDate, $time.today(-\(d)), $time.today(-\(d - 1)))"
                }
            ),
            ("date and text", { "lastUsedDate > $time.this_week(-2) && subtitle == \"\(word())\"wc" }),
            ("and", { "title == \"\(name().prefix(3))*\" && installedSize > \(size())" }),
            ("or", { "title == \"\(name())\" || alternateNames == \"\(name())\"c || keywords == \"\(word())\"c" }),
            (
                "type and property",
                {
                    "contentType == \"package\" && section == \"\(["games", "libs", "python", "devel"].randomElement(using: &rng)!)\""
                }
            ),
            ("!=", { "title == \"\(name().prefix(3))*\" && section != \"libs\"" }),
        ]
        var reports: [Form] = []
        for (label, make) in forms {
            let queries = (0..<n).map { _ in make() }
            for q in queries.prefix(5) { _ = try store.spotlight(SpotlightRequest(query: q)) }  // warm the cache
            var total = 0
            let latency = try Latency(timing: queries) { q in
                total += try store.spotlight(SpotlightRequest(query: q)).count
            }
            reports.append(
                Form(
                    name: label, example: queries[0], latency: latency, matches: Double(total) / Double(n),
                    plan: try plan(store, queries[0])))
            FileHandle.standardError.write(
                Data(
                    "spotlight \(label): p50 \(String(format: "%.3f", latency.p50)) p99 \(String(format: "%.3f", latency.p99)) ms, \(total / n) matches: \(queries[0])\n"
                        .utf8))
        }
        return Report(
            records: records.count, ingestSeconds: ingestSeconds, spotlightRows: rows, tables: tables,
            forms: reports)
    }

    /// The pages of each table and its indexes (`dbstat`); FTS5's shadow tables count with their full-text table.
    static func tableBytes(_ store: EntityStore) throws -> [(name: String, bytes: Int)] {
        let owners = Dictionary(
            try store.db.rows("SELECT name, tbl_name FROM sqlite_master") { ($0.text(0), $0.text(1)) },
            uniquingKeysWith: { a, _ in a })
        let virtual = Set(
            try store.db.rows("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'") { $0.text(0) })
        var bytes: [String: Int] = [:]
        let pages = try store.db.rows("SELECT name, sum(pgsize) FROM dbstat GROUP BY name", []) {
            ($0.text(0), Int($0.int(1)))
        }
        for (name, size) in pages {
            var owner = owners[name] ?? name
            for suffix in ["_data", "_idx", "_content", "_docsize", "_config"] where owner.hasSuffix(suffix) {
                let base = String(owner.dropLast(suffix.count))
                if virtual.contains(base) { owner = base }
            }
            bytes[owner, default: 0] += size
        }
        return bytes.map { (name: $0.key, bytes: $0.value) }.sorted { $0.bytes > $1.bytes }
    }

    /// How SQLite reads `spotlight_key`, `property` and `entity` for a query: the index used, or SCAN.
    func plan(_ store: EntityStore, _ query: String) throws -> String {
        let sql = try store.spotlightSQL(SpotlightRequest(query: query))
        let steps = try store.db.rows("EXPLAIN QUERY PLAN " + sql.sql, sql.arguments) { $0.text(3) }
        var seen: [String] = []
        for s in steps where (s.hasPrefix("SEARCH") || s.hasPrefix("SCAN")) && !seen.contains(s) { seen.append(s) }
        return seen.joined(separator: "; ")
    }
}

private func now_() -> Double { now() }
