import EntityIndex
import EntityIndexPipe
import Foundation
import JSON
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Line and LSP framing, detected from the first bytes, through the server loop on real file descriptors.
@Suite struct FramingTests {
    /// Runs the server on `chunks` and returns everything it wrote; each chunk is written once the server has read
    /// the one before (the pipe is empty), so that each comes in a read of its own at any speed. With `mcp`, the MCP
    /// server serves them instead of the pipe.
    func serve(_ chunks: [[UInt8]], maxBytes: Int = PipeServer.defaultMaxLineBytes, mcp: Bool = false) throws
        -> [UInt8]
    {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        let handler = RequestHandler(store: try TestSupport.store(), clock: { 0 })
        let run =
            mcp
            ? MCPServer(
                handler: handler, allowWrites: false, input: input[0], output: output[1], maxMessageBytes: maxBytes
            ).run
            : PipeServer(handler: handler, input: input[0], output: output[1], maxLineBytes: maxBytes).run
        let writeEnd = input[1]
        let writer = Thread {
            for chunk in chunks {
                TestSupport.waitUntil { TestSupport.bytesWaiting(in: writeEnd) == 0 }
                _ = chunk.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            }
            close(writeEnd)
        }
        writer.start()
        let readEnd = output[0]
        let collected = Collected()
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                collected.append(buffer[0..<n])
            }
            collected.done.signal()
        }
        reader.start()
        _ = run()
        close(output[1])
        collected.done.wait()
        close(input[0])
        close(readEnd)
        return collected.bytes
    }

    func frame(_ body: String, headers: String = "") -> [UInt8] {
        Array("Content-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)".utf8)
    }

    /// Splits LSP-framed output into bodies; nil when it is not well framed.
    func bodies(_ bytes: [UInt8]) -> [JSONValue]? {
        var text = String(decoding: bytes, as: UTF8.self)[...]
        var result: [JSONValue] = []
        while !text.isEmpty {
            guard text.hasPrefix("Content-Length: "), let end = text.range(of: "\r\n\r\n") else { return nil }
            guard let n = Int(text[text.index(text.startIndex, offsetBy: 16)..<end.lowerBound]) else { return nil }
            let body = Array(text[end.upperBound...].utf8.prefix(n))
            guard body.count == n, let value = try? JSONParser().parse(body) else { return nil }
            result.append(value)
            text = String(decoding: Array(text[end.upperBound...].utf8.dropFirst(n)), as: UTF8.self)[...]
        }
        return result
    }

    @Test func headersAreAnsweredInHeaders() throws {
        let out = try serve([
            frame(
                #"{"jsonrpc":"2.0","id":1,"method":"state"}"#,
                headers: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"),
            frame(#"{"jsonrpc":"2.0","method":"state"}"#),
            frame(#"[{"jsonrpc":"2.0","id":2,"method":"nope"},{"jsonrpc":"2.0","id":"é","method":"state"}]"#),
        ])
        let answers = try #require(bodies(out), "\(String(decoding: out, as: UTF8.self))")
        #expect(answers.count == 2)
        #expect(answers.first == ["jsonrpc": "2.0", "id": 1, "result": ["clientState": .null]])
        #expect(answers.last?.array?.first?["error"]?["code"] == JSONValue(-32601))
        #expect(answers.last?.array?.last?["id"] == "é")
    }

    @Test func aHeaderSplitAcrossReadsIsStillDetected() throws {
        let whole = frame(#"{"jsonrpc":"2.0","id":1,"method":"state"}"#)
        let out = try serve([Array(whole[0..<4]), Array(whole[4..<20]), Array(whole[20...])])
        #expect(bodies(out)?.first?["id"] == JSONValue(1), "\(String(decoding: out, as: UTF8.self))")
    }

    @Test func linesStayLines() throws {
        let out = try serve([
            Array(#"{"jsonrpc":"2.0","id":1,"method":"state"}"#.utf8),
            Array("\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"state\"}".utf8),
        ])
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"jsonrpc\"") })
    }

    @Test func badHeadersAndOverlongBodiesGetAnErrorAndTheStreamGoesOn() throws {
        let big =
            #"{"jsonrpc":"2.0","id":9,"method":"search","params":{"query":""# + String(repeating: "x", count: 2000)
            + #""}}"#
        let out = try serve(
            [
                frame(#"{"jsonrpc":"2.0","id":1,"method":"state"}"#),
                Array("Content-Length: many\r\n\r\n".utf8),
                Array("Content-Type: text/plain\r\n\r\n".utf8),
                frame(big),
                frame(#"{"jsonrpc":"2.0","id":1,"#),
                frame(#"{"jsonrpc":"2.0","id":2,"method":"state"}"#),
                Array("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8),
            ], maxBytes: 1024)
        let answers = try #require(bodies(out), "\(String(decoding: out, as: UTF8.self))")
        #expect(
            answers.map { $0["error"]?["code"] ?? $0["id"] ?? .null } == [1, -32700, -32700, -32600, -32700, 2, -32700])
        #expect(answers[1]["error"]?["message"]?.string?.contains("Content-Length must be a number") == true)
        #expect(answers[2]["error"]?["message"]?.string?.contains("no Content-Length") == true)
        #expect(answers[3]["error"]?["data"]?["code"] == "request_too_large")
        #expect(answers[6]["error"]?["message"]?.string?.contains("ended inside a message body") == true)
    }
}

extension FramingTests {
    @Test func theIssuesFramingCasesAreAnswered() throws {
        let out = try serve([
            Array("Content-Length: 4\0\r\n\r\n{}".utf8) + frame(#"{"jsonrpc":"2.0","id":1,"method":"state"}"#),
            Array("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"state\"}\n".utf8),
            Array("Content-Type: application/vscode-jsonrpc\r\n".utf8)
                + frame(#"{"jsonrpc":"2.0","id":3,"method":"state"}"#),
        ])
        let answers = try #require(bodies(out), "\(String(decoding: out, as: UTF8.self))")
        #expect(answers.map { $0["error"]?["code"] ?? $0["id"] ?? .null } == [-32700, 1, -32600, 3])
        #expect(answers[2]["id"] == 2, "the line-framed request's error carries its id")
    }

    @Test func aContentTypeFirstSelectsHeaders() throws {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"state"}"#
        let out = try serve([
            Array("Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        ])
        #expect(bodies(out)?.first?["id"] == 1, "\(String(decoding: out, as: UTF8.self))")
    }

    @Test func mcpReadsLinesWithTheSameBound() throws {
        let long =
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":""# + String(repeating: "x", count: 2000) + "\"}}"
        let out = try serve(
            [Array((long + "\n").utf8), Array(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8 + [0x0A])],
            maxBytes: 1024, mcp: true)
        let lines = String(decoding: out, as: UTF8.self).split(separator: "\n").map { TestSupport.json(String($0)) }
        #expect(lines.count == 2)
        #expect(lines.first?["error"]?["data"]?["code"] == "request_too_large")
        #expect(lines.last?["result"] == [:], "the next line is served")
    }
}

/// What the reader thread collected; the semaphore orders its writes before the test's read.
final class Collected: @unchecked Sendable {
    var bytes: [UInt8] = []
    let done = DispatchSemaphore(value: 0)
    func append(_ chunk: ArraySlice<UInt8>) { bytes.append(contentsOf: chunk) }
}
