import HTTP
import Testing

/// Origins and `Host` values parsed strictly: what a browser sends is read, anything else is refused whole rather
/// than read up to a prefix that looks local.
@Suite struct OriginTests {
    /// Origins that are not `scheme://host[:port]`, or whose host is not loopback: none may count as loopback.
    static let hostile = [
        "http://[::1]evil.com", "http://[::1]:80evil", "http://[::1].evil.com", "http://[::1]@evil.com",
        "http://[::1]]", "http://[::1", "http://[]", "http://[:]", "http://[::1%25eth0]", "http://[::1]:",
        "http://127.0.0.1.evil.com", "http://127.0.0.1evil.com", "http://127.0.0.1:80evil", "http://127.0.0.1:80:80",
        "http://localhost@evil.com", "http://user@localhost", "http://user:pass@localhost", "http://evil.com@localhost",
        "http://localhost:80@evil.com", "http://localhost#@evil.com", "http://localhost?@evil.com",
        "http://localhost\\@evil.com", "http://localhost/", "http://localhost/path", "http://localhost:8100/x",
        "http://localhost?x", "http://localhost#x", "http://localhost.evil.com", "http://localhost.",
        "http://.localhost",
        "http://a..localhost", "http://local%68ost", "http://lоcalhost", "http://localhost:", "http://localhost:0",
        "http://localhost:080", "http://localhost:65536", "http://localhost:+80", "http://localhost:-1",
        "http://localhost: 80", "http:// localhost", " http://localhost", "http://localhost ", "http:/localhost",
        "http:localhost", "//localhost", "localhost", "http://", "http://:80", "://localhost", "1http://localhost",
        "null", "",
    ]

    /// Loopback origins as browsers write them, with their host and port.
    static let loopback: [(String, String, Int?)] = [
        ("http://localhost", "localhost", nil), ("http://localhost:8100", "localhost", 8100),
        ("https://127.0.0.1:5173", "127.0.0.1", 5173), ("http://[::1]", "[::1]", nil),
        ("http://[::1]:3000", "[::1]", 3000), ("http://app.localhost:65535", "app.localhost", 65535),
        ("HTTP://LocalHost:1", "localhost", 1),
    ]

    @Test(arguments: hostile) func hostileOriginIsNotLoopback(_ origin: String) {
        #expect(HTTPOrigin(origin)?.authority.isLoopback != true, "\(origin)")
    }

    @Test(arguments: loopback) func loopbackOrigin(_ origin: String, _ host: String, _ port: Int?) throws {
        let parsed = try #require(HTTPOrigin(origin))
        #expect(parsed.isWeb)
        #expect(parsed.authority.host == host)
        #expect(parsed.authority.port == port)
        #expect(parsed.authority.isLoopback)
    }

    @Test func otherSitesParseButAreNotLoopback() throws {
        for origin in ["https://app.example", "http://127.0.0.1.evil.com", "http://[::ffff:127.0.0.1]:80"] {
            let parsed = try #require(HTTPOrigin(origin), "\(origin)")
            #expect(!parsed.authority.isLoopback, "\(origin)")
        }
        #expect(HTTPOrigin("capacitor://localhost")?.isWeb == false)
        #expect(HTTPOrigin("ftp://localhost")?.isWeb == false)
    }

    @Test func hostHeaders() {
        for host in ["localhost", "localhost:8765", "127.0.0.1:1", "[::1]:8765", "[::1]", "app.localhost"] {
            #expect(HTTPAuthority(host)?.isLoopback == true, "\(host)")
        }
        for host in [
            "[::1]evil.com", "[::1]:80evil", "localhost@evil.com", "localhost:80@evil.com", "localhost/x",
            "localhost:", "", "evil.example", "127.0.0.1.evil.com", "rebound.example:8765",
        ] {
            #expect(HTTPAuthority(host)?.isLoopback != true, "\(host)")
        }
    }
}
