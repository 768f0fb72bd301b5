import SQLite
import System

#if canImport(Glibc)
    import Glibc
#endif

/// Private copies of read-only databases whose `-wal` cannot be read in place (there is no `-shm`, and this process
/// may not create one): the file and its `-wal` copied and checkpointed, then opened immutable.
///
/// One copy per version of the file (device, inode, size and modification time of the database and of its `-wal`)
/// is kept in `$TMPDIR/entityidx-UID` (else `/tmp`; a folder of this user's, mode 0700), shared by every reader of
/// that version: the first makes it (the others wait for it, on a lock file), the next ones open it at once. A copy
/// is made in a folder named after its process (`making-PID-XXXXXX`) and moved into place whole, so that a reader
/// killed while copying leaves that folder only, which the next reader removes once the process is gone. The disk
/// used is bounded: the latest copy of each database (a new version replaces the copies of older ones), copies not
/// used for a day removed, and while one is made, the files of the one being made.
enum ReadOnlyCopies {
    /// A copy not opened for this long is removed by the next reader that looks.
    static let unusedSeconds = 24 * 3600

    /// The copy of the current version of `path` (made now if there is none), to open immutable.
    static func copy(of path: String) throws(EntityIndexError) -> String {
        var problems: [String] = []
        for base in bases {
            do {
                return try copy(of: path, in: try folder(in: base))
            } catch {
                problems.append("\(base): \(error.message)")
            }
        }
        throw EntityIndexError(
            .io,
            "the database \(path) has changes in its -wal file that can only be read with a -shm file beside it, which this process may not create, and no private copy could be made (\(problems.joined(separator: "; "))); open it once with write access (any command) to fold the -wal into the database"
        )
    }

    /// Removes what killed readers left in the copies' folders (a reader that opens a database read-only calls it).
    static func sweep() {
        for base in bases {
            let folder = base + "/entityidx-\(getuid())"
            if owned(folder) { sweep(folder, keeping: nil) }
        }
    }

    // MARK: - Making and reusing

    static var bases: [String] {
        let given = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        return [given, "/tmp"].compactMap { $0 }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// This user's folder of copies in `base`, made when missing; refused when it is not a folder of this user's
    /// that only this user can enter (a name another user made first, or a symbolic link).
    static func folder(in base: String) throws(EntityIndexError) -> String {
        let folder = base + "/entityidx-\(getuid())"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw EntityIndexError(.io, "cannot create \(folder): \(String(cString: strerror(errno)))")
        }
        guard owned(folder) else {
            throw EntityIndexError(.io, "\(folder) is not a folder of this user's that only this user can open")
        }
        return folder
    }

    static func owned(_ folder: String) -> Bool {
        var st = stat()
        return lstat(folder, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR && st.st_uid == getuid()
            && (st.st_mode & 0o077) == 0
    }

    /// The name of the copy of the file's current version: its device and inode, then what changes with each
    /// version; nil when the file is gone.
    static func versionName(_ path: String) -> String? {
        var db = stat()
        var wal = stat()
        guard stat(path, &db) == 0, stat(path + "-wal", &wal) == 0 else { return nil }
        func time(_ t: timespec) -> String { "\(t.tv_sec).\(t.tv_nsec)" }
        return "\(db.st_dev)-\(db.st_ino)-\(db.st_size)-\(time(db.st_mtim))-\(wal.st_size)-\(time(wal.st_mtim)).sqlite"
    }

    static func copy(of path: String, in folder: String) throws(EntityIndexError) -> String {
        guard let name = versionName(path) else {
            throw EntityIndexError(.io, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let target = folder + "/" + name
        if reuse(target) { return target }
        // One reader of a database makes its copy; the others wait, then reuse it.
        let source = String(name.split(separator: "-").prefix(2).joined(separator: "-"))
        let lock = open(folder + "/" + source + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw EntityIndexError(.io, "cannot create a lock file in \(folder)") }
        defer { close(lock) }
        guard Descriptor.retrying(unless: { StopSignal.received != nil }, { flock(lock, LOCK_EX) }) == 0 else {
            throw EntityIndexError(.interrupted, "interrupted while waiting for a private copy of \(path)")
        }
        if reuse(target) { return target }
        sweep(folder, keeping: name)
        var template = Array((folder + "/making-\(getpid())-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw EntityIndexError(.io, "cannot create a folder in \(folder): \(String(cString: strerror(errno)))")
        }
        let making = String(cString: made)
        defer { removeFolder(making) }
        let copy = making + "/index.sqlite"
        do {
            try DatabaseFile.copyFile(path, to: copy)
            try DatabaseFile.copyFile(path + "-wal", to: copy + "-wal")
            let connection = try Connection(path: copy, mode: .readWrite)
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            try connection.execute("PRAGMA journal_mode = DELETE")
        } catch {
            throw EntityIndexError(.io, "a private copy in \(folder) failed (\(error))")
        }
        // A version that changed while it was copied is not kept under the name of the one before (nor reused).
        let published = versionName(path) == name ? target : making + "-" + name
        guard rename(copy, published) == 0 else {
            throw EntityIndexError(
                .io, "cannot move the private copy into \(folder): \(String(cString: strerror(errno)))")
        }
        return published
    }

    /// Whether the copy is there; it is then marked as used now (its modification time).
    static func reuse(_ copy: String) -> Bool {
        guard access(copy, R_OK) == 0 else { return false }
        utimensat(AT_FDCWD, copy, nil, 0)
        return true
    }

    // MARK: - Sweeping

    /// Removes, in the folder of copies: the folders of processes that are gone, copies not used for a day, and
    /// (when a copy named `keeping` is about to be made) the copies of older versions of the same database. A
    /// reader that has a removed copy open goes on reading it.
    static func sweep(_ folder: String, keeping: String?) {
        guard let dir = opendir(folder) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        let source = keeping.map { String($0.split(separator: "-").prefix(2).joined(separator: "-")) + "-" }
        let now = Int(time(nil))
        for name in names {
            let path = folder + "/" + name
            if name.hasPrefix("making-") {
                // A folder (or a copy of a version that changed while it was made) of a process that is gone.
                let pid = name.split(separator: "-").dropFirst().first.flatMap { Int32($0) } ?? 0
                guard !alive(pid) else { continue }
                if name.hasSuffix(".sqlite") { unlink(path) } else { removeFolder(path) }
                continue
            }
            guard name.hasSuffix(".sqlite") else { continue }
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let stale = now - Int(st.st_mtim.tv_sec) > unusedSeconds
            if stale || (source.map { name.hasPrefix($0) && name != keeping } ?? false) { unlink(path) }
        }
    }

    /// Whether the process runs (this one included); a pid that cannot be read counts as gone.
    static func alive(_ pid: Int32) -> Bool {
        pid > 0 && (pid == getpid() || kill(pid, 0) == 0 || errno == EPERM)
    }

    static func removeFolder(_ folder: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(folder + "/index.sqlite" + suffix) }
        rmdir(folder)
    }
}
