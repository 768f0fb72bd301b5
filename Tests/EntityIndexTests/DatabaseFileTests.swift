import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

#if canImport(Glibc)
    import Glibc
#endif

/// The database file: only entityidx's own SQLite files are used, byte for byte untouched otherwise; a file replaced
/// or removed under a running process is never written to; `--db` is a path.
@Suite struct DatabaseFileTests {
    func bytes(_ path: String) -> [UInt8] { Array((TestSupport.read(path) ?? "").utf8) }

    func foreign(_ sql: String) throws -> String {
        let path = TestSupport.temporaryDirectory() + "/other.db"
        let db = try Connection(path: path)
        try db.execute(sql)
        return path
    }

    @Test(arguments: [
        "CREATE TABLE notes(x); INSERT INTO notes VALUES (1)",  // no name in common with an index
        "CREATE TABLE entity(a, b); INSERT INTO entity VALUES (1, 2)",  // a name clash
        "PRAGMA application_id = 42; CREATE TABLE meta(key, value); CREATE TABLE schema_migrations(version)",
        "PRAGMA application_id = 7",  // another application's empty file
    ])
    func anotherApplicationsFileIsRefusedUnchanged(_ sql: String) throws {
        let path = try foreign(sql)
        let before = bytes(path)
        #expect { try EntityStore(path: path, now: 0) } throws: { error in
            let e = error as? EntityIndexError
            return e?.code == .notADatabase && e?.message.contains("another application") == true
        }
        #expect(bytes(path) == before, "not one byte changed (not even the journal mode in bytes 18-19)")
        #expect(access(path + "-wal", F_OK) != 0)
    }

    @Test func anIndexIsMarkedWithTheApplicationIdAndAnOlderOneIsAccepted() throws {
        let store = try TestSupport.store()
        #expect(try store.db.scalar("PRAGMA application_id")?.int == Int64(EntityStore.applicationID))
        // An index made before the id was set: its meta and schema_migrations tables say what it is.
        try store.db.execute("PRAGMA application_id = 0")
        let reopened = try EntityStore(path: store.path, now: 0)
        _ = try reopened.ingest([TestSupport.record("task", "1", "One")])
        #expect(try reopened.get(type: "task", ids: ["1"]).count == 1)
    }

    @Test func aFileMovedOverTheDatabaseIsNotWrittenToThroughTheOldOne() throws {
        let dir = TestSupport.temporaryDirectory()
        let store = try EntityStore(path: dir + "/i.sqlite", now: 0)
        _ = try store.ingest([TestSupport.record("task", "1", "One")])
        try store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        do {
            let other = try EntityStore(path: dir + "/new.sqlite", now: 0)
            _ = try other.ingest([TestSupport.record("task", "2", "Two")])
        }
        #expect(rename(dir + "/new.sqlite", dir + "/i.sqlite") == 0)
        #expect { try store.ingest([TestSupport.record("task", "3", "Three")]) } throws: {
            ($0 as? EntityIndexError)?.code == .databaseReplaced
        }
        #expect { try store.beginBatch() } throws: { ($0 as? EntityIndexError)?.code == .databaseReplaced }
        #expect { try store.delete(DeleteRequest(all: true)) } throws: {
            ($0 as? EntityIndexError)?.code == .databaseReplaced
        }
        let fresh = try EntityStore(path: dir + "/i.sqlite", now: 0)
        #expect(
            try fresh.get(type: "task", ids: ["1", "2", "3"]).map(\.key.id) == ["2"],
            "nothing acknowledged went to the old file")
        #expect(unlink(dir + "/i.sqlite") == 0)
        #expect { try fresh.ingest([TestSupport.record("task", "4", "Four")]) } throws: { error in
            (error as? EntityIndexError)?.code == .databaseReplaced && "\(error)".contains("removed")
        }
    }

    @Test func anEmptyPathIsRefused() throws {
        #expect { try EntityStore(path: "", now: 0) } throws: { ($0 as? EntityIndexError)?.code == .invalidParams }
    }

    @Test func newFilesArePrivateEvenThroughADanglingSymlink() throws {
        let dir = TestSupport.temporaryDirectory()
        let old = umask(0o022)
        defer { umask(old) }
        #expect(symlink(dir + "/target.sqlite", dir + "/link.sqlite") == 0)
        _ = try EntityStore(path: dir + "/link.sqlite", now: 0).ingest([TestSupport.record("task", "1", "One")])
        for name in ["target.sqlite", "target.sqlite-wal", "target.sqlite-shm", "plain.sqlite"] {
            if name == "plain.sqlite" { _ = try EntityStore(path: dir + "/plain.sqlite", now: 0) }
            var st = stat()
            guard stat(dir + "/" + name, &st) == 0 else { continue }
            #expect(st.st_mode & 0o777 == 0o600, "\(name) is \(String(st.st_mode & 0o777, radix: 8))")
        }
    }
}
