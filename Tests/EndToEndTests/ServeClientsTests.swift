import Foundation
import JSON
import TestSupport
import Testing

/// `entityidx serve` with several clients at once: a batch belongs to the client that opened it, reads are
/// answered while a write holds the lock, nothing acknowledged is ever rolled back, and a request whose client went
/// away or whose budget ran out applies nothing.
///
/// No assertion here is on a time: a wait only bounds how long a hang may last before the test fails.
@Suite struct ServeClientsTests {
    final class Client: @unchecked Sendable {
        let server: ServeProcess
        var batch: String?

        init(_ server: ServeProcess) { self.server = server }

        /// Sends one JSON-RPC request (with the client's batch, if any) and returns the response's JSON.
        @discardableResult
        func call(_ method: String, _ params: String = "{}") -> JSONValue {
            var headers = ["Authorization: Bearer \(server.token ?? "")"]
            if let batch { headers.append("Entityidx-Batch: \(batch)") }
            let body = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
            let json = server.rpc(body, headers: headers)?.json ?? .null
            if method == "batch.begin", let id = json["result"]?["batch"]?.string { batch = id }
            if method == "batch.end" || method == "batch.abort" { batch = nil }
            return json
        }

        func ingest(_ id: String, _ title: String) -> JSONValue {
            call("ingest", #"{"records":[{"type":"task","id":"\#(id)","title":"\#(title)"}]}"#)
        }

        func ids(_ wanted: [String]) -> [String] {
            let list = wanted.map { "\"\($0)\"" }.joined(separator: ",")
            return call("get", #"{"type":"task","ids":[\#(list)]}"#)["result"]?["entities"]?.array?.compactMap {
                $0["id"]?.string
            } ?? []
        }
    }

    static func server(_ extra: [String] = []) throws -> ServeProcess {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: "2026-03-02T09:00:00Z")
        return try ServeProcess(db: db, extra: ["--allow-writes", "--log"] + extra)
    }

    /// Runs `body` on another thread; `wait` returns its value (nil if it hangs for two minutes).
    final class Background<T>: @unchecked Sendable {
        private var value: T?
        private let done = DispatchSemaphore(value: 0)

        init(_ body: @escaping @Sendable () -> T) {
            Thread.detachNewThread { [self] in
                value = body()
                done.signal()
            }
        }

        func wait() -> T? { done.wait(timeout: .now() + 120) == .success ? value : nil }
    }

    @Test func anotherClientsWriteIsNeverPartOfABatch() throws {
        let server = try Self.server()
        let a = Client(server)
        let b = Client(server)
        #expect(a.call("batch.begin")["result"]?["batch"]?.string?.hasPrefix("b-") == true)
        #expect(a.ingest("a1", "in the batch")["result"]?["inserted"] == 1)
        // The batch sees its own change; other clients do not, and read while it holds the write lock.
        #expect(a.ids(["a1"]) == ["a1"])
        #expect(b.ids(["a1"]) == [])
        #expect(b.call("search", #"{"query":"ada"}"#)["result"]?["entities"]?.array?.isEmpty == false)
        // B's write waits for the lock, and is answered once A's batch ends (refused: nothing of it applied).
        let write = Background { b.ingest("b1", "outside the batch") }
        let end = a.call("batch.end", #"{"clientState":"v2","expectedClientState":"v1"}"#)
        #expect(end["error"]?["data"]?["code"] == "mismatched_client_state")
        #expect(write.wait()?["result"]?["inserted"] == 1)
        #expect(b.ids(["a1", "b1"]) == ["b1"])
        #expect(b.call("state")["result"]?["clientState"] == .null)
        // A request that names no open batch is refused, and says why.
        let late = Client(server)
        late.batch = "b-0123"
        let refused = late.ingest("z", "nowhere")
        #expect(refused["error"]?["data"]?["code"] == "batch_state")
        #expect(refused["error"]?["message"]?.string?.contains("start a new batch with batch.begin") == true)
        #expect(b.ids(["z"]) == [])
        #expect(server.stop() == 143)
    }

    @Test func aBatchIsAppliedWholeWithItsClientState() throws {
        let server = try Self.server()
        let a = Client(server)
        a.call("batch.begin")
        let id = a.batch
        #expect(a.ingest("1", "one")["result"]?["inserted"] == 1)
        #expect(a.ingest("2", "two")["result"]?["inserted"] == 1)
        #expect(a.call("batch.end", #"{"clientState":"s1"}"#)["result"] == [:])
        #expect(Client(server).ids(["1", "2"]) == ["1", "2"])
        #expect(Client(server).call("state")["result"]?["clientState"] == "s1")
        // The id is spent: it names a batch that was applied.
        let again = Client(server)
        again.batch = id
        let refused = again.ingest("3", "three")
        #expect(refused["error"]?["message"]?.string?.contains("it was applied by batch.end") == true)
        // One POST may hold a whole batch: begin, changes, end.
        let one = server.rpc(
            #"[{"jsonrpc":"2.0","id":1,"method":"batch.begin"},{"jsonrpc":"2.0","id":2,"method":"ingest","params":{"records":[{"type":"task","id":"4","title":"four"}]}},{"jsonrpc":"2.0","id":3,"method":"batch.end","params":{"clientState":"s2","expectedClientState":"s1"}}]"#,
            headers: ["Authorization: Bearer \(server.token ?? "")"])
        #expect(one?.json.array?.last?["result"] == [:])
        #expect(Client(server).ids(["3", "4"]) == ["4"])
        // batch.abort rolls back.
        let c = Client(server)
        c.call("batch.begin")
        _ = c.ingest("5", "five")
        #expect(c.call("batch.abort")["result"] == [:])
        #expect(Client(server).ids(["5"]) == [])
        // No batch holds the lock: a new one begins.
        let probe = Client(server)
        #expect(probe.call("batch.begin")["result"]?["batch"] != nil)
        #expect(probe.call("batch.abort")["result"] == [:])
        #expect(server.stop() == 143)
    }

    @Test func anAbandonedBatchIsRolledBackAndTheLockReleased() throws {
        let server = try Self.server(["--batch-timeout", "1"])
        let gone = Client(server)
        gone.call("batch.begin")
        _ = gone.ingest("g", "abandoned")
        // A page reloaded: a new client opens its own batch once the abandoned one is rolled back.
        let page = Client(server)
        #expect(page.call("batch.begin")["result"]?["batch"]?.string != gone.batch)
        _ = page.ingest("p", "mine")
        #expect(page.call("batch.end", #"{"clientState":"p1"}"#)["result"] == [:])
        #expect(page.ids(["g", "p"]) == ["p"])
        // The abandoned client learns its batch is gone, and why.
        let late = gone.ingest("g2", "too late")
        #expect(late["error"]?["message"]?.string?.contains("rolled back after 1 s without a request") == true)
        #expect(page.ids(["g2"]) == [])
        #expect(server.stop() == 143)
    }

    @Test func aWriteWaitingPastItsBudgetAppliesNothing() throws {
        let server = try Self.server(["--request-timeout", "1", "--batch-timeout", "600"])
        let a = Client(server)
        a.call("batch.begin")
        let b = Client(server)
        let refused = b.ingest("late", "waits for the lock")
        #expect(refused["error"]?["data"]?["code"] == "timed_out")
        #expect(refused["error"]?["message"]?.string?.contains("nothing of it was applied") == true)
        #expect(a.call("batch.end", #"{"clientState":"a"}"#)["result"] == [:])
        #expect(b.ids(["late"]) == [])
        #expect(server.stop() == 143)
    }

    @Test func aRequestWhoseClientHungUpIsCancelled() throws {
        let server = try Self.server(["--request-timeout", "0", "--batch-timeout", "600"])
        let a = Client(server)
        a.call("batch.begin")
        // B sends a write that waits for A's lock, then hangs up.
        let connection = server.connect()
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"ingest","params":{"records":[{"type":"task","id":"gone","title":"x"}]}}"#
        connection.send(ServeProcess.post("/rpc", body, headers: ["Authorization: Bearer \(server.token ?? "")"]))
        #expect(!server.stderr.contains("cancelled: the client went away"))
        connection.close()
        #expect(server.waitForLog("cancelled: the client went away"))
        #expect(a.call("batch.end", #"{"clientState":"a"}"#)["result"] == [:])
        #expect(a.ids(["gone"]) == [])
        #expect(server.stop() == 143)
    }

    @Test func aStopSignalRollsBackOpenBatchesAndKeepsAcknowledgedWrites() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: "2026-03-02T09:00:00Z")
        let server = try ServeProcess(db: db, extra: ["--allow-writes"])
        let b = Client(server)
        #expect(b.ingest("kept", "acknowledged")["result"]?["inserted"] == 1)
        let a = Client(server)
        a.call("batch.begin")
        #expect(a.ingest("dropped", "in the open batch")["result"]?["inserted"] == 1)
        #expect(server.stop() == 143)
        let after = try ServeProcess(db: db, extra: ["--allow-writes"])
        #expect(Client(after).ids(["kept", "dropped"]) == ["kept"])
        #expect(after.stop() == 143)
    }

    @Test func requestsHeldInMemoryAreBoundedAcrossConnections() throws {
        let server = try Self.server(["--max-held-bytes", "1048576"])
        // Two unfinished bodies of 600 KB: the first is held, the second would pass the bound.
        let first = server.connect()
        let second = server.connect()
        let head =
            "POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 700000\r\n\r\n"
        let part = String(repeating: " ", count: 600_000)
        first.send(head + part)
        #expect(server.rpc(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#)?.status == 200)
        second.send(head + part)
        let refused = second.read()
        #expect(refused?.status == 503)
        #expect(refused?.header("Retry-After") == "1")
        #expect(refused?.text.contains("1048576 bytes of requests") == true)
        second.close()
        // The held body still completes; the next request is served.
        first.send(String(repeating: " ", count: 99_998) + "[]")
        #expect(first.read()?.status == 200)
        first.close()
        #expect(server.rpc(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#)?.status == 200)
        #expect(server.stop() == 143)
    }

    @Test func anIdleServerLetsGoOfAFileMovedOverItsPath() throws {
        let dir = TestSupport.temporaryDirectory()
        let other = dir + "/other.sqlite"
        let made = try Binary.run(
            ["--db", other, "--now", "2026-03-02T09:00:00Z", "ingest", "-"],
            input: #"{"type":"order","id":"1","title":"in the other file"}"#)
        #expect(made.status == 0, "\(made.stderr)")
        let db = dir + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: "2026-03-02T09:00:00Z")
        let server = try ServeProcess(db: db, extra: ["--allow-writes"])
        let client = Client(server)
        // The writer and a reader have the file open.
        #expect(client.ingest("t", "task")["result"]?["inserted"] == 1)
        #expect(client.call("search", #"{"query":"ada"}"#)["result"] != nil)
        #expect(rename(other, db) == 0)
        // A fresh command on the new file, with no request to serve meanwhile: serve lets go while idle.
        let fresh = try Binary.run([
            "--db", db, "--now", "2026-03-02T09:00:00Z", "get", "--type", "order", "1", "--json",
        ])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        // Serve's first write after is refused (its earlier changes are in the file moved away), then it goes on.
        #expect(client.ingest("u", "after")["error"]?["data"]?["code"] == "database_replaced")
        #expect(client.ingest("v", "after")["result"]?["inserted"] == 1)
        #expect(client.call("get", #"{"type":"order","ids":["1"]}"#)["result"]?["entities"]?.array?.count == 1)
        #expect(server.stop() == 143)
    }

    @Test func aRequestRacingItsBatchsEndIsAppliedWithItOrRefused() throws {
        let server = try Self.server()
        for round in 0..<20 {
            let a = Client(server)
            a.call("batch.begin")
            let twin = Client(server)
            twin.batch = a.batch
            // The twin's ingest and A's end race for the batch's turn: the ingest is either part of the batch
            // (applied with it) or refused; it never commits on the batch's connection after the batch ended.
            let racing = Background { twin.ingest("r\(round)", "racing") }
            #expect(a.call("batch.end", #"{"clientState":"r\#(round)"}"#)["result"] == [:])
            let answer = try #require(racing.wait())
            let present = Client(server).ids(["r\(round)"]) == ["r\(round)"]
            if answer["result"] != nil {
                #expect(present, "acknowledged in the batch, so applied with it")
            } else {
                #expect(answer["error"]?["data"]?["code"] == "batch_state")
                #expect(!present, "refused, so absent")
            }
        }
        #expect(server.stop() == 143)
    }
}
