import Foundation
import JSON
import TestSupport
import Testing

/// Hostile clients do not harm the served requests: 1,000 idle connections, clients that send a byte at a time,
/// bodies past the bound. Each test prints its figures; what it asserts is that the requests are served, whatever
/// the time a loaded machine takes.
@Suite struct ServeBoundsTests {
    static let search = ServeProcess.post(
        "/rpc", #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"ada lo"}}"#)

    /// Milliseconds of each of `count` searches, each on a new connection.
    static func searchTimes(_ server: ServeProcess, count: Int) -> [Double] {
        (0..<count).map { _ in
            let started = Date()
            let reply = server.request(search)
            #expect(reply?.json["result"]?["entities"]?.array?.first?["title"] == "Ada Lovelace")
            return Date().timeIntervalSince(started) * 1000
        }
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    /// The server keeps at most 128 connections, dropping the one silent the longest for a new one: beside 1,000
    /// idle connections and 50 slow ones, every search is answered, and the idle connections were closed by that
    /// bound (the idle timeout, 10 minutes here, closes none of them during the test).
    @Test func aThousandIdleConnectionsAndSlowClients() throws {
        let server = try ServeProcess(db: try ServeTests.sampleIndex(), extra: ["--idle-timeout", "600"])
        let before = Self.searchTimes(server, count: 20)
        // 1,000 connections that never send a byte, and 50 that send a header a byte at a time.
        let idle = (0..<1000).map { _ in server.connect() }
        let slow = (0..<50).map { _ in server.connect() }
        let header = Array("POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8)
        var during: [Double] = []
        for i in 0..<40 {
            for connection in slow { connection.send([header[i % header.count]]) }
            during += Self.searchTimes(server, count: 1)
        }
        print(
            "serve: 20 searches before: p50 \(String(format: "%.1f", Self.percentile(before, 0.5))) ms; 40 beside 1,000 idle and 50 slow connections: p50 \(String(format: "%.1f", Self.percentile(during, 0.5))) ms, max \(String(format: "%.1f", during.max()!)) ms"
        )
        #expect(during.count == 40)
        // The server kept at most 128 connections: most of the idle ones were closed. (Each one closed is seen at
        // once; the wait only bounds a server that closes none.)
        let deadline = TestSupport.monotonicSeconds() + TestSupport.hangSeconds
        let closed = idle.prefix(900).filter {
            $0.closedByServer(within: Int32(max(0, deadline - TestSupport.monotonicSeconds()) * 1000))
        }.count
        print("serve: \(closed) of the first 900 idle connections were closed by the server")
        #expect(closed >= 800)
        for connection in idle + slow { connection.close() }
        #expect(server.stop() == 143)
    }

    @Test func bodiesPastTheBoundAreRefusedBeforeTheyAreRead() throws {
        let server = try ServeProcess(db: try ServeTests.sampleIndex(), extra: ["--max-body-bytes", "65536"])
        var refusals: [Double] = []
        for _ in 0..<10 {
            let connection = server.connect()
            let started = Date()
            connection.send(
                "POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n"
            )
            connection.send([UInt8](repeating: 0x20, count: 65536))
            let reply = connection.read()
            refusals.append(Date().timeIntervalSince(started) * 1000)
            #expect(reply?.status == 413)
            #expect(reply?.text.contains("the most is 65536") == true)
            connection.close()
        }
        // A body of exactly the bound is served.
        let query = #"{"jsonrpc":"2.0","id":1,"method":"search","params":{"query":"ada lo"}}"#
        let padded = query + String(repeating: " ", count: 65536 - query.utf8.count)
        #expect(server.rpc(padded)?.json["id"] == 1)
        print(
            "serve: 10 bodies of 100 MB refused with 413 in p50 \(String(format: "%.1f", Self.percentile(refusals, 0.5))) ms"
        )
        #expect(Self.searchTimes(server, count: 5).count == 5)
    }
}
