import System

#if canImport(Glibc)
    import Glibc
#endif

/// An error of the operating system while setting up the listening socket.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }

    init(_ what: String, errno code: Int32 = errno) {
        message = "\(what): \(String(cString: strerror(code)))"
    }

    init(message: String) { self.message = message }
}

/// The POSIX calls of the server: a listening TCP socket and non-blocking connections.
enum Socket {
    /// A non-blocking socket listening on `host` (a numeric IPv4 or IPv6 address, or a name) and `port` (0: one
    /// the kernel picks); returns it with the port it is bound to.
    static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(HTTPServerError) -> (
        fd: Int32, port: UInt16
    ) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPServerError(message: "cannot resolve host \"\(host)\": \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError("cannot listen on \(host):\(port)", errno: code)
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw HTTPServerError("listen", errno: code)
        }
        setNonBlocking(fd)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0 else { throw HTTPServerError("getsockname") }
        let actual: UInt16 =
            storage.ss_family == sa_family_t(AF_INET6)
            ? withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            : withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        return (fd, actual)
    }

    /// A waiting connection, non-blocking; nil when none waits (or the accept failed: too many open files, a
    /// connection reset before it was taken).
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        setNonBlocking(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    enum ReadOutcome { case bytes(Int), wouldBlock, closed }

    /// Reads what has arrived into `buffer`.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> ReadOutcome {
        let n = buffer.withUnsafeMutableBytes { buffer in
            Descriptor.retrying { recv(fd, buffer.baseAddress, buffer.count, 0) }
        }
        if n > 0 { return .bytes(n) }
        if n == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .closed
    }

    /// Writes as much of `bytes[offset...]` as the connection takes now; the new offset, nil when it is closed.
    static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int? {
        var offset = offset
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { bytes in
                Descriptor.retrying { send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            if n > 0 {
                offset += n
                continue
            }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { return offset }
            return nil
        }
        return offset
    }
}
