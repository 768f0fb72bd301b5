import SQLite

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
    /// The file the name leads to, symbolic links followed: its `-wal` and `-shm` are beside it, where SQLite keeps
    /// them.
    let resolvedName: String
    /// Whether this process cannot write the file or its folder: it is then opened read-only, and never so that a
    /// `-shm` is left behind (see `access`).
    let readOnly: Bool

    static let inMemory = ":memory:"

    /// How SQLite opens the file, and under which name.
    enum Access {
        case readWrite(String)
        /// Immutable: no locks, no `-shm` (https://sqlite.org/uri.html#uriimmutable); for a file whose `-wal`
        /// holds nothing.
        case immutable(String)
        /// Read-only through the `-shm` and `-wal` already there: changes still in the `-wal` are read.
        case readOnly(String)
        /// A private copy of the file with its `-wal` applied, for a `-wal` that cannot be read in place (it has
        /// no `-shm`, which this process may not create): one per version of the file, shared by the readers
        /// that need it (see `ReadOnlyCopies`).
        case copy(String)
    }

    init(path: String) throws(EntityIndexError) {
        if path == Self.inMemory {
            sqliteName = path
            resolvedName = path
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
        resolvedName = Self.resolved(sqliteName)
        readOnly =
            Glibc.access(resolvedName, W_OK) != 0 || Glibc.access(Self.folder(of: resolvedName), W_OK) != 0
    }

    /// How to open the file: read-write, or for a file this process cannot write, in a way that sees every
    /// committed change and leaves no file behind. `foreignWALIndexWait` is how long to wait for a process that
    /// uses the `-wal` and `-shm` at the path for another file (see `checkWALIndexIsItsOwn`).
    func access(foreignWALIndexWait: Double = Self.foreignWALIndexWait) throws(EntityIndexError) -> Access {
        guard readOnly else {
            try checkWALIndexIsItsOwn(waitingAtMost: foreignWALIndexWait)
            return .readWrite(sqliteName)
        }
        ReadOnlyCopies.sweep()
        guard (Self.size(resolvedName + "-wal") ?? 0) > 0 else { return .immutable(Self.immutableURI(sqliteName)) }
        if Self.size(resolvedName + "-shm") != nil {
            try checkWALIndexIsItsOwn(waitingAtMost: foreignWALIndexWait)
            return .readOnly(sqliteName)
        }
        return .copy(Self.immutableURI(try ReadOnlyCopies.copy(of: resolvedName)))
    }

    /// The path with symbolic links followed; the path itself when it names nothing.
    static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// The size of the file at `path`, nil when there is none.
    static func size(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    static func copyFile(_ from: String, to: String) throws(EntityIndexError) {
        let input = open(from, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw EntityIndexError(.io, "cannot read \(from): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw EntityIndexError(.io, "cannot create \(to): \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress!, $0.count) }
            if n == 0 { return }
            guard n > 0 else { throw EntityIndexError(.io, "cannot read \(from): \(String(cString: strerror(errno)))") }
            var offset = 0
            while offset < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, n - offset) }
                guard w > 0 else {
                    throw EntityIndexError(.io, "cannot write \(to): \(String(cString: strerror(errno)))")
                }
                offset += w
            }
        }
    }

    /// Creates the file, empty, readable by its owner only, when nothing is there; a symbolic link that points
    /// nowhere yet gets its target created the same way (the mode is 0600 however the path is reached).
    ///
    /// A file that exists is not opened: closing a descriptor of a file drops every POSIX lock this process holds
    /// on it, so opening and closing the database while another connection of the process has it open would take
    /// that connection's SQLite locks away (another process would then see no reader, and a second store would
    /// break the first).
    static func createPrivate(_ path: String) {
        guard Glibc.access(path, F_OK) != 0 else { return }
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

/// Who holds a lock on the database, found in the kernel's lock table (`WALIndex.locks`), which needs no
/// descriptor of the `-shm` file: closing one would drop this process's own locks on it.
enum LockHolder {
    /// The WAL write lock: byte 120 of the `-shm` file (https://sqlite.org/walformat.html#the_wal_index_file_format).
    static let walWriteLockOffset: UInt64 = 120

    /// "process 1234 (entityidx ingest big.ndjson, running for 42 s)", or nil when no other process holds it.
    static func describe(databasePath path: String) -> String? {
        guard let shm = DatabaseFile.identity(path + "-shm"),
            let pid = WALIndex.writer(of: shm, byte: walWriteLockOffset)
        else { return nil }
        return describe(pid: pid)
    }

    /// "process 1234 (entityidx pipe, running for 42 s)": its command line and age when they can be read.
    static func describe(pid: Int32) -> String {
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
