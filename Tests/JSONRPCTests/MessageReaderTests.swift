import JSON
import JSONRPC
import Testing

/// Framing from any byte source: detection, LSP headers in any order, resynchronization after bad headers.
@Suite struct MessageReaderTests {
    /// Every item read from `input`, delivered `chunk` bytes at a time.
    func items(_ input: [UInt8], chunk: Int, framing: Framing? = nil, max: Int = 1 << 20) -> [MessageReader.Item] {
        var offset = 0
        let reader = MessageReader(
            source: { buffer in
                let n = min(chunk, buffer.count, input.count - offset)
                for i in 0..<n { buffer[i] = input[offset + i] }
                offset += n
                return n
            }, maxMessageBytes: max, framing: framing)
        var read: [MessageReader.Item] = []
        while true {
            let item = reader.next()
            if item == .end { return read }
            read.append(item)
            if read.count > 100 { return read }
        }
    }

    func frame(_ body: String, _ headers: String = "") -> String {
        "Content-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)"
    }

    func messages(_ items: [MessageReader.Item]) -> [String] {
        items.compactMap { if case .message(let m) = $0 { String(decoding: m, as: UTF8.self) } else { nil } }
    }

    static let chunks = [1, 3, 1 << 16]

    @Test(arguments: chunks) func afterAHeaderWithANulTheNextMessageIsRead(_ chunk: Int) {
        let read = items(Array(("Content-Length: 4\0\r\n\r\n{\"a\"}" + frame(#"{"ok":1}"#)).utf8), chunk: chunk)
        #expect(read.count == 2)
        if case .badHeader(let problem) = read.first {
            #expect(problem.contains("control character"))
        } else {
            Issue.record("\(read)")
        }
        #expect(messages(read) == [#"{"ok":1}"#])
    }

    @Test(arguments: chunks) func aLineFramedMessageInLSPModeIsDeliveredAsUnframed(_ chunk: Int) {
        let read = items(
            Array((frame("{}") + #"{"jsonrpc":"2.0","id":2}"# + "\n" + frame("[]")).utf8), chunk: chunk)
        #expect(
            read == [
                .message(Array("{}".utf8)), .unframed(Array(#"{"jsonrpc":"2.0","id":2}"#.utf8)),
                .message(Array("[]".utf8)),
            ])
    }

    @Test(arguments: chunks) func headersComeInAnyOrder(_ chunk: Int) {
        let body = #"{"id":1}"#
        let input =
            "content-type: application/vscode-jsonrpc; charset=utf-8\r\nX-Other: 1\r\nCONTENT-LENGTH: \(body.utf8.count)\r\n\r\n"
            + body + frame("{}", "Content-Type: x\r\n")
        let read = items(Array(input.utf8), chunk: chunk)
        #expect(messages(read) == [body, "{}"])
    }

    @Test(arguments: chunks) func unreadableHeadersResynchronizeAtTheNextHeader(_ chunk: Int) {
        let input = [
            "Content-Length: 5\r\nBad header\r\n\r\n{\"x\"}",  // up to the next Content-Length, after the body
            "Content-Length: lots\r\n\r\ngarbage without a line end",
            frame("{}"),
            "Content-Type: text/plain\r\n\r\n",  // no length: resynchronized at the next header line
            frame("[1]"),
        ].joined()
        let read = items(Array(input.utf8), chunk: chunk)
        #expect(read.count == 5, "\(read)")
        #expect(messages(read) == ["{}", "[1]"])
    }

    @Test(arguments: chunks) func linesAreDetectedAndKept(_ chunk: Int) {
        let read = items(Array("{\"a\":1}\n\n[2]\nContent-Length: 2\n".utf8), chunk: chunk)
        #expect(messages(read) == [#"{"a":1}"#, "", "[2]", "Content-Length: 2"])
    }

    @Test(arguments: chunks) func garbageBeforeAMessageDoesNotSwallowIt(_ chunk: Int) {
        for garbage in ["abc", "Content-Typ", "X: 1", ": x", "\u{0}\u{1}", "{", "Content-Type: a\u{0}b"] {
            let read = items(Array((garbage + "\n" + frame("[7]")).utf8), chunk: chunk, framing: .headers)
            #expect(messages(read).last == "[7]", "\(garbage.debugDescription): \(read)")
        }
    }

    @Test func tooLongMessagesAreSkippedInBothFramings() {
        let long = String(repeating: "x", count: 100)
        #expect(items(Array((long + "\n{}\n").utf8), chunk: 7, max: 50) == [.tooLong, .message(Array("{}".utf8))])
        #expect(
            items(Array((frame(long) + frame("{}")).utf8), chunk: 7, max: 50) == [.tooLong, .message(Array("{}".utf8))])
    }
}
