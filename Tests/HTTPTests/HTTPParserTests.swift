import HTTP
import Testing

/// The parsing rules of docs/http.md, each with the status it answers, fed whole and a byte at a time.
@Suite struct HTTPParserTests {
    static let limits = HTTPLimits(maxRequestLineBytes: 128, maxHeaderBytes: 256, maxHeaderCount: 8, maxBodyBytes: 100)

    /// Every step the parser gives for `input`, delivered `chunk` bytes at a time, up to the first failure.
    func steps(_ input: String, chunk: Int) -> [HTTPParser.Step] {
        var parser = HTTPParser(limits: Self.limits)
        var out: [HTTPParser.Step] = []
        let bytes = Array(input.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = min(chunk, bytes.count - offset)
            parser.append(bytes[offset..<(offset + n)])
            offset += n
            loop: while true {
                let step = parser.next()
                switch step {
                case .needMore: break loop
                case .failure:
                    out.append(step)
                    return out
                case .request: out.append(step)
                }
            }
        }
        return out
    }

    func requests(_ input: String, chunk: Int) -> [HTTPRequest] {
        steps(input, chunk: chunk).compactMap { if case .request(let box) = $0 { box.request } else { nil } }
    }

    func status(_ input: String, chunk: Int) -> Int? {
        for step in steps(input, chunk: chunk) { if case .failure(let f) = step { return f.status } }
        return nil
    }

    static let chunks = [1, 7, 1 << 16]

    @Test(arguments: chunks) func readsPipelinedRequestsWithBodies(_ chunk: Int) {
        let input =
            "POST /rpc?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\ncontent-type:  application/json \r\n\r\nhello"
            + "\r\nGET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let read = requests(input, chunk: chunk)
        #expect(read.count == 2)
        #expect(read.first?.method == "POST")
        #expect(read.first?.path == "/rpc")
        #expect(read.first?.query == "x=1")
        #expect(read.first?.body == Array("hello".utf8))
        #expect(read.first?.header("Content-Type") == "application/json")
        #expect(read.first?.keepAlive == true)
        #expect(read.last?.path == "/")
        #expect(read.last?.keepAlive == false)
    }

    @Test func http10KeepsAliveOnlyWhenAsked() {
        #expect(requests("GET / HTTP/1.0\r\n\r\n", chunk: 99).first?.keepAlive == false)
        #expect(requests("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", chunk: 99).first?.keepAlive == true)
    }

    @Test func theAbsoluteFormGivesItsPath() {
        #expect(
            requests("GET http://127.0.0.1:8080/mcp?a HTTP/1.1\r\nHost: x\r\n\r\n", chunk: 99).first?.target == "/mcp?a"
        )
        #expect(requests("GET http://127.0.0.1:8080 HTTP/1.1\r\nHost: x\r\n\r\n", chunk: 99).first?.path == "/")
    }

    static let refusals: [(String, Int)] = [
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", 400),  // bare LF
        ("GET / HTTP/1.1\r\nHost: a\rX\r\n\r\n", 400),  // bare CR
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),  // two spaces
        ("GET / HTTP/1.1 x\r\nHost: a\r\n\r\n", 400),  // four parts
        ("GET / HTTP/1.1\r\n\r\n", 400),  // no Host
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),  // space before the colon
        ("GET / HTTP/1.1\r\nHost: a\r\nNo colon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{01}b\r\n\r\n", 400),
        ("GET /a#b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET a HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("G@T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("BREW / HTTP/1.1\r\nHost: a\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: zstd\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
        ("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 411),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/1.2\r\nHost: a\r\n\r\n", 505),
        ("GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("GET /" + String(repeating: "a", count: 200) + " HTTP/1.1\r\nHost: a\r\n\r\n", 414),
        (String(repeating: "A", count: 200), 400),
        ("GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 300) + "\r\n\r\n", 431),
        ("GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: 1\r\n", count: 9) + "\r\n", 431),
        ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: coffee\r\n\r\nab", 417),
    ]

    @Test(arguments: refusals) func refusesWithItsStatus(_ input: String, _ expected: Int) {
        for chunk in Self.chunks {
            #expect(status(input, chunk: chunk) == expected, "\(input.debugDescription) in pieces of \(chunk)")
        }
    }

    @Test func afterAFailureNothingMoreIsRead() {
        var parser = HTTPParser(limits: Self.limits)
        parser.append(Array("GET / HTTP/3.0\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(
            parser.next()
                == .failure(HTTPFailure(505, "\"HTTP/3.0\" is not supported; this server speaks HTTP/1.1 and 1.0")))
        if case .failure = parser.next() {} else { Issue.record("the parser went on after a failure") }
    }

    @Test func expectContinueIsFlaggedUntilTheBodyComes() {
        var parser = HTTPParser(limits: Self.limits)
        parser.append(Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(parser.next() == .needMore)
        #expect(parser.expectsContinue)
        parser.append(Array("ok".utf8))
        if case .request(let box) = parser.next() {
            #expect(box.request.body == Array("ok".utf8))
        } else {
            Issue.record("no request")
        }
        #expect(!parser.expectsContinue)
        #expect(!parser.hasPartialRequest)
    }

    @Test func emptyLinesBeforeARequestAreSkipped() {
        #expect(requests("\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", chunk: 3).count == 1)
    }

    @Test func responsesAreFramed() {
        let whole = HTTPResponse(status: 200, text: "hi").encoded()
        #expect(String(decoding: whole, as: UTF8.self).hasSuffix("Content-Length: 2\r\n\r\nhi"))
        let chunked = HTTPResponse(status: 200, body: .chunks([Array("abc".utf8), Array("0123456789abcdef".utf8)]))
        let text = String(decoding: chunked.encoded(), as: UTF8.self)
        #expect(text.hasSuffix("Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n"))
        let old = String(decoding: chunked.encoded(minorVersion: 0, keepAlive: true), as: UTF8.self)
        #expect(old.contains("Content-Length: 19\r\nConnection: close\r\n\r\nabc0123"))
        let head = String(decoding: HTTPResponse(status: 200, text: "hi").encoded(withBody: false), as: UTF8.self)
        #expect(head.hasSuffix("Content-Length: 2\r\n\r\n"))
        #expect(!String(decoding: HTTPResponse(status: 204).encoded(), as: UTF8.self).contains("Content-Length"))
    }
}
