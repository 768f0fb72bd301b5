internal import CEntityIdx

/// How much memory the process may still take, so that a large request is refused with `resource_exhausted`
/// before an allocation fails: Swift cannot recover from a failed allocation (the process would abort), and the
/// kernel's OOM killer cannot be answered at all.
///
/// The room is the smallest of what the address-space limit (`ulimit -v`) leaves beside the mapped size, what the
/// cgroup's memory limit leaves beside the memory it cannot reclaim, and the system's available memory. Reading it
/// costs a few file reads (tens of microseconds), so the callers check it only once a request has grown large:
/// a request line past 1 MiB, every MiB of records in a result, each item of a batch.
public enum MemoryRoom {
    /// What is kept free beyond a request's own estimate: the work the estimate does not see (SQLite's caches,
    /// encoding, the stacks of the ingest's threads).
    public static let margin = 32 << 20

    /// The bytes left, or nil when nothing limits the process that can be read.
    public static var bytes: Int? {
        let room = eidx_memory_room()
        return room < 0 ? nil : Int(room)
    }

    /// True when `need` bytes, and the margin beside them, fit in the room left.
    public static func fits(_ need: Int) -> Bool {
        guard let room = bytes else { return true }
        return need <= room - margin
    }

    /// The message of the `resource_exhausted` error for `need` bytes, and the margin beside them, that do not fit
    /// in the room left; nil when they fit.
    public static func shortage(_ need: Int, for what: @autoclosure () -> String) -> String? {
        guard let room = bytes, need > room - margin else { return nil }
        return
            "not enough memory for \(what()): it needs about \(mebibytes(need)) MiB and the process has \(mebibytes(room)) MiB left (its address-space or memory limit, or the machine's free memory); nothing of it was applied"
    }

    static func mebibytes(_ bytes: Int) -> Int { max(0, (bytes + (1 << 20) - 1) >> 20) }
}
