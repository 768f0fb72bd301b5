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

    /// Under an address-space limit (`ulimit -v`) that leaves about 64 MiB beside the idle pipe, requests that would
    /// need more are answered with `resource_exhausted` and the next line is served; a failed allocation would
    /// abort the process instead (the build before this check aborted on each of these lines).
    @Test func underAnAddressSpaceLimitEveryRequestIsAnsweredAndTheNextLineServed() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestLargeItems(db)
        let limit = try Binary.idlePipeKiB(db) + 64 * 1024
        func request(_ id: Int, _ method: String, _ params: JSONValue) -> JSONValue {
            ["jsonrpc": "2.0", "id": JSONValue(id), "method": .string(method), "params": params]
        }
        // 1. A batch of 12 pages of all 400 entities (3.2 MB each, 38 MB in all: within the batch's 64 MiB, not
        // within the memory left).
        let batch = JSONValue.array((0..<12).map { request($0, "all", ["type": "item", "limit": 10_000]) })
        // 2. One line of 32 MB: a get of 4 million ids (written as text: building it as values is slow).
        let ids = Array(repeating: #""00001","00002","00003","00004","00005""#, count: 800_000).joined(separator: ",")
        let huge = #"{"jsonrpc":"2.0","id":100,"method":"get","params":{"type":"item","ids":["# + ids + "]}}"
        // 3. An ingest of 1,000 records of 60 KB (60 MB), all or nothing.
        let big = String(repeating: "large ", count: 10_000)
        let bulk =
            #"{"jsonrpc":"2.0","id":101,"method":"ingest","params":{"records":["#
            + (0..<1_000).map { #"{"type":"bulk","id":"\#($0)","title":"Bulk","description":"\#(big)"}"# }.joined(
                separator: ",") + "]}}"
        let lines = [JSONWriter.string(batch), huge, bulk, JSONWriter.string(request(102, "stats", [:]))]
        let (status, output) = try Binary.pipe(
            underAddressSpaceLimit: limit, db: db, input: lines.map { $0 + "\n" }.joined())
        #expect(status == 0, "the pipe ended with status \(status)")
        let responses = String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            (try? JSONParser().parse(String($0))) ?? .null
        }
        #expect(responses.count == 4, "every line answered: \(responses.count)")
        guard responses.count == 4 else { return }
        let items = responses[0].array ?? []
        #expect(items.count == 12)
        #expect(items.allSatisfy { $0["result"] != nil || $0["error"]?["data"]?["code"] == "resource_exhausted" })
        #expect(items.first?["result"]?["entities"]?.array?.count == 400, "the first page fits")
        #expect(items.contains { $0["error"] != nil }, "the memory left is too little for every page")
        #expect(responses[1]["error"]?["data"]?["code"] == "resource_exhausted", "\(responses[1])")
        let ingest = responses[2]
        #expect(ingest["result"]?["inserted"] == 1_000 || ingest["error"]?["data"]?["code"] == "resource_exhausted")
        #expect(responses[3]["result"]?["entities"] != nil, "the next line is served")
        let stored = responses[3]["result"]?["entities"] ?? .null
        #expect(stored == 400 || stored == 1_400, "all or nothing of the ingest: \(stored)")
    }
}
