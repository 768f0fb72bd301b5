#if canImport(Glibc)
    import Glibc
#endif

/// The words of `vocabulary` held in memory: one buffer with a newline before each word, in the table's order (the
/// bytes of UTF-8, as SQLite's BINARY collation sorts them), and where each word starts.
///
/// Two readers use it. The Core Spotlight forms that look for the words holding a run of letters
/// (`SpotlightTranslator.vocabulary(containing:)`): a search of the buffer takes a fraction of a millisecond where
/// SQL's `instr` over the table takes several. And the typo walk (`TypoTolerance`), once a process has walked the
/// vocabulary before: its few hundred to few thousand seeks become binary searches of the buffer instead of SQL
/// statements (a one-time read of the table, about 10 ms for Debian's 164,000 words, that a command making a single
/// search does not pay).
///
/// Words are only added to the table (or all deleted at once), by this connection or another; the copy is read
/// again when `PRAGMA data_version` (other connections' commits) or `total_changes()` (this one's writes) moved, or
/// the store opened its file again.
final class VocabularyCopy {
    private var bytes: [UInt8] = []
    /// Where each word starts in `bytes` (after its newline), and the end of the buffer last.
    private var starts: [Int32] = [0]
    private var stamp: (ObjectIdentifier, Int64, Int64)?
    /// How many typo walks this store has made (the copy serves them from the second on).
    var walks = 0

    /// Reads the table again when it may have changed since the copy was made.
    func refresh(_ store: EntityStore) throws {
        let now = (
            ObjectIdentifier(store.db), try store.db.scalar("PRAGMA data_version")?.int ?? 0,
            try store.db.scalar("SELECT total_changes()")?.int ?? 0
        )
        if let stamp, stamp == now { return }
        var buffer: [UInt8] = [], starts: [Int32] = []
        let read = try store.db.prepare("SELECT term FROM vocabulary")
        while try read.step() {
            buffer.append(0x0A)
            starts.append(Int32(buffer.count))
            buffer += read.borrowedBytes(0)
        }
        buffer.append(0x0A)
        starts.append(Int32(buffer.count))
        (bytes, self.starts, stamp) = (buffer, starts, now)
    }

    var count: Int { starts.count - 1 }

    /// The words in place: the buffer and where each word starts, for reads that copy nothing (the seeks below and
    /// the typo walk's, `TypoTolerance.CopyWalk`). Valid inside `withWords`.
    struct Words {
        let bytes: UnsafeBufferPointer<UInt8>
        let starts: UnsafeBufferPointer<Int32>

        var count: Int { starts.count - 1 }

        /// The bytes of word `i` (0 ..< count).
        func word(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[Int(starts[i])..<Int(starts[i + 1]) - 1])
        }

        /// The index of the first word at or after `key` (strictly after it when `strictly`), in the table's order.
        func firstIndex(atOrAfter key: [UInt8], strictly: Bool = false) -> Int {
            key.withUnsafeBufferPointer { key in
                var low = 0, high = count
                while low < high {
                    let mid = (low + high) / 2
                    let order = Self.compare(word(mid), key)
                    if order < 0 || (strictly && order == 0) { low = mid + 1 } else { high = mid }
                }
                return low
            }
        }

        /// Whether word `i` exists and starts with `key`.
        func word(_ i: Int, startsWith key: [UInt8]) -> Bool {
            guard i < count else { return false }
            let w = word(i)
            return w.count >= key.count
                && key.withUnsafeBufferPointer {
                    key.isEmpty || memcmp(w.baseAddress!, $0.baseAddress!, key.count) == 0
                }
        }

        /// Whether word `i` exists and is `key`.
        func word(_ i: Int, is key: [UInt8]) -> Bool {
            i < count && key.withUnsafeBufferPointer { Self.compare(word(i), $0) == 0 }
        }

        /// SQLite's BINARY order: the common length by `memcmp`, then the shorter first.
        static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
            let n = min(a.count, b.count)
            if n > 0 {
                let order = memcmp(a.baseAddress!, b.baseAddress!, n)
                if order != 0 { return Int(order) }
            }
            return a.count - b.count
        }
    }

    /// Calls `body` with the words in place.
    func withWords<T>(_ body: (Words) throws -> T) rethrows -> T {
        try bytes.withUnsafeBufferPointer { b in
            try starts.withUnsafeBufferPointer { s in try body(Words(bytes: b, starts: s)) }
        }
    }

    /// The first word at or after `key` (strictly after it when `strictly`), or nil.
    func seek(_ key: [UInt8], strictly: Bool = false) -> String? {
        withWords { words in
            let i = words.firstIndex(atOrAfter: key, strictly: strictly)
            return i < words.count ? String(decoding: words.word(i), as: UTF8.self) : nil
        }
    }

    /// The words from `low` (included) to `high` (excluded), at most `limit`.
    func words(from low: [UInt8], below high: [UInt8], limit: Int) -> [String] {
        withWords { words in
            var found: [String] = []
            var i = words.firstIndex(atOrAfter: low)
            high.withUnsafeBufferPointer { high in
                while i < words.count, found.count < limit, Words.compare(words.word(i), high) < 0 {
                    found.append(String(decoding: words.word(i), as: UTF8.self))
                    i += 1
                }
            }
            return found
        }
    }

    /// The words that hold `run`, at most `limit` + 1 of them (so that the caller sees there were more).
    func words(containing run: String, limit: Int, db: EntityStore) throws -> [String] {
        try refresh(db)
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
