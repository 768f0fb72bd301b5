import EntityIndex
import JSON

// MARK: - Checking an answer

extension ExpectationRunner {
    /// Each expectation of `expect` that does not hold for the results `got` (and the answer's `total`).
    static func check(_ expect: Expectation, got: [String], total: Int?) -> [CaseOutcome.Failure] {
        var failures: [CaseOutcome.Failure] = []
        func fail(_ name: String, _ message: String) { failures.append(.init(expectation: name, message: message)) }
        if let top = expect.top, Array(got.prefix(top.count)) != top {
            fail("top", "expected first \(list(top)), got \(list(Array(got.prefix(max(top.count, 1)))))")
        }
        for key in expect.contains ?? [] where !got.contains(key) {
            fail("contains", "\(Quoting.quoted(key)) is not among the \(results(got.count))")
        }
        for key in expect.excludes ?? [] {
            if let at = got.firstIndex(of: key) { fail("excludes", "\(Quoting.quoted(key)) is at rank \(at + 1)") }
        }
        for (key, rank) in expect.rankAtMost {
            if let at = got.firstIndex(of: key) {
                if at + 1 > rank {
                    fail("rankAtMost", "\(Quoting.quoted(key)) is at rank \(at + 1), expected \(rank) or better")
                }
            } else {
                fail(
                    "rankAtMost",
                    "\(Quoting.quoted(key)) is not among the \(results(got.count)), expected at rank \(rank) or better")
            }
        }
        if let count = expect.count, got.count != count {
            fail("count", "expected \(results(count)), got \(got.count)")
        }
        if let expected = expect.total, total != expected {
            fail("total", "expected a total of \(expected), got \(total.map(String.init) ?? "none")")
        }
        if let empty = expect.empty, got.isEmpty != empty {
            fail("empty", empty ? "expected no results, got \(results(got.count))" : "expected results, got none")
        }
        return failures
    }

    static func list(_ keys: [String]) -> String {
        keys.isEmpty ? "nothing" : keys.map { Quoting.quoted($0) }.joined(separator: ", ")
    }

    static func results(_ n: Int) -> String { n == 1 ? "1 result" : "\(n) results" }
}
