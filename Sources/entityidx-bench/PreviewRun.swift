import Foundation
import JSON

/// What the preview page of `entityidx serve` asks of the index (web/preview.js), timed through the pipe on the
/// real corpus: the requests of a page load, the lint behind "Check the index", and what a pause in typing sends.
struct PreviewRun {
    let pipe: PipeClient
    /// The texts typed: the query mix of the searches.
    let queries: [String]
    /// Page loads timed.
    var loads = 20

    func run() throws -> PreviewReport {
        func request(_ id: Int, _ method: String, _ params: String) -> String {
            #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
        }
        func quoted(_ q: String) -> String { JSONWriter.string(.string(q)) }
        // A load: `stats`, then `suggest` for the empty box (the page sends them apart).
        let stats = "[" + request(1, "stats", "{}") + "]"
        let suggest = "[" + request(2, "suggest", #"{"limit":10}"#) + "]"
        for _ in 0..<3 { _ = try pipe.call(stats) + pipe.call(suggest) }
        let load = try Latency(timing: Array(0..<loads)) { _ in _ = try pipe.call(stats) + pipe.call(suggest) }
        // "Check the index", and the lint each load sent before it (every finding listed).
        func lint(_ params: String) throws -> (seconds: Double, bytes: Int) {
            let t = now()
            let answer = try pipe.call("[" + request(3, "lint", params) + "]")
            return (now() - t, answer.count)
        }
        let limited = try lint(#"{"limit":100}"#)
        let everything = try lint("{}")
        // A pause in typing: `search` and `userQuery` in one batch; then `userQuery` alone.
        func keystroke(_ q: String) -> String {
            "["
                + request(
                    4, "search",
                    #"{"query":\#(quoted(q)),"limit":20,"highlight":true,"explain":false,"matching":"all"}"#)
                + "," + request(5, "userQuery", #"{"query":\#(quoted(q)),"maxItems":0,"maxSuggestions":5}"#) + "]"
        }
        func userQuery(_ q: String) -> String {
            request(6, "userQuery", #"{"query":\#(quoted(q)),"maxItems":0,"maxSuggestions":5}"#)
        }
        for q in queries.prefix(5) { _ = try pipe.call(keystroke(q)) }
        let typed = try Latency(timing: queries) { _ = try pipe.call(keystroke($0)) }
        var nothing: [Double] = []
        let suggesting = try Latency(timing: queries) { q in
            let t = now()
            let answer = try pipe.call(userQuery(q))
            if answer.range(of: Data(#""suggestions":[]"#.utf8)) != nil { nothing.append((now() - t) * 1000) }
        }
        return PreviewReport(
            load: load, lint: limited, lintEverything: everything, keystroke: typed, userQuery: suggesting,
            nothingSuggested: Latency(samples: nothing))
    }
}

struct PreviewReport {
    /// `stats` then `suggest`, as a load sends them, in ms.
    var load: Latency
    /// `lint` with `limit: 100`, and without a limit: seconds and bytes of the answer.
    var lint: (seconds: Double, bytes: Int)
    var lintEverything: (seconds: Double, bytes: Int)
    /// The batch of `search` and `userQuery` a pause in typing sends, in ms.
    var keystroke: Latency
    /// `userQuery` alone, for every query and for those where nothing is suggested, in ms.
    var userQuery: Latency
    var nothingSuggested: Latency

    var text: String {
        func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
        var t = "preview page      load (stats, suggest) p50 \(f(load.p50, 3)) ms"
        t += "   Check the index (lint, limit 100) \(f(lint.seconds)) s, \(f(Double(lint.bytes) / 1e6, 3)) MB"
        t += "   (every finding: \(f(lintEverything.seconds)) s, \(f(Double(lintEverything.bytes) / 1e6, 1)) MB)\n"
        t +=
            "                  keystroke (search + userQuery) p50 / p99 \(f(keystroke.p50, 3)) / \(f(keystroke.p99, 3)) ms"
        t += "   userQuery \(f(userQuery.p50, 3)) / \(f(userQuery.p99, 3))"
        t +=
            "   nothing suggested (\(nothingSuggested.samples.count)) \(f(nothingSuggested.p50, 3)) / \(f(nothingSuggested.p99, 3)) / max \(f(nothingSuggested.max, 3))\n"
        return t
    }
}

extension Report {
    /// The preview page's part of docs/benchmarks.md: a column per variant of the package list.
    static func previewSection(_ reports: [RealReport]) -> String {
        let measured = reports.filter { $0.preview != nil }
        guard !measured.isEmpty else { return "" }
        func f(_ v: Double, _ d: Int = 2) -> String { String(format: "%.\(d)f", v) }
        var md = "## The preview page: Debian's package list\n\n"
        md +=
            "What the preview page of `entityidx serve` asks of the index (`web/preview.js`), timed through the pipe, whose "
        md +=
            "JSON-RPC endpoint also answers `POST /rpc`: a load sends `stats` and `suggest` (the empty box's entities); "
        md +=
            "\"Check the index\" sends `lint` with `limit: 100` (the first 100 findings listed, all of them counted); a "
        md +=
            "pause in typing sends `search` (20 results with highlights) and `userQuery` (suggestions only) in one batch, "
        md +=
            "timed here for each query of the search mix above as if typed, then `userQuery` alone, with the queries it "
        md += "suggests nothing for apart. Before, each load also sent `lint` without a limit (the last row).\n\n"
        md +=
            "| request |"
            + measured.map { $0.withDescriptions ? " long descriptions |" : " no long descriptions |" }.joined()
        md += "\n|---|" + String(repeating: "---|", count: measured.count) + "\n"
        func row(_ name: String, _ cell: (PreviewReport) -> String) {
            md += "| \(name) |" + measured.map { " \(cell($0.preview!)) |" }.joined() + "\n"
        }
        row("a load: `stats`, then `suggest`, p50 ms") { f($0.load.p50, 3) }
        row("Check the index: `lint`, `limit: 100`, s (answer)") {
            "\(f($0.lint.seconds)) (\(f(Double($0.lint.bytes) / 1e3, 1)) kB)"
        }
        row("a pause in typing: `search` + `userQuery`, p50 / p99 ms") {
            "\(f($0.keystroke.p50, 3)) / \(f($0.keystroke.p99, 3))"
        }
        row("`userQuery` alone, p50 / p99 ms") { "\(f($0.userQuery.p50, 3)) / \(f($0.userQuery.p99, 3))" }
        row("`userQuery` suggesting nothing, p50 / p99 / max ms (queries)") {
            "\(f($0.nothingSuggested.p50, 3)) / \(f($0.nothingSuggested.p99, 3)) / \(f($0.nothingSuggested.max, 3)) (\($0.nothingSuggested.samples.count))"
        }
        row("`lint` without a limit, every finding listed, s (answer)") {
            "\(f($0.lintEverything.seconds)) (\(f(Double($0.lintEverything.bytes) / 1e6, 1)) MB)"
        }
        return md + "\n"
    }
}
