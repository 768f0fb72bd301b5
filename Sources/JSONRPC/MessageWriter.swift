import System

#if canImport(Glibc)
    import Glibc
#endif

/// Writes messages to a file descriptor in one framing.
public struct MessageWriter {
    public let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    /// Writes one message already encoded as JSON; false when the reader has gone. The message and its framing go
    /// out in one `writev` (two writes would let TCP's Nagle algorithm hold the second back), without a copy.
    public func send(encoded message: [UInt8], framing: Framing) -> Bool {
        switch framing {
        case .lines:
            return write(message, [0x0A])
        case .headers:
            return write(Array("Content-Length: \(message.count)\r\n\r\n".utf8), message)
        }
    }

    private func write(_ head: [UInt8], _ tail: [UInt8]) -> Bool {
        var sent = 0  // bytes of head, then tail, written so far
        let total = head.count + tail.count
        while sent < total {
            // After a stop signal a reader that does not read would hold the process here for ever: a write
            // waits at most a tenth of a second for room.
            if StopSignal.received != nil {
                var target = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&target, 1, 100) <= 0 { return false }
            }
            let n = head.withUnsafeBytes { h in
                tail.withUnsafeBytes { t in
                    var vectors: [iovec] = []
                    if sent < h.count {
                        vectors.append(
                            iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: h.baseAddress! + sent),
                                iov_len: h.count - sent))
                    }
                    let inTail = max(0, sent - h.count)
                    if inTail < t.count {
                        vectors.append(
                            iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: t.baseAddress! + inTail),
                                iov_len: t.count - inTail))
                    }
                    return Descriptor.retrying { writev(fd, vectors, Int32(vectors.count)) }
                }
            }
            if n < 0 { return false }
            sent += n
        }
        return true
    }
}
