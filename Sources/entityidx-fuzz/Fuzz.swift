// libFuzzer targets: record decoding and validation, the text pipeline, and the query builder with search.
// Built by `make fuzz` with -sanitize=fuzzer and -DFUZZING; FUZZ_TARGET (records, text, queries) picks one.
// Without FUZZING this builds a stub that says how to run it, so that `swift build` works everywhere.
import EntityIndex
import JSON

#if FUZZING
#if canImport(Glibc)
import Glibc
#endif

let target = getenv("FUZZ_TARGET").map { String(cString: $0) } ?? "records"
nonisolated(unsafe) var store: EntityStore? = {
    let s = try? EntityStore(path: ":memory:", now: 1_780_000_000_000)
    _ = try? s?.ingest([
        ["type": "item", "id": "1", "title": "Café de Flore", "keywords": ["东京塔", "#1042-A"]],
        ["type": "item", "id": "2", "title": "Straße 5 widgets", "subtitle": "서울특별시청 ภาษาไทย"],
    ])
    return s
}()

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

/// The package manager links an executable's entry point under this name; hand over to libFuzzer's driver.
@_cdecl("entityidx_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, { data, size in fuzz(data, size) })
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case "text":
        let text = String(decoding: bytes, as: UTF8.self)
        let tokens = TextAnalyzer.tokens(text)
        for t in tokens where t.start < 0 || t.end > text.utf8.count || t.start > t.end { fatalError("bad token span") }
        _ = TextAnalyzer.indexTerms(text)
    case "queries":
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            _ = try store?.search(SearchRequest(query: text, explain: true, highlight: true))
        } catch {
            fatalError("search failed on \(text.debugDescription): \(error)")
        }
    default:
        guard let value = try? JSONParser(maxDepth: 64).parse(bytes) else { return 0 }
        if case .success(let record) = RecordValidator.validate(value, position: 1) {
            // What validates must ingest and come back unchanged.
            let ingestion = try! store!.beginIngest()
            try? ingestion.add(value)
            ingestion.rollback()
            _ = JSONWriter.string(.object(record.json))
        }
    }
    return 0
}
#else
@main struct FuzzStub {
    static func main() { print("entityidx-fuzz: build with `make fuzz` (libFuzzer, -sanitize=fuzzer -DFUZZING)") }
}
#endif
