import Foundation
import JSON
import TestSupport
import Testing

/// Stop signals interrupt a running request; writers wait for each other, or say who holds the lock.
@Suite(.serialized) struct SignalAndLockTests {
    func fresh() -> String { TestSupport.temporaryDirectory() + "/index.sqlite" }

    /// Waits for `process` to end, killing it when it has not after `TestSupport.hangSeconds`; false then.
    func ended(_ process: Process) -> Bool {
        let ended = TestSupport.waitUntil { !process.isRunning }
        if !ended { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return ended
    }

    func ingestLine(_ count: Int, id: Int = 1) -> String {
        let records = (0..<count).map {
            JSONWriter.string(TestSupport.record("bulk", "\($0)", "Bulk record \($0) with a few words"))
        }
        return #"{"jsonrpc":"2.0","id":"# + "\(id)" + #","method":"ingest","params":{"records":["#
            + records.joined(separator: ",") + "]}}"
    }

    /// The signal is sent once the request has been read whole (the pipe to the server is empty), so that it lands
    /// while the request runs, whatever the machine's speed; the answer then says it was interrupted.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalInterruptsARunningRequestAndRollsBack(_ signal: Int32) throws {
        let db = fresh()
        let p = try PipeProcess(db: db)
        _ = p.call("ingest", ["records": [TestSupport.record("task", "keep", "Kept")]])
        // An ingest of 40,000 records, which runs for seconds: the line is read as it is written.
        p.send(ingestLine(40_000))
        let input = p.stdin.fileHandleForWriting.fileDescriptor
        #expect(TestSupport.waitUntil { TestSupport.bytesWaiting(in: input) == 0 || !p.process.isRunning })
        // Input ends while the request runs: the exit status still tells of the signal.
        try? p.stdin.fileHandleForWriting.close()
        kill(p.process.processIdentifier, signal)
        #expect(ended(p.process), "still running \(Int(TestSupport.hangSeconds)) s after the signal")
        #expect(p.process.terminationStatus == 128 + signal)
        let answer = p.readLine()
        #expect(answer?["error"]?["data"]?["code"] == "interrupted", "\(String(describing: answer))")
        let left = try Binary.run(["--db", db, "--now", "2026-03-02T09:00:00Z", "stats", "--json"]).json
        #expect(left["entities"] == JSONValue(1), "the interrupted ingest applied nothing")
    }

    /// Highlighting long fields is Swift work between SQLite steps, which checks for a stop signal as it goes: a
    /// signal sent while it highlights ends the request with `interrupted`, said of highlighting, instead of the
    /// highlights coming seconds later. The signal is sent once the server has spent more CPU time on the request
    /// than the search takes (about none; the highlighting about two seconds of a debug build), whatever the load.
    @Test func aSignalStopsHighlightingLongFields() throws {
        let db = fresh()
        let long = (0..<50_000).map { "lorem ipsum dolor\($0 % 10)" }.joined(separator: " ")  // 960 KB
        let setup = try PipeProcess(db: db)
        let records = (0..<2).map { TestSupport.record("doc", "\($0)", "Doc \($0)", [("description", .string(long))]) }
        #expect(setup.call("ingest", ["records": .array(records)]).error == nil)
        setup.close()
        let p = try PipeProcess(db: db)
        _ = p.call("search", ["query": "doc", "limit": 1])
        let before = p.cpuSeconds
        p.send(#"{"jsonrpc":"2.0","id":9,"method":"search","params":{"query":"lorem","highlight":true}}"#)
        // The answer is read as it comes (a large one would otherwise fill the pipe and block the process).
        nonisolated(unsafe) var answer: JSONValue?
        nonisolated(unsafe) let pipe = p
        let reading = Thread { answer = pipe.readLine() }
        reading.start()
        #expect(TestSupport.waitUntil { p.cpuSeconds - before >= 0.3 || reading.isFinished })
        kill(p.process.processIdentifier, SIGTERM)
        #expect(ended(p.process), "still highlighting \(Int(TestSupport.hangSeconds)) s after the signal")
        #expect(p.process.terminationStatus == 143)
        while !reading.isFinished { usleep(1000) }
        #expect(answer?["error"]?["data"]?["code"] == "interrupted", "\(String(describing: answer).prefix(300))")
        #expect(
            answer?["error"]?["message"]?.string?.contains("while highlighting") == true,
            "\(String(describing: answer).prefix(300))")
    }

    @Test func aSignalRollsBackAnOpenBatch() throws {
        let db = fresh()
        let p = try PipeProcess(db: db)
        #expect(p.call("batch.begin").error == nil)
        #expect(p.call("ingest", ["records": [TestSupport.record("task", "1", "One")]]).error == nil)
        kill(p.process.processIdentifier, SIGTERM)
        p.process.waitUntilExit()
        #expect(p.process.terminationStatus == 143)
        #expect(
            try Binary.run(["--db", db, "--now", "2026-03-02T09:00:00Z", "stats", "--json"]).json["entities"]
                == JSONValue(0))
    }

    @Test func aWriterWaitsForAnotherAsLongAsItHoldsTheLock() throws {
        let db = fresh()
        let holder = try PipeProcess(db: db)
        #expect(holder.call("batch.begin").error == nil)
        let (writer, stdin) = try Binary.startIngest(db: db)
        stdin.write(Data(JSONWriter.string(TestSupport.record("task", "1", "One")).utf8))
        try stdin.close()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(writer.isRunning, "the writer waits while the batch is open")
        #expect(holder.call("batch.end", ["clientState": "s"]).error == nil)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(
            try Binary.run(["--db", db, "--now", "2026-03-02T09:00:00Z", "get", "--type", "task", "1", "--json"]).json[
                "entities"]?.array?.count == 1)
        holder.close()
    }

    @Test func aWriterThatGivesUpSaysWhoHoldsTheLock() throws {
        let db = fresh()
        let holder = try PipeProcess(db: db)
        defer { holder.close() }
        #expect(holder.call("batch.begin").error == nil)
        let r = try Binary.run(
            ["--db", db, "ingest", "-"], input: JSONWriter.string(TestSupport.record("task", "1", "One")),
            environment: ["ENTITYIDX_LOCK_TIMEOUT": "0.3"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("locked for writing by process \(holder.process.processIdentifier)"), "\(r.stderr)")
        #expect(
            r.stderr.contains("entityidx") && r.stderr.contains("pipe")
                && r.stderr.contains("(the lock timeout is 0.3 s)"), "\(r.stderr)")
    }

    /// An ingest waiting for its input holds no lock: another writer goes ahead while it waits. (The index exists
    /// first, so that neither of the two creates the schema while the other one opens it.)
    @Test func anIdleIngestFromStdinHoldsNoLock() throws {
        let db = fresh()
        #expect(try Binary.run(["--db", db, "ingest", "-"], input: "[]").status == 0)
        let (process, stdin) = try Binary.startIngest(db: db)
        #expect(TestSupport.waitUntil { TestSupport.isReadingAPipe(process.processIdentifier) || !process.isRunning })
        // The producer has written nothing yet: another writer goes ahead at once.
        let other = try Binary.run(
            ["--db", db, "ingest", "-"], input: JSONWriter.string(TestSupport.record("task", "2", "Two")),
            environment: ["ENTITYIDX_LOCK_TIMEOUT": "1"])
        #expect(other.status == 0, "\(other.stderr)")
        stdin.write(Data(JSONWriter.string(TestSupport.record("task", "1", "One")).utf8))
        try stdin.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            try Binary.run(["--db", db, "--now", "2026-03-02T09:00:00Z", "stats", "--json"]).json["entities"]
                == JSONValue(2))
    }
}
