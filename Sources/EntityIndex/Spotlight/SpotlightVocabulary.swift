#if canImport(Glibc)
    import Glibc
#endif

/// The words of `vocabulary` held in memory, one buffer with a newline before each, for the Core Spotlight forms
/// that look for the words holding a run of letters (`SpotlightTranslator.vocabulary(containing:)`): a search of
/// the buffer takes a fraction of a millisecond where SQL's `instr` over the table takes several.
///
/// Words are only added to the table (or all deleted at once), by this connection or another; the copy is read
/// again when `PRAGMA data_version` (other connections' commits) or `total_changes()` (this one's writes) moved.
final class SpotlightVocabulary {
    private var bytes: [UInt8] = []
    private var stamp: (Int64, Int64)?

    /// The words that hold `run`, at most `limit` + 1 of them (so that the caller sees there were more).
    func words(containing run: String, limit: Int, db: EntityStore) throws -> [String] {
        let now = (
            try db.db.scalar("PRAGMA data_version")?.int ?? 0, try db.db.scalar("SELECT total_changes()")?.int ?? 0
        )
        if stamp.map({ $0 != now }) ?? true {
            var buffer: [UInt8] = []
            let read = try db.db.prepare("SELECT term FROM vocabulary")
            while try read.step() {
                buffer.append(0x0A)
                buffer += read.borrowedBytes(0)
            }
            buffer.append(0x0A)
            bytes = buffer
            stamp = now
        }
        // A word that holds the run holds its first 32 bytes: a longer needle would only make each comparison
        // longer.
        let needle = Array(run.utf8.prefix(32))
        guard let first = needle.first else { return [] }
        var found: [String] = []
        bytes.withUnsafeBufferPointer { haystack in
            guard let base = haystack.baseAddress else { return }
            var at = 0
            while found.count <= limit, at + needle.count <= haystack.count,
                let hit = memchr(base + at, Int32(first), haystack.count - needle.count + 1 - at)
            {
                at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard memcmp(base + at, needle, needle.count) == 0 else {
                    at += 1
                    continue
                }
                var start = at, end = at + needle.count
                while start > 0 && haystack[start - 1] != 0x0A { start -= 1 }
                while end < haystack.count && haystack[end] != 0x0A { end += 1 }
                found.append(String(decoding: haystack[start..<end], as: UTF8.self))
                at = end
            }
        }
        return found
    }
}
