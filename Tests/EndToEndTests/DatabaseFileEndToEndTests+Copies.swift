import Foundation
import JSON
import TestSupport
import Testing

/// The private copies of a read-only index whose -wal cannot be read in place: one per version of the file, shared
/// by its readers; what a killed reader left is removed by the next one.
extension DatabaseFileEndToEndTests {
    func inode(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : 0
    }

    /// Four readers at once, then a fifth: one copy is made, and the fifth opens it as it is.
    @Test func readersOfOneVersionShareOneCopy() throws {
        guard canDropPrivileges else { return }
        let (dir, db, scratch) = try readOnlyIndexWithAWal(keepShm: false)
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let result = try? searchAsNobody(dir, db, scratch)
            results.append(result)
        }
        for result in results.all {
            #expect(result?.status == 0 && result?.json["entities"]?.array?.count == 2, "\(result?.stderr ?? "")")
        }
        let made = copies(scratch)
        #expect(made.count == 1, "\(made)")
        let folder = scratch + "/entityidx-65534"
        let before = inode(folder + "/" + (made.first ?? ""))
        let fifth = try searchAsNobody(dir, db, scratch)
        #expect(fifth.json["entities"]?.array?.count == 2)
        #expect(copies(scratch) == made && inode(folder + "/" + (made.first ?? "")) == before, "reused, not copied")
        let others = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("making-") }
        #expect(others.isEmpty, "\(others)")
        // A new version of the file (a writer folded the -wal and wrote again) replaces the old copy.
        let writer = try Binary.run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "ingest", "-"],
            input: JSONWriter.string(TestSupport.record("task", "3", "Walrus three")))
        #expect(writer.status == 0, "\(writer.stderr)")
        let pipe = try PipeProcess(db: db)
        #expect(pipe.call("ingest", ["records": [TestSupport.record("task", "4", "Walrus four")]]).error == nil)
        pipe.kill()
        for suffix in ["", "-wal"] { #expect(chmod(db + suffix, 0o644) == 0) }
        unlink(db + "-shm")
        let newer = try searchAsNobody(dir, db, scratch)
        #expect(newer.json["entities"]?.array?.count == 4, "\(newer.stderr)")
        #expect(copies(scratch).count == 1 && copies(scratch) != made, "\(copies(scratch))")
    }

    /// A reader killed (SIGKILL) while it made its copy leaves a folder named after its pid; the next reader
    /// removes it, once that process is gone.
    @Test func whatAKilledReaderLeftIsRemovedByTheNext() throws {
        guard canDropPrivileges else { return }
        let (dir, db, scratch) = try readOnlyIndexWithAWal(keepShm: false)
        #expect(try searchAsNobody(dir, db, scratch).status == 0)
        let folder = scratch + "/entityidx-65534"
        for name in copies(scratch) { unlink(folder + "/" + name) }
        // A reader killed at once, wherever it was, and the folder a reader killed mid-copy leaves (its pid gone).
        let killed = Process()
        killed.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        killed.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", Binary.path, "--db", db, "search", "walrus",
        ]
        killed.environment = ["TMPDIR": scratch]
        try killed.run()
        usleep(30_000)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let leftover = folder + "/making-\(killed.processIdentifier)-AbCdEf"
        #expect(mkdir(leftover, 0o700) == 0 || errno == EEXIST)
        #expect(FileManager.default.createFile(atPath: leftover + "/index.sqlite", contents: Data(count: 1 << 20)))
        #expect(chown(leftover, 65534, 65534) == 0 && chown(leftover + "/index.sqlite", 65534, 65534) == 0)
        let next = try searchAsNobody(dir, db, scratch)
        #expect(next.json["entities"]?.array?.count == 2, "\(next.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("making-") }
        #expect(left.isEmpty, "\(left)")
        #expect(copies(scratch).count == 1)
    }
}

/// Results collected from concurrent runs.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Binary.Result?] = []
    func append(_ result: Binary.Result?) { lock.withLock { results.append(result) } }
    var all: [Binary.Result?] { lock.withLock { results } }
}
