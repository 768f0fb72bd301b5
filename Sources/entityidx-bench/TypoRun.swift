import EntityIndex
import Foundation
import JSON

/// `entityidx-bench typos N [DB]`: the cost of misspelt queries with a vocabulary of about N words.
///
/// The synthetic corpus of `make bench` has a few hundred distinct words whatever its size; here every entity is
/// titled by two pseudo-words of its own (syllables drawn per index), so the vocabulary grows with the entities, as
/// with ids, names and package lists. The queries misspell words of the corpus with one edit (swap, deletion,
/// insertion or substitution, from the second letter on) or, from nine letters, two. DB is kept and reused when
/// given, so that one corpus can be timed by two builds.
struct TypoRun {
    let size: Int
    let path: String

    static let onsets = [
        "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "st", "tr", "gr",
        "pl", "sh", "ch",
    ]
    static let vowels = ["a", "e", "i", "o", "u", "ai", "ou", "y"]
    static let codas = ["", "", "", "n", "r", "s", "l", "m", "t"]

    static func word(_ i: Int) -> String {
        var rng = SeededRandom(seed: UInt64(i) &* 0x9E37_79B9 &+ 7)
        var w = ""
        for _ in 0..<Int.random(in: 2...4, using: &rng) {
            w +=
                onsets.randomElement(using: &rng)! + vowels.randomElement(using: &rng)! + codas.randomElement(
                    using: &rng)!
        }
        return w
    }

    func run() throws {
        let store = try EntityStore(path: path, now: Timestamp.parse("2026-06-01T00:00:00Z")!)
        let existing = try store.search(SearchRequest(query: Self.word(size - 1), limit: 1)).count
        if existing == 0 {
            let t0 = now()
            var i = 0
            while i < size {
                let n = min(20_000, size - i)
                var records: [JSONValue] = []
                for k in i..<(i + n) {
                    let title: String = Self.word(k) + " " + Self.word((k * 7 + 3) % size)
                    let fields: [(String, JSONValue)] = [
                        ("type", .string("w")), ("id", .string("w\(k)")), ("title", .string(title)),
                    ]
                    records.append(.object(JSONObject(fields)))
                }
                _ = try store.ingest(records)
                i += n
            }
            print("ingested \(size) entities in \(String(format: "%.1f", now() - t0)) s")
        }
        var rng = SeededRandom(seed: 13)
        var queries: [(String, String)] = []
        while queries.count < 200 {
            let k = Int.random(in: 0..<size, using: &rng)
            let w = Self.word(k)
            guard w.count >= 5 else { continue }
            var chars = Array(w)
            func edit() {
                let op = Int.random(in: 0..<4, using: &rng)
                let at = Int.random(in: 1..<(chars.count - 1), using: &rng)
                switch op {
                case 0: chars.swapAt(at, at + 1)
                case 1: chars.remove(at: at)
                case 2: chars.insert("aeiourst".randomElement(using: &rng)!, at: at)
                default: chars[at] = "aeiourst".randomElement(using: &rng)!
                }
            }
            edit()
            if w.count >= 9, Bool.random(using: &rng) { edit() }
            let q = String(chars)
            guard q != w else { continue }
            queries.append((q, "w\(k)"))
        }
        for q in queries.prefix(5) { _ = try store.search(SearchRequest(query: q.0)) }
        var found = 0
        let latency = try Latency(timing: queries) { q in
            if try store.search(SearchRequest(query: q.0, limit: 5)).contains(where: { $0.key.id == q.1 }) {
                found += 1
            }
        }
        print(
            String(
                format:
                    "%d entities: misspelt p50 %.2f ms, p99 %.2f ms, max %.2f ms; the misspelt entity in the top 5 for %d of %d",
                size, latency.p50, latency.p99, latency.max, found, queries.count))
    }
}
