import JSON
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct JSONStreamReaderTests {
    func elements(_ text: String, max: Int = 1 << 20) throws -> (JSONStreamReader.Format?, [String]) {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        var bytes = Array(text.utf8)
        _ = write(fds[1], &bytes, bytes.count)
        close(fds[1])
        defer { close(fds[0]) }
        let reader = JSONStreamReader(fd: fds[0], maxElementBytes: max)
        var out: [String] = []
        while let e = try reader.next() { out.append(String(decoding: e.bytes, as: UTF8.self).trimmingSpaces) }
        return (reader.format, out)
    }

    @Test func splitsAnArray() throws {
        let (format, items) = try elements(#" [ {"a": "x,]"}, [1, {"b": 2}] ,3 ] "#)
        #expect(format == .array)
        #expect(items == [#"{"a": "x,]"}"#, #"[1, {"b": 2}]"#, "3"])
    }

    @Test func splitsNDJSONAndSkipsBlankLines() throws {
        let (format, items) = try elements("{\"a\":1}\n\n{\"b\":\"\\n\"}\r\n")
        #expect(format == .ndjson)
        #expect(items == [#"{"a":1}"#, #"{"b":"\n"}"#])
    }

    @Test func reportsAnUnclosedArray() {
        #expect(throws: JSONStreamReader.Failure.self) { try elements(#"[{"a":1}, {"b":2}"#) }
    }

    @Test func boundsElementSize() {
        #expect(throws: JSONStreamReader.Failure.self) {
            try elements("[\"" + String(repeating: "x", count: 5000) + "\"]", max: 1000)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
