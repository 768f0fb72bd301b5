#if canImport(Glibc)
    import Glibc
#endif

/// The database file as the operating system sees it: which name SQLite is given, whether this process may write
/// it, and which file it is (device and inode), so that a file replaced or removed under a running process is
/// noticed before anything is written to it.
///
/// `--db` is always a path: a name that SQLite would read as a URI (`file:…`) is opened as a file of that name, and
/// an empty name is refused, as SQLite would otherwise open a temporary database that keeps nothing.
struct DatabaseFile {
    /// The name given to SQLite (a `file:` name is prefixed with `./`).
    let sqliteName: String
    /// Whether this process cannot write the file or its folder: it is then opened read-only and immutable, so that
    /// no `-shm` is left behind (https://sqlite.org/uri.html#uriimmutable).
    let readOnly: Bool

    static let inMemory = ":memory:"

    init(path: String) throws(EntityIndexError) {
        if path == Self.inMemory {
            sqliteName = path
            readOnly = false
            return
        }
        guard !path.isEmpty else {
            throw EntityIndexError(
                .invalidParams, "the database path is empty; give a file name with --db or $ENTITYIDX_DB")
        }
        guard !path.utf8.contains(0) else {
            throw EntityIndexError(.invalidParams, "the database path contains a NUL byte")
        }
        sqliteName = path.hasPrefix("file:") ? "./" + path : path
        Self.createPrivate(sqliteName)
        readOnly = access(sqliteName, W_OK) != 0 || access(Self.folder(of: sqliteName), W_OK) != 0
    }

    /// Creates the file, empty, readable by its owner only, when nothing is there; a symbolic link that points
    /// nowhere yet gets its target created the same way (the mode is 0600 however the path is reached).
    static func createPrivate(_ path: String) {
        let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The device and inode the path names now, nil when it names nothing.
    static func identity(_ path: String) -> Identity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// A URI that opens `path` read-only and immutable (no locks, no `-shm`).
    static func immutableURI(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                absolute =
                    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/"
                    + path
            }
        }
        var uri = "file:"
        for byte in absolute.utf8 {
            let safe =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2F || byte == 0x2E || byte == 0x2D || byte == 0x5F
            if safe {
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                uri += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return uri + "?immutable=1"
    }
}

/// Who holds a lock on the database, found with `fcntl(F_GETLK)` on the byte SQLite's write lock uses.
enum LockHolder {
    /// The WAL write lock: byte 120 of the `-shm` file (https://sqlite.org/walformat.html#the_wal_index_file_format).
    static let walWriteLockOffset = 120

    /// "process 1234 (entityidx ingest big.ndjson, running for 42 s)", or nil when no other process holds it.
    static func describe(databasePath path: String) -> String? {
        let fd = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(walWriteLockOffset)
        lock.l_len = 1
        guard fcntl(fd, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK), lock.l_pid > 0 else { return nil }
        let pid = lock.l_pid
        var text = "process \(pid)"
        var details: [String] = []
        if let command = read("/proc/\(pid)/cmdline") {
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if !words.isEmpty {
                let name = words[0].split(separator: "/").last.map(String.init) ?? words[0]
                details.append(([name] + words.dropFirst()).joined(separator: " ").prefix(120).description)
            }
        }
        if let seconds = runningSeconds(pid) { details.append("running for \(seconds) s") }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        return text
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    /// Seconds since the process started, from `/proc/PID/stat` (field 22, in clock ticks since boot).
    private static func runningSeconds(_ pid: pid_t) -> Int? {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: 0x29) else { return nil }
        let fields = stat[(close + 2)...].split(separator: 0x20)
        guard fields.count > 19, let start = Double(String(decoding: fields[19], as: UTF8.self)),
            let uptime = read("/proc/uptime").flatMap({
                Double(String(decoding: $0.prefix { $0 != 0x20 }, as: UTF8.self))
            })
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return max(0, Int(uptime - start / ticks))
    }
}
