import Foundation
import JSON
import TestSupport
import Testing

/// Two writers and four readers, in separate processes, on one database. (`make soak` runs it for a minute:
/// ENTITYIDX_SOAK_SECONDS.)
@Suite(.serialized) struct ConcurrencyTests {
    static let seconds = Double(ProcessInfo.processInfo.environment["ENTITYIDX_SOAK_SECONDS"] ?? "") ?? 4

    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var errors: [String] = []
        var operations = 0
        var slowestRead = 0.0
        var written: [String: Int] = [:]
        func record(_ f: (Tally) -> Void) { lock.lock(); f(self); lock.unlock() }
    }

    @Test func twoWritersFourReaders() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        _ = try Binary.run(["--db", db, "ingest", TestSupport.repository + "/data/products.json"])
        let tally = Tally()
        let deadline = Date().addingTimeInterval(Self.seconds)
        let group = DispatchGroup()
        for w in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let p = try? PipeProcess(db: db, now: nil) else {
                    tally.record { $0.errors.append("writer \(w) did not start") }; return
                }
                var n = 0
                while Date() < deadline {
                    let records: [JSONValue] = (0..<25).map {
                        TestSupport.record("w\(w)", "\(n)-\($0)", "Written \(n) by \(w) widget")
                    }
                    let (_, error) = p.call("ingest", ["records": .array(records)])
                    tally.record {
                        if let error {
                            $0.errors.append(JSONWriter.string(error))
                        } else {
                            $0.written["w\(w)", default: 0] += 25
                        }
                        $0.operations += 1
                    }
                    n += 1
                }
                p.close()
            }
        }
        for r in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let pipe = r < 2 ? try? PipeProcess(db: db, now: nil) : nil
                while Date() < deadline {
                    let start = Date()
                    var failure: String?
                    if let pipe {
                        let (_, e1) = pipe.call("search", ["query": "widget"])
                        let (_, e2) = pipe.call("get", ["type": "product", "ids": ["p1", "p2"]])
                        failure = (e1 ?? e2).map(JSONWriter.string)
                    } else if let result = try? Binary.run(["--db", db, "search", "widget", "--json"]),
                        result.status != 0
                    {
                        failure = result.stderr
                    }
                    let elapsed = Date().timeIntervalSince(start)
                    tally.record {
                        if let failure { $0.errors.append(failure) }
                        $0.operations += 1
                        $0.slowestRead = max($0.slowestRead, elapsed)
                    }
                }
                pipe?.close()
            }
        }
        group.wait()
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        #expect(tally.slowestRead < 2.0, "a reader waited \(tally.slowestRead) s")
        let stats = try Binary.run(["--db", db, "stats", "--json"]).json
        for (type, count) in tally.written {
            #expect(stats["types"]?[type]?["entities"] == JSONValue(count), "every write of \(type) is there")
        }
        #expect(tally.operations > 20)
        print(
            "concurrency: \(tally.operations) operations in \(Self.seconds) s, slowest read \(Int(tally.slowestRead * 1000)) ms"
        )
    }
}
