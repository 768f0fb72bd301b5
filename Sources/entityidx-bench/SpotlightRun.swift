import EntityIndex
import Foundation
import JSON
import SQLite

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
        let inspect = try Connection(path: db, mode: .readOnly)
        let rows = Int(try inspect.scalar("SELECT count(*) FROM spotlight_key")?.int ?? 0)
        let tables = try TableBytes.read(inspect, fileBytes: 0).map { (name: $0.name, bytes: Int($0.bytes)) }

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

    /// How SQLite reads `spotlight_key`, `property` and `entity` for a query: the index used, or SCAN.
    func plan(_ store: EntityStore, _ query: String) throws -> String {
        try store.spotlightPlan(SpotlightRequest(query: query)).joined(separator: "; ")
    }
}

private func now_() -> Double { now() }
