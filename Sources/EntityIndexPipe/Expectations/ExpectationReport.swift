import EntityIndex
import JSON

/// The outcomes of a run, and how they are written: for a person, as JSON, and for CI (JUnit, TAP, GitHub).
public struct ExpectationReport: Sendable {
    public enum Format: String, CaseIterable, Sendable { case human, json, junit, tap, github }

    public var outcomes: [CaseOutcome]

    public init(_ outcomes: [CaseOutcome]) { self.outcomes = outcomes }

    public var passed: Int { outcomes.count { $0.status == .passed } }
    public var failed: Int { outcomes.count { $0.status == .failed } }
    public var wrong: Int { outcomes.count { $0.status == .wrong } }

    /// 0 when every case holds, 1 when one fails, 2 when a request is wrong.
    public var exitStatus: Int32 { wrong > 0 ? 2 : failed > 0 ? 1 : 0 }

    public func text(_ format: Format) -> String {
        switch format {
        case .human: human
        case .json: JSONWriter.string(json) + "\n"
        case .junit: junit
        case .tap: tap
        case .github: github
        }
    }

    /// The files, in the order their cases ran.
    var files: [String] {
        var seen: [String] = []
        for o in outcomes where !seen.contains(o.file) { seen.append(o.file) }
        return seen
    }

    var seconds: Double { outcomes.reduce(0) { $0 + $1.seconds } }

    /// `8 cases: 7 passed, 1 failed`.
    var summary: String {
        var parts = ["\(passed) passed", "\(failed) failed"]
        if wrong > 0 { parts.append("\(wrong) wrong") }
        let n = outcomes.count
        return "\(n) case\(n == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    // MARK: - For a person

    /// A line per case; under a failure, each expectation that did not hold and the results expected against
    /// those got, with each result's ranking tiers.
    var human: String {
        var text = ""
        for o in outcomes {
            let c = o.testCase
            let label = o.status == .passed ? "PASS" : o.status == .failed ? "FAIL" : "WRONG"
            text += "\(label)  \(c.name)  (\(c.summary))"
            if o.status != .passed { text += "  \(o.file):\(c.line)" }
            text += "\n"
            guard o.status != .passed else { continue }
            for f in o.failures { text += "      \(f.expectation): \(f.message)\n" }
            if o.error == nil { text += Self.sideBySide(o).map { "        " + $0 + "\n" }.joined() }
        }
        return text + summary + "\n"
    }

    /// The rows of expected against got: `#` (marked `≠` where they differ), expected, got, and a column for each
    /// ranking tier of what was got.
    static func sideBySide(_ o: CaseOutcome) -> [String] {
        let expected = o.testCase.expect.top ?? []
        let shown = min(o.got.count, max(expected.count, 10))
        let rowCount = max(expected.count, shown)
        guard rowCount > 0 else { return [] }
        var names: [String] = []
        for key in o.got.prefix(shown) {
            for tier in o.tiers[key] ?? [] where !names.contains(tier.name) { names.append(tier.name) }
        }
        var rows = [["#", "expected", "got"] + names]
        for i in 0..<rowCount {
            let e = i < expected.count ? expected[i] : ""
            let g = i < shown ? o.got[i] : ""
            let mark = i < expected.count && e != g ? "≠" : ""
            let tiers = o.tiers[g] ?? []
            rows.append(["\(i + 1)\(mark)", e, g] + names.map { n in tiers.first { $0.name == n }?.value ?? "" })
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in cell + String(repeating: " ", count: widths[i] - cell.count) }
                .joined(separator: "  ").trimmingTrailingSpaces
        }
    }

    // MARK: - JSON

    /// `{"passed": n, "failed": n, "wrong": n, "cases": [{file, line, index, name, method, status, got, total?,
    /// failures, tiers?, seconds}]}`.
    public var json: JSONValue { json(located: true) }

    /// The JSON report; without `located` (the pipe's `test`, whose cases come in a request), cases have no `file`
    /// and `line`.
    public func json(located: Bool) -> JSONValue {
        let cases: [JSONValue] = outcomes.map { o in
            var c = JSONObject()
            if located {
                c["file"] = .string(o.file)
                c["line"] = JSONValue(o.testCase.line)
            }
            c["index"] = JSONValue(o.testCase.index)
            c["name"] = .string(o.testCase.name)
            c["method"] = .string(o.testCase.method.rawValue)
            c["status"] = .string(o.status.rawValue)
            c["got"] = .array(o.got.map { .string($0) })
            if let total = o.total { c["total"] = JSONValue(total) }
            c["failures"] = .array(
                o.failures.map { ["expectation": .string($0.expectation), "message": .string($0.message)] })
            if !o.tiers.isEmpty {
                c["tiers"] = .object(
                    JSONObject(
                        o.got.compactMap { k in
                            o.tiers[k].map { (k, .object(JSONObject($0.map { ($0.name, .string($0.value)) }))) }
                        }))
            }
            if let error = o.error { c["error"] = error.json }
            c["seconds"] = JSONValue((o.seconds * 1e6).rounded() / 1e6)
            return .object(c)
        }
        return .object(
            JSONObject([
                ("passed", JSONValue(passed)), ("failed", JSONValue(failed)), ("wrong", JSONValue(wrong)),
                ("cases", .array(cases)),
            ]))
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
