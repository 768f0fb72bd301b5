import Foundation
import JSON
import TestSupport
import Testing

/// Many clients of one `serve` for ENTITYIDX_SERVE_SOAK_SECONDS (`make soak`: 180 s; 4 s in `make test`): four HTTP
/// clients ingesting, searching and running batches (applied, refused, rolled back and abandoned), an MCP session
/// ingesting and searching, and a CLI ingester in its own processes. At the end every acknowledged write is in the
/// index and nothing of a batch that was not applied is, nor of a write that ran past its time budget (abandoned
/// batches hold the write lock until their timeout, so writes queue behind them); the figures (operations, writes
/// past their budget, slowest read) are printed.
@Suite(.serialized) struct ServeSoakTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["ENTITYIDX_SERVE_SOAK_SECONDS"] ?? "") ?? 4

    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var acknowledged: [String] = []
        var notApplied: [String] = []
        var errors: [String] = []
        var reads = 0
        var writes = 0
        var batches: [String: Int] = [:]
        var slowestRead = 0.0
        var timedOut = 0
        func record(_ f: (Tally) -> Void) { lock.lock(); f(self); lock.unlock() }
    }

    static func record(_ id: String) -> String {
        #"{"type":"soak","id":"\#(id)","title":"Soak record \#(id) widget"}"#
    }

    @Test func fourHTTPClientsAnMCPSessionAndACLIIngester() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: "2026-03-02T09:00:00Z")
        let server = try ServeProcess(db: db, extra: ["--allow-writes", "--batch-timeout", "2"])
        let token = server.token ?? ""
        let tally = Tally()
        let deadline = Date().addingTimeInterval(Self.seconds)
        let group = DispatchGroup()
        for c in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                Self.httpClient(c, server, token, deadline, tally)
            }
        }
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            Self.mcpClient(server, token, deadline, tally)
        }
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            var n = 0
            while Date() < deadline {
                let file = TestSupport.temporaryDirectory() + "/cli-\(n).ndjson"
                let ids = (0..<20).map { "cli-\(n)-\($0)" }
                try? ids.map(Self.record).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
                // The clock of serve (ServeProcess fixes it), or the serve's records would be purged as expired.
                let result = try? Binary.run(["--db", db, "--now", "2026-03-02T09:00:00Z", "ingest", file])
                tally.record {
                    if result?.status == 0 { $0.acknowledged += ids } else { $0.errors.append(result?.stderr ?? "cli") }
                    $0.writes += 1
                }
                n += 1
            }
        }
        group.wait()
        #expect(server.stop() == 143)
        // Every acknowledged write is there; nothing of a batch that was not applied is.
        let present = Set(try Self.ids(db))
        let lost = tally.acknowledged.filter { !present.contains($0) }
        let leaked = tally.notApplied.filter { present.contains($0) }
        #expect(lost.isEmpty, "acknowledged and lost: \(lost.prefix(5)) of \(lost.count)")
        #expect(leaked.isEmpty, "not applied and present: \(leaked.prefix(5)) of \(leaked.count)")
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        print(
            "serve soak: \(Int(Self.seconds)) s, \(tally.writes) writes (\(tally.acknowledged.count) records acknowledged, \(tally.notApplied.count) not applied, \(tally.timedOut) writes past their budget), \(tally.reads) reads, batches \(tally.batches.sorted { $0.key < $1.key }), slowest read \(Int(tally.slowestRead * 1000)) ms"
        )
    }

    static func ids(_ db: String) throws -> [String] {
        let out = try Binary.sqlite(db, "SELECT id FROM entity WHERE type = 'soak'")
        return out.split(separator: "\n").map(String.init)
    }

    /// One HTTP client: plain ingests, searches, and batches that are applied, refused, rolled back or abandoned.
    static func httpClient(_ c: Int, _ server: ServeProcess, _ token: String, _ deadline: Date, _ tally: Tally) {
        var n = 0
        var generator = SystemRandomNumberGenerator()
        func call(_ method: String, _ params: String, batch: String? = nil) -> JSONValue {
            var headers = ["Authorization: Bearer \(token)"]
            if let batch { headers.append("Entityidx-Batch: \(batch)") }
            let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
            return server.rpc(body, headers: headers)?.json ?? ["error": "no answer"]
        }
        while Date() < deadline {
            n += 1
            let ids = (0..<3).map { "h\(c)-\(n)-\($0)" }
            let records = "{\"records\":[" + ids.map(record).joined(separator: ",") + "]}"
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let started = Date()
                let answer = call("search", #"{"query":"widget","limit":5}"#)
                let elapsed = Date().timeIntervalSince(started)
                tally.record {
                    if answer["result"] == nil { $0.errors.append("search: \(JSONWriter.string(answer))") }
                    $0.reads += 1
                    $0.slowestRead = max($0.slowestRead, elapsed)
                }
            case 4..<7:
                let answer = call("ingest", records)
                tally.record {
                    if answer["result"] != nil {
                        $0.acknowledged += ids
                    } else if answer["error"]?["data"]?["code"] == "timed_out" {
                        $0.timedOut += 1
                        $0.notApplied += ids
                    } else {
                        $0.errors.append(JSONWriter.string(answer))
                    }
                    $0.writes += 1
                }
            default:
                let begun = call("batch.begin", "{}")
                guard let batch = begun["result"]?["batch"]?.string else {
                    tally.record {
                        if begun["error"]?["data"]?["code"] == "timed_out" {
                            $0.timedOut += 1
                        } else {
                            $0.errors.append("batch.begin: \(JSONWriter.string(begun))")
                        }
                    }
                    continue
                }
                let ingested = call("ingest", records, batch: batch)["result"] != nil
                let fate = ["applied", "refused", "aborted", "abandoned"][Int.random(in: 0..<4, using: &generator)]
                let end: JSONValue
                switch fate {
                case "applied": end = call("batch.end", #"{"clientState":"c\#(c)-\#(n)"}"#, batch: batch)
                case "refused":
                    end = call("batch.end", #"{"clientState":"x","expectedClientState":"never"}"#, batch: batch)
                case "aborted": end = call("batch.abort", "{}", batch: batch)
                default: end = .null
                }
                tally.record {
                    $0.batches[fate, default: 0] += 1
                    $0.writes += 1
                    if fate == "applied" && ingested && end["result"] != nil {
                        $0.acknowledged += ids
                    } else if fate != "applied" {
                        $0.notApplied += ids
                        if fate == "refused" && end["error"]?["data"]?["code"] != "mismatched_client_state" {
                            $0.errors.append("refused: \(JSONWriter.string(end))")
                        }
                    } else {
                        $0.errors.append("batch: \(JSONWriter.string(end))")
                    }
                }
            }
        }
    }

    /// An MCP session over HTTP: ingest_records and search_entities.
    static func mcpClient(_ server: ServeProcess, _ token: String, _ deadline: Date, _ tally: Tally) {
        func post(_ body: String, session: String?) -> HTTPReply? {
            var headers = ["Accept: application/json", "Authorization: Bearer \(token)"]
            if let session { headers += ["Mcp-Session-Id: \(session)", "MCP-Protocol-Version: 2025-11-25"] }
            return server.request(ServeProcess.post("/mcp", body, headers: headers))
        }
        let opened = post(
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"soak","version":"1"}}}"#,
            session: nil)
        guard let session = opened?.header("Mcp-Session-Id") else {
            tally.record { $0.errors.append("MCP initialize: \(opened?.text ?? "no answer")") }
            return
        }
        var n = 0
        while Date() < deadline {
            n += 1
            let ids = (0..<2).map { "mcp-\(n)-\($0)" }
            let records = "[" + ids.map(record).joined(separator: ",") + "]"
            let ingest = post(
                #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ingest_records","arguments":{"records":\#(records)}}}"#,
                session: session)
            let started = Date()
            let search = post(
                #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_entities","arguments":{"query":"widget"}}}"#,
                session: session)
            let elapsed = Date().timeIntervalSince(started)
            tally.record {
                if ingest?.json["result"]?["isError"] == false {
                    $0.acknowledged += ids
                } else {
                    $0.errors.append("MCP ingest: \(ingest?.text ?? "no answer")")
                }
                if search?.json["result"]?["isError"] != false { $0.errors.append("MCP search: \(search?.text ?? "")") }
                $0.writes += 1
                $0.reads += 1
                $0.slowestRead = max($0.slowestRead, elapsed)
            }
        }
    }
}

// Its clients share it from several threads: each request opens its own connection, and its fields never change.
extension ServeProcess: @unchecked Sendable {}
