import Foundation
import JSON
import TestSupport
import Testing

/// `entityidx serve` end to end: every status the HTTP layer answers, keep-alive, origins, the token, signals.
@Suite struct ServeTests {
    static let host = "Host: 127.0.0.1\r\n"

    static func sampleIndex() throws -> String {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try Binary.ingestSamples(into: db, now: "2026-03-02T09:00:00Z")
        return db
    }

    static let statuses: [(String, Int)] = [
        ("GET / HTTP/1.1\n" + host + "\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET /nope HTTP/1.1\r\n" + host + "\r\n", 404),
        ("PUT /rpc HTTP/1.1\r\n" + host + "Content-Length: 0\r\n\r\n", 405),
        ("GET /mcp HTTP/1.1\r\n" + host + "Accept: text/event-stream\r\n\r\n", 405),
        ("POST /rpc HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
        ("POST /rpc HTTP/1.1\r\n" + host + "Content-Length: 5000\r\n\r\n", 413),
        ("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n" + host + "\r\n", 414),
        ("GET / HTTP/1.1\r\n" + host + "X-Big: " + String(repeating: "b", count: 17000) + "\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\n" + host + String(repeating: "X-A: 1\r\n", count: 65) + "\r\n", 431),
        ("BREW / HTTP/1.1\r\n" + host + "\r\n", 501),
        ("POST /rpc HTTP/1.1\r\n" + host + "Transfer-Encoding: br\r\n\r\n", 501),
        ("GET / HTTP/2.0\r\n" + host + "\r\n", 505),
        ("POST /rpc HTTP/1.1\r\n" + host + "Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", 415),
        ("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", 403),
    ]

    @Test func everyStatus() throws {
        let server = try ServeProcess(
            db: try Self.sampleIndex(), extra: ["--max-body-bytes", "4096", "--idle-timeout", "1"])
        for (request, status) in Self.statuses {
            let reply = server.request(request)
            #expect(reply?.status == status, "\(request.prefix(60).debugDescription): \(reply?.text ?? "no answer")")
        }
        // 408: a request that does not arrive in time (the 1 s of --idle-timeout, which the answer names); then the
        // connection is closed.
        let slow = server.connect()
        slow.send("POST /rpc HTTP/1.1\r\n" + Self.host + "Content-Length: 10\r\n\r\n{")
        let timedOut = slow.read()
        #expect(timedOut?.status == 408)
        #expect(timedOut?.text.contains("within 1 s") == true, "\(timedOut?.text ?? "no answer")")
        #expect(slow.closedByServer())
        slow.close()
        // An idle keep-alive connection is closed after the timeout, without an answer.
        let idle = server.connect()
        #expect(idle.closedByServer())
        idle.close()
        // The server still answers.
        #expect(server.rpc(#"{"jsonrpc":"2.0","id":1,"method":"stats"}"#)?.status == 200)
        #expect(server.stop() == 143)
    }

    @Test func keepAliveAndPipelining() throws {
        let server = try ServeProcess(db: try Self.sampleIndex())
        let connection = server.connect()
        defer { connection.close() }
        for id in 1...3 {
            connection.send(
                ServeProcess.post(
                    "/rpc", #"{"jsonrpc":"2.0","id":\#(id),"method":"search","params":{"query":"ada lo"}}"#))
            let reply = connection.read()
            #expect(reply?.status == 200)
            #expect(reply?.json["id"] == JSONValue(id))
            #expect(reply?.json["result"]?["entities"]?.array?.first?["title"] == "Ada Lovelace")
        }
        // Two requests in one write, then a HEAD: answered in order on the same connection.
        connection.send(
            ServeProcess.post("/rpc", #"{"jsonrpc":"2.0","id":"a","method":"stats"}"#)
                + "GET / HTTP/1.1\r\n\(Self.host)\r\nHEAD /preview.js HTTP/1.1\r\n\(Self.host)\r\n")
        #expect(connection.read()?.json["id"] == "a")
        let page = connection.read()
        #expect(page?.status == 200)
        #expect(page?.text.contains("<title>entityidx preview</title>") == true)
        #expect(page?.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
        let head = connection.read(head: true)
        #expect(head?.status == 200)
        #expect(head?.header("Content-Type")?.hasPrefix("text/javascript") == true)
        #expect(Int(head?.header("Content-Length") ?? "0") ?? 0 > 1000)
        // A notification alone: 204, no body.
        connection.send(ServeProcess.post("/rpc", #"{"jsonrpc":"2.0","method":"stats"}"#))
        #expect(connection.read()?.status == 204)
    }

    @Test func originsAndHosts() throws {
        let server = try ServeProcess(db: try Self.sampleIndex(), extra: ["--allow-origin", "https://app.example"])
        let body = #"{"jsonrpc":"2.0","id":1,"method":"stats"}"#
        let foreign = server.rpc(body, headers: ["Origin: http://evil.example"])
        #expect(foreign?.status == 403)
        #expect(foreign?.header("Access-Control-Allow-Origin") == nil)
        #expect(server.rpc(body, headers: ["Origin: null"])?.status == 403)
        #expect(server.rpc(body, headers: ["Origin: http://localhost.evil.example"])?.status == 403)
        // Origins read strictly: not a loopback prefix followed by something else (OriginTests has the full table).
        for origin in [
            "http://[::1]evil.com", "http://[::1]:80evil", "http://127.0.0.1.evil.com", "http://localhost@evil.com",
            "http://user@localhost", "http://localhost/path", "http://localhost:8100#x",
        ] {
            let reply = server.rpc(body, headers: ["Origin: \(origin)"])
            #expect(reply?.status == 403, "\(origin)")
            #expect(reply?.header("Access-Control-Allow-Origin") == nil, "\(origin)")
        }
        for origin in ["http://localhost:8100", "http://127.0.0.1:5173", "http://[::1]:3000", "https://app.example"] {
            let reply = server.rpc(body, headers: ["Origin: \(origin)"])
            #expect(reply?.status == 200, "\(origin)")
            #expect(reply?.header("Access-Control-Allow-Origin") == origin)
        }
        let preflight = server.request(
            "OPTIONS /rpc HTTP/1.1\r\n\(Self.host)Origin: http://localhost:8100\r\nAccess-Control-Request-Method: POST\r\n\r\n"
        )
        #expect(preflight?.status == 204)
        #expect(preflight?.header("Access-Control-Allow-Headers")?.contains("Authorization") == true)
        #expect(server.request("GET / HTTP/1.1\r\nHost: app.example\r\n\r\n")?.status == 200)
        #expect(server.request("GET / HTTP/1.1\r\nHost: rebound.example:8765\r\n\r\n")?.status == 403)
        #expect(server.request("GET / HTTP/1.1\r\nHost: [::1]evil.example\r\n\r\n")?.status == 403)
        #expect(server.request("GET / HTTP/1.1\r\nHost: localhost@evil.example\r\n\r\n")?.status == 403)
        #expect(server.request("GET / HTTP/1.1\r\nHost: localhost:1\r\n\r\n")?.status == 200)
    }

    @Test func writesNeedTheFlagAndTheToken() throws {
        let db = try Self.sampleIndex()
        let ingest =
            #"{"jsonrpc":"2.0","id":1,"method":"ingest","params":{"records":[{"type":"note","id":"n1","title":"Roastery"}]}}"#
        let readOnly = try ServeProcess(db: db)
        let refused = readOnly.rpc(ingest)
        #expect(refused?.status == 403)
        #expect(refused?.json["error"]?["data"]?["code"] == "read_only")
        #expect(
            readOnly.rpc(#"{"jsonrpc":"2.0","id":1,"method":"get","params":{"type":"note","ids":["n1"]}}"#)?.status
                == 200)
        _ = readOnly.stop()

        let server = try ServeProcess(db: db, extra: ["--allow-writes"])
        let token = try #require(server.token)
        #expect(token.count == 64)
        let none = server.rpc(ingest)
        #expect(none?.status == 401)
        #expect(none?.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
        #expect(none?.json["error"]?["data"]?["code"] == "unauthorized")
        #expect(server.rpc(ingest, headers: ["Authorization: Bearer wrong"])?.status == 401)
        // A batch: the read is answered, the write refused, and the status says so.
        let batch = server.rpc("[\(ingest),{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"stats\"}]")
        #expect(batch?.status == 401)
        #expect(batch?.json.array?.last?["result"]?["entities"] != nil)
        let done = server.rpc(ingest, headers: ["Authorization: Bearer \(token)"])
        #expect(done?.status == 200)
        #expect(done?.json["result"]?["inserted"] == 1)
        _ = server.stop()

        let fromEnvironment = try ServeProcess(
            db: db, extra: ["--allow-writes"], environment: ["ENTITYIDX_TOKEN": "a-token-of-my-own"])
        #expect(fromEnvironment.token == nil)
        #expect(fromEnvironment.rpc(ingest, headers: ["Authorization: Bearer a-token-of-my-own"])?.status == 200)
        #expect(fromEnvironment.stop(signal: SIGINT) == 130)
        // No record text is logged: only what the server says at start.
        #expect(!fromEnvironment.stderr.contains("Roastery"))
    }

    /// `test` is a read: a server without --allow-writes answers it, and one with them needs no token for it.
    @Test func expectationsAreARead() throws {
        let db = try Self.sampleIndex()
        let cases = """
            [{"name": "an order by its number", "search": {"query": "1042", "limit": 5}, "expect": {"top": ["order/1042"]}},
             {"name": "not first", "search": {"query": "1042"}, "expect": {"excludes": ["order/1042"]}}]
            """
        let request = #"{"jsonrpc":"2.0","id":1,"method":"test","params":{"cases":"# + cases + "}}"
        for extra in [[], ["--allow-writes"]] {
            let server = try ServeProcess(db: db, extra: extra)
            let reply = server.rpc(request)
            #expect(reply?.status == 200, "\(extra)")
            let result = reply?.json["result"]
            #expect(result?["passed"] == 1 && result?["failed"] == 1, "\(reply?.text ?? "")")
            #expect(result?["cases"]?.array?.map { $0["status"] } == ["passed", "failed"])
            let wrong = server.rpc(
                #"{"jsonrpc":"2.0","id":2,"method":"test","params":{"cases":[{"name":"n","serch":{},"expect":{"count":1}}]}}"#
            )
            #expect(wrong?.json["error"]?["code"] == -32602)
            #expect(wrong?.json["error"]?["message"]?.string?.contains(#"cases[0] ("n"): serch"#) == true)
            _ = server.stop()
        }
    }

    /// The page's files as served are web/'s as they are (else `make web` was not run after editing them).
    @Test func thePreviewIsWebsFiles() throws {
        let server = try ServeProcess(db: try Self.sampleIndex())
        for (path, file, type) in [
            ("/", "index.html", "text/html"), ("/preview.css", "preview.css", "text/css"),
            ("/preview.js", "preview.js", "text/javascript"),
        ] {
            let reply = try #require(server.request("GET \(path) HTTP/1.1\r\n\(Self.host)\r\n"))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix(type) == true)
            let expected = TestSupport.read(TestSupport.repository + "/web/" + file)
            #expect(reply.text == expected, "\(file) differs from what serve embeds: run make web")
        }
    }

    @Test func aReadingServerNeedsAnIndex() throws {
        let r = try Binary.run(["--db", TestSupport.temporaryDirectory() + "/none.sqlite", "serve", "--port", "0"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no index at"))
        let bad = try Binary.run(["serve", "--allow-origin", "app.example"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--allow-origin must be an origin"))
    }
}
