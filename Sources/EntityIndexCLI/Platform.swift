import System

#if canImport(Glibc)
    import Glibc
#endif

/// The command line's place that talks to the operating system: streams, environment, terminals (signals, memory,
/// descriptor calls and clocks are the `System` module's).
public enum Platform {
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The width of the terminal on `fd`: `$COLUMNS` when it is a positive number, else the kernel's window size
    /// ([TIOCGWINSZ](https://man7.org/linux/man-pages/man2/TIOCGWINSZ.2const.html)), else 80.
    static func terminalColumns(_ fd: Int32) -> Int {
        if let text = environment("COLUMNS"), let n = Int(text), n > 0 { return n }
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// Writes `text` to `fd` whole; a reader that went away is ignored.
    public static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { Descriptor.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Opens a file for reading; "-" is standard input.
    static func openForReading(_ path: String) -> (fd: Int32, error: String?) {
        if path == "-" { return (0, nil) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { return (-1, String(cString: strerror(errno))) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            return (-1, "is a directory")
        }
        return (fd, nil)
    }

    /// The size of the regular file open on `fd` (a file given by name or redirected to stdin), nil for a pipe.
    static func regularFileSize(_ fd: Int32) -> Int? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    /// The size of the file the path names (links followed), nil when it names nothing.
    static func fileSize(_ path: String) -> Int? {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : nil
    }

    static func closeFile(_ fd: Int32) { if fd > 2 { close(fd) } }

    /// The bytes of a file ("-": standard input), or why it cannot be read.
    static func readAll(_ path: String) -> (bytes: [UInt8]?, error: String?) {
        let (fd, error) = openForReading(path)
        guard fd >= 0 else { return (nil, error) }
        defer { closeFile(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return (nil, String(cString: strerror(errno)))
            }
            if n == 0 { return (bytes, nil) }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Replaces the file at `path` with `bytes`: written beside it, then renamed over it, so that a reader sees
    /// the old file or the new one; nil, or why it failed.
    static func replaceFile(_ path: String, with bytes: [UInt8]) -> String? {
        let temporary = path + ".entityidx-update"
        var mode: mode_t = 0o644
        var st = stat()
        if stat(path, &st) == 0 { mode = st.st_mode & 0o7777 }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        if fd < 0 { return String(cString: strerror(errno)) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let error = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return error
            }
            offset += n
        }
        let synced = fsync(fd) == 0
        let closed = close(fd) == 0
        if !synced || !closed || rename(temporary, path) != 0 {
            let error = String(cString: strerror(errno))
            unlink(temporary)
            return error
        }
        return nil
    }
}
