import EntityIndex
import JSON

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers shared by the test targets: temporary databases and the repository's files.
public enum TestSupport {
    /// The repository root, found from this file's path.
    public static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Sources/TestSupport/TestSupport.swift
        return parts.joined(separator: "/")
    }()

    /// A fresh directory under the system's temporary directory.
    public static func temporaryDirectory() -> String {
        var template = Array("/tmp/entityidx-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            String(cString: mkdtemp(buffer.baseAddress!))
        }
    }

    /// A store on a fresh database file.
    public static func store(now: String = "2026-03-02T09:00:00Z") throws -> EntityStore {
        try EntityStore(path: temporaryDirectory() + "/index.sqlite", now: Timestamp.parse(now)!)
    }

    public static func read(_ path: String) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func write(_ path: String, _ text: String) {
        guard let file = fopen(path, "wb") else { return }
        var text = text
        text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    /// Parses JSON text, failing loudly on a bad fixture.
    public static func json(_ text: String) -> JSONValue {
        do { return try JSONParser().parse(text) } catch {
            fatalError("bad JSON fixture: \(error): \(text.prefix(200))")
        }
    }

    /// A record with a type, id and title, plus extra fields.
    public static func record(
        _ type: String = "task", _ id: String, _ title: String, _ extra: [(String, JSONValue)] = []
    ) -> JSONValue {
        .object(
            JSONObject(
                [("type", .string(type)), ("id", .string(id)), ("title", .string(title))]
                    + extra.map { (key: $0.0, value: $0.1) }))
    }

    /// SplitMix64: a seeded random generator, so that a failing random test can be replayed.
    public struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
