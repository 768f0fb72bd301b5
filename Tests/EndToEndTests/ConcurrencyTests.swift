import Foundation
import JSON
import TestSupport
import Testing

/// Two writers and four readers, in separate processes, on one database; readers answered while a writer holds the
/// write lock. (`make soak` runs the first for a minute: ENTITYIDX_SOAK_SECONDS.)
@Suite(.serialized) struct ConcurrencyTests {
    /// `make soak`'s run time; unset, each writer writes `rounds` batches, however long the machine takes.
    static let soakSeconds = Double(ProcessInfo.processInfo.environment["ENTITYIDX_SOAK_SECONDS"] ?? "")
    static let rounds = 20

    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var errors: [String] = []
        var writes = 0
        var reads = 0
        var slowestRead = 0.0
        var writersDone = 0
        var written: [String: Int] = [:]
        func record(_ f: (Tally) -> Void) { lock.lock(); f(self); lock.unlock() }
        var writing: Bool { lock.withLock { writersDone < 2 } }
    }

    /// The readers read for as long as the writers write, each at least once; every write is then there.
    @Test func twoWritersFourReaders() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        _ = try Binary.run(["--db", db, "ingest", TestSupport.repository + "/data/products.json"])
        let tally = Tally()
        let deadline = Self.soakSeconds.map { Date().addingTimeInterval($0) }
        let group = DispatchGroup()
        for w in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                defer {
                    tally.record { $0.writersDone += 1 }
                    group.leave()
                }
                guard let p = try? PipeProcess(db: db, now: nil) else {
                    tally.record { $0.errors.append("writer \(w) did not start") }; return
                }
                var n = 0
                while n < Self.rounds || deadline.map({ Date() < $0 }) == true {
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
                        $0.writes += 1
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
                repeat {
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
                        $0.reads += 1
                        $0.slowestRead = max($0.slowestRead, elapsed)
                    }
                } while tally.writing
                pipe?.close()
            }
        }
        group.wait()
        #expect(tally.errors.isEmpty, "\(tally.errors.prefix(3))")
        let stats = try Binary.run(["--db", db, "stats", "--json"]).json
        for (type, count) in tally.written {
            #expect(stats["types"]?[type]?["entities"] == JSONValue(count), "every write of \(type) is there")
        }
        #expect(tally.writes >= 2 * Self.rounds && tally.reads >= 4)
        let slowest = Int(tally.slowestRead * 1000)
        print("concurrency: \(tally.writes) writes and \(tally.reads) reads, slowest read \(slowest) ms")
        // How long a read takes is `make soak`'s to check, on a machine of its own; that readers do not wait for a
        // writer is readersAreAnsweredWhileAWriterHoldsTheLock's.
        if Self.soakSeconds != nil { #expect(tally.slowestRead < 2.0, "a reader waited \(tally.slowestRead) s") }
    }

    /// While a batch holds the write lock, with a write in it, a pipe and a fresh command read and see what was
    /// committed. They may not wait for a lock at all (ENTITYIDX_LOCK_TIMEOUT=0): a read that needed the write lock
    /// would fail at once, whatever the machine's speed.
    @Test func readersAreAnsweredWhileAWriterHoldsTheLock() throws {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        _ = try Binary.run(["--db", db, "ingest", TestSupport.repository + "/data/products.json"])
        let noWait = ["ENTITYIDX_LOCK_TIMEOUT": "0"]
        let reader = try PipeProcess(db: db, now: nil, environment: noWait)
        let writer = try PipeProcess(db: db, now: nil)
        #expect(writer.call("batch.begin").error == nil)
        #expect(writer.call("ingest", ["records": [TestSupport.record("w", "1", "Uncommitted widget")]]).error == nil)

        func types(_ result: JSONValue?) -> Set<String> {
            Set((result?["entities"]?.array ?? []).compactMap { $0["type"]?.string })
        }
        let (found, searchError) = reader.call("search", ["query": "widget"])
        #expect(searchError == nil, "\(searchError ?? .null)")
        #expect(types(found) == ["product"], "the open batch is not seen")
        let (got, getError) = reader.call("get", ["type": "product", "ids": ["p1", "p2"]])
        #expect(getError == nil && got?["entities"]?.array?.count == 2, "\(getError ?? .null)")
        let fresh = try Binary.run(["--db", db, "search", "widget", "--json"], environment: noWait)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(types(fresh.json) == ["product"])

        #expect(writer.call("batch.end", ["clientState": "s"]).error == nil)
        #expect(types(reader.call("search", ["query": "widget"]).result) == ["product", "w"], "then the commit is")
        reader.close()
        writer.close()
    }
}
