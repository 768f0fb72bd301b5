import Foundation
import JSON
import TestSupport
import Testing

/// The pipe's memory over many requests whose SQL differs only by values (limits, types): it must stay flat.
@Suite(.serialized) struct PipeMemoryTests {
    @Test func residentMemoryStaysFlatOverTenThousandSearchesWithDifferentLimits() throws {
        let p = try PipeProcess(db: TestSupport.temporaryDirectory() + "/index.sqlite")
        defer { p.close() }
        let records: [JSONValue] = (0..<8).map { TestSupport.record("task", "\($0)", "Task \($0) blue kettle") }
        #expect(p.call("ingest", ["records": .array(records)]).error == nil)
        // Each request is written without waiting for its answer (in chunks, so that neither pipe fills up).
        var baseline = 0
        var answered = 0
        for chunk in 0..<20 {
            var lines = ""
            for i in 0..<500 {
                let n = chunk * 500 + i
                let query = ["task", "blue", "kett", "task 1"][n % 4]
                let request: JSONValue = [
                    "jsonrpc": "2.0", "id": JSONValue(n), "method": "search",
                    "params": ["query": .string(query), "limit": JSONValue(1 + n % 10_000)],
                ]
                lines += JSONWriter.string(request) + "\n"
            }
            p.send(String(lines.dropLast()))
            for _ in 0..<500 where p.readLine()?["result"] != nil { answered += 1 }
            if chunk == 1 { baseline = p.residentKiB }
        }
        #expect(answered == 10_000)
        let growth = p.residentKiB - baseline
        #expect(baseline > 0)
        #expect(growth < 4 * 1024, "resident memory grew by \(growth) KiB from the 1,000th to the 10,000th search")
    }
}
