import Foundation
import JSON
import TestSupport
import Testing

/// The JSON-RPC layer's bounds through both protocols on it, `entityidx pipe` and `entityidx mcp`, at sizes that
/// run in `make test` (HostileSoakTests+Protocols has the sizes they were found at).
@Suite(.serialized) struct ProtocolBoundsTests {
    static let meta: JSONValue = [
        "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": [:],
    ]

    /// A request for a page of `limit` items: `all` on the pipe, the `list_entities` tool on MCP.
    static func page(_ id: Int, _ command: String, limit: Int = 10_000) -> JSONValue {
        let arguments: JSONValue = ["type": "item", "limit": JSONValue(limit)]
        if command == "mcp" {
            return [
                "jsonrpc": "2.0", "id": JSONValue(id), "method": "tools/call",
                "params": ["name": "list_entities", "arguments": arguments, "_meta": meta],
            ]
        }
        return ["jsonrpc": "2.0", "id": JSONValue(id), "method": "all", "params": arguments]
    }

    /// A small request each protocol answers.
    static func small(_ id: Int, _ command: String) -> JSONValue {
        ["jsonrpc": "2.0", "id": JSONValue(id), "method": command == "mcp" ? "ping" : "state"]
    }

    /// Whether a response is a refusal for want of room: the layer's error, or MCP's tool error the model can act
    /// on (the engine's refusal inside a tool).
    static func refused(_ response: JSONValue?) -> Bool {
        let code = response?["error"]?["data"]?["code"] ?? response?["result"]?["content"]?.array?.first?["text"]
        return code?.string?.hasPrefix("resource_exhausted") == true
    }

    static let large: String = {
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        try? Binary.ingestLargeItems(db)
        return db
    }()

    @Test(arguments: ["pipe", "mcp"]) func aSignalEndsTheServerWith128PlusIt(_ command: String) throws {
        let idle = try PipeProcess(db: Self.large, command: command)
        #expect(idle.call(command == "mcp" ? "ping" : "state").result != nil)
        kill(idle.process.processIdentifier, SIGTERM)
        idle.process.waitUntilExit()
        #expect(idle.process.terminationStatus == 128 + SIGTERM)
        // A reply of 3.2 MB that nobody reads: once it fills the pipe (the server is blocked writing it), SIGTERM
        // ends the server, which gives the reply up and still tells of the signal.
        let stuck = try PipeProcess(db: Self.large, command: command)
        stuck.send(JSONWriter.string(Self.page(1, command)))
        let output = stuck.stdout.fileHandleForReading.fileDescriptor
        let full = TestSupport.pipeCapacity(output)
        #expect(TestSupport.waitUntil { TestSupport.bytesWaiting(in: output) >= full || !stuck.process.isRunning })
        kill(stuck.process.processIdentifier, SIGTERM)
        let ended = TestSupport.waitUntil { !stuck.process.isRunning }
        #expect(ended, "still blocked writing its reply \(Int(TestSupport.hangSeconds)) s after SIGTERM")
        if !ended { stuck.kill() }
        stuck.process.waitUntilExit()
        #expect(stuck.process.terminationStatus == 128 + SIGTERM)
    }

    /// 30 pages of 3.2 MB (6.4 MB through MCP, as text and as structured content): the line stays within 64 MiB,
    /// the pages past it are refused without being run, and the next request is served.
    @Test(arguments: ["pipe", "mcp"]) func aBatchPastTheResponseBoundStaysWithinIt(_ command: String) throws {
        let p = try PipeProcess(db: Self.large, command: command)
        defer { p.close() }
        p.send(JSONWriter.string(.array((0..<30).map { Self.page($0, command) })))
        let line = try #require(p.readLine()?.array)
        #expect(line.count == 30)
        let size = JSONWriter.string(.array(line)).utf8.count
        #expect(size <= 64 << 20, "\(size) bytes")
        #expect(Self.refused(line.last), "\(line.last ?? .null)")
        #expect(p.call(command == "mcp" ? "ping" : "state").result != nil, "the next request is served")
        #expect(p.peakKiB < 700_000, "peak resident \(p.peakKiB / 1024) MiB")
    }

    /// Under an address-space limit 64 MiB above the idle server, the same batch is answered (pages that fit,
    /// then `resource_exhausted`) and the next line is served.
    @Test(arguments: ["pipe", "mcp"]) func aBatchUnderAnAddressSpaceLimitIsAnswered(_ command: String) throws {
        let limit = try Binary.idlePipeKiB(Self.large, command: command) + 64 * 1024
        let input = [
            JSONWriter.string(.array((0..<30).map { Self.page($0, command) })),
            JSONWriter.string(Self.small(99, command)),
        ]
        let (status, output) = try Binary.pipe(
            underAddressSpaceLimit: limit, db: Self.large, input: input.map { $0 + "\n" }.joined(), command: command)
        #expect(status == 0)
        let lines = output.split(separator: 0x0A).map { (try? JSONParser().parse(Array($0))) ?? .null }
        #expect(lines.count == 2)
        #expect(lines.first?.array?.count == 30)
        #expect(lines.last?["result"] != nil, "the next line is served")
    }
}
