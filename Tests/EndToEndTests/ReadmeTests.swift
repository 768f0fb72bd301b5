import Foundation
import JSON
import TestSupport
import Testing

/// The README's examples are true when run.
@Suite(.serialized) struct ReadmeTests {
    static let readme = TestSupport.read(TestSupport.repository + "/README.md") ?? ""

    /// The lines of the first fenced block after `marker`.
    static func block(after marker: String) -> [String] {
        guard let start = readme.range(of: marker) else { return [] }
        let rest = readme[start.upperBound...]
        guard let open = rest.range(of: "```") else { return [] }
        let body = rest[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        guard let close = body.range(of: "```") else { return [] }
        return body[..<close.lowerBound].split(separator: "\n").map(String.init)
    }

    /// Each command of "Using it", run in order on the sample data, succeeds and prints something (servers and the
    /// examples that name a file of the reader's own are left out).
    @Test func usingItExamplesRun() throws {
        let lines = Self.block(after: "## Using it")
        #expect(lines.count >= 10)
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        var ran = 0
        for line in lines {
            let command = line.components(separatedBy: "  #").first!.trimmingCharacters(in: .whitespaces)
            let arguments = try Self.shellWords(command)
            guard arguments.first == "entityidx", arguments.count > 1, !["pipe", "mcp", "serve"].contains(arguments[1])
            else {
                continue
            }
            let files = arguments.filter { $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") }
            guard files.allSatisfy({ FileManager.default.fileExists(atPath: TestSupport.repository + "/" + $0) }) else {
                continue
            }
            let r = try Binary.run(
                ["--db", db, "--now", "2026-11-29T12:00:00Z"]
                    + arguments.dropFirst().map { arg in
                        files.contains(arg) ? TestSupport.repository + "/" + arg : arg
                    })
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(!r.stdout.isEmpty, "\(command) printed nothing")
            ran += 1
        }
        #expect(ran >= 12)
    }

    /// The pipe exchange: every `<` line is the answer to the `>` lines, byte for byte.
    @Test func pipeExchangeIsTheBinarysOwn() throws {
        let lines = Self.block(after: "An exchange (`>` sent, `<` received):")
        let sent = lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        let expected = lines.filter { $0.hasPrefix("< ") }.map { String($0.dropFirst(2)) }
        #expect(sent.count >= 5 && sent.count == expected.count)
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let r = try Binary.run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "pipe"], input: sent.joined(separator: "\n") + "\n")
        let answered = r.stdout.split(separator: "\n").map(String.init)
        #expect(answered.count == expected.count)
        for (a, e) in zip(answered, expected) { #expect(a == e) }
    }

    /// The MCP exchange, on the pipe exchange's order: each `<` line is the answer to the `>` lines, byte for byte
    /// (scores included); a line shortened with `…` holds its pieces in order.
    @Test func mcpExchangeIsTheBinarysOwn() throws {
        let lines = Self.block(after: "A full exchange with the handshake")
        let sent = lines.filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
        let expected = lines.filter { $0.hasPrefix("< ") }.map { String($0.dropFirst(2)) }
        #expect(sent.count >= 5 && expected.count >= 4)
        let db = TestSupport.temporaryDirectory() + "/index.sqlite"
        let ingest = try Binary.run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "ingest", "-"],
            input: #"{"type":"order","id":1042,"title":"Order #1042-A","subtitle":"Café de Flore"}"#)
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let r = try Binary.run(
            ["--db", db, "--now", "2026-03-02T09:00:00Z", "mcp"], input: sent.joined(separator: "\n") + "\n")
        let answered = r.stdout.split(separator: "\n").map(String.init)
        #expect(answered.count == expected.count)
        for (a, e) in zip(answered, expected) {
            if e.contains("…") {
                var rest = Substring(a)
                for piece in e.split(separator: "…") where !piece.isEmpty {
                    guard let found = rest.range(of: piece) else {
                        Issue.record("\(piece.prefix(80)) is not in the answer \(a.prefix(200))")
                        break
                    }
                    rest = rest[found.upperBound...]
                }
            } else {
                #expect(a == e)
            }
        }
    }

    /// Splits a command line the way sh does for the README's examples: spaces, single and double quotes.
    static func shellWords(_ text: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
