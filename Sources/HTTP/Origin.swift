/// The `host[:port]` of a `Host` header or of an origin, parsed strictly: a name or IPv4 address, or an IPv6 address
/// in brackets, then only `:port` or nothing.
///
/// A browser sends these serialized ([RFC 6454 §6.1](https://www.rfc-editor.org/rfc/rfc6454#section-6.1), hosts in
/// ASCII), so anything else (userinfo, a path, a zone, a percent sign, characters after `]`) is refused rather than
/// read as a prefix: `[::1]evil.example` is no host at all, not `[::1]`.
public struct HTTPAuthority: Equatable, Sendable {
    /// The host, lowercased: a name (`localhost`), an IPv4 address, or an IPv6 address with its brackets (`[::1]`).
    public let host: String
    /// The port, nil when none is written.
    public let port: Int?

    /// The names a loopback server answers to, besides `*.localhost`.
    public static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// `text` as `host[:port]`, nil when it is not exactly of that form.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard let first = bytes.first else { return nil }
        var hostEnd: Int
        if first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 2,
                bytes[1..<close].allSatisfy(Self.isIPv6Byte), bytes[1..<close].contains(UInt8(ascii: ":"))
            else { return nil }
            hostEnd = close + 1
        } else {
            hostEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            let name = bytes[0..<hostEnd]
            guard name.allSatisfy(Self.isNameByte), name.first != UInt8(ascii: "."), name.last != UInt8(ascii: "."),
                !zip(name, name.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") })
            else { return nil }
        }
        guard hostEnd > 0 else { return nil }
        if hostEnd == bytes.count {
            port = nil
        } else {
            guard bytes[hostEnd] == UInt8(ascii: ":"), let port = Self.port(bytes[(hostEnd + 1)...]) else { return nil }
            self.port = port
        }
        host = String(decoding: bytes[0..<hostEnd].map(Self.lower), as: UTF8.self)
    }

    /// Whether the host is a loopback name: `localhost`, `127.0.0.1`, `[::1]`, or a name under `localhost`
    /// ([RFC 6761 §6.3](https://www.rfc-editor.org/rfc/rfc6761#section-6.3)).
    public var isLoopback: Bool {
        Self.loopbackHosts.contains(host) || host.hasSuffix(".localhost")
    }

    // MARK: - Bytes

    /// A port as a browser writes it: 1 to 65535 in decimal, without a sign or a leading zero.
    static func port(_ digits: ArraySlice<UInt8>) -> Int? {
        guard (1...5).contains(digits.count), digits.first != UInt8(ascii: "0"), digits.allSatisfy(isDigit) else {
            return nil
        }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return value <= 65535 ? value : nil
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }

    /// A letter, digit, `-`, `.` or `_`: what the names and IPv4 addresses of serialized origins are made of.
    static func isNameByte(_ b: UInt8) -> Bool {
        isLetter(b) || isDigit(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_")
    }

    /// A hex digit, `:` or `.` (an IPv4 tail): an IPv6 address without a zone.
    static func isIPv6Byte(_ b: UInt8) -> Bool {
        isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f")) || b == UInt8(ascii: ":")
            || b == UInt8(ascii: ".")
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}

/// An origin as a browser sends it in `Origin`: `scheme://host[:port]` and nothing more.
///
/// The opaque origin `null` is not an `HTTPOrigin`; a server allows it only when told to, by its text.
public struct HTTPOrigin: Equatable, Sendable {
    /// The scheme, lowercased (`http`, `https`, or another an app uses).
    public let scheme: String
    public let authority: HTTPAuthority

    /// `text` as an origin, nil when it is not exactly `scheme://host[:port]` (see `HTTPAuthority`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            HTTPAuthority.isLetter(bytes[0]),
            bytes[0..<colon].allSatisfy({
                HTTPAuthority.isLetter($0) || HTTPAuthority.isDigit($0) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }),
            bytes.count > colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/"),
            let authority = HTTPAuthority(String(decoding: bytes[(colon + 3)...], as: UTF8.self))
        else { return nil }
        scheme = String(decoding: bytes[0..<colon].map(HTTPAuthority.lower), as: UTF8.self)
        self.authority = authority
    }

    /// Whether the scheme is `http` or `https`.
    public var isWeb: Bool { scheme == "http" || scheme == "https" }
}
