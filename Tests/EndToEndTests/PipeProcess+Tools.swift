import Foundation
import JSON

extension PipeProcess {
    /// The MCP tool of each pipe method the tests call through both.
    static let tools = ["ingest": "ingest_records", "stats": "index_stats", "spotlight": "spotlight_query"]

    /// A pipe request, or through `mcp` the tool of the same method (2026-07-28, request by request); returns the
    /// result (a tool's structured content) and the error's `data.code` (a tool's `isError` result included).
    func call(through command: String, _ method: String, _ params: JSONValue) -> (result: JSONValue?, code: String?) {
        guard command == "mcp" else {
            let (result, error) = call(method, params)
            return (result, error?["data"]?["code"]?.string ?? error.map { JSONWriter.string($0) })
        }
        let (result, error) = call(
            "tools/call",
            ["name": .string(Self.tools[method] ?? method), "arguments": params, "_meta": ProtocolBoundsTests.meta])
        if result?["isError"]?.bool == true {
            return (nil, result?["_meta"]?["entityidx/error"]?["data"]?["code"]?.string ?? "?")
        }
        return (result?["structuredContent"], error.map { JSONWriter.string($0) })
    }

    /// The CPU time a process has used (user and system), in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
