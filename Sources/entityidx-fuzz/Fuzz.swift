// libFuzzer targets: record decoding and validation, the text pipeline, the query builder with search, the Core
// Spotlight query parser with its SQL, the JSON-RPC framing (lines and LSP headers, mixed) and the HTTP/1.1 request
// parser of `serve`. Built by `make fuzz` with -sanitize=fuzzer and -DFUZZING; FUZZ_TARGET (records, text, queries,
// spotlight, framing, http) picks one.
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
            [
                "type": "item.sub", "id": "3", "title": "MyWindowClass", "domain": "a.b",
                "lastUsedAt": "2026-05-01T00:00:00Z",
                "properties": ["n": 4, "tags": ["x", "Y"], "when": "2026-04-01T00:00:00Z"],
            ],
        ])
        return s
    }()

    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
    ) -> Int32

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
        case "framing":
            fuzzFraming(bytes)
        case "http":
            fuzzHTTP(bytes)
        case "text":
            let text = String(decoding: bytes, as: UTF8.self)
            let tokens = TextAnalyzer.tokens(text)
            for t in tokens where t.start < 0 || t.end > text.utf8.count || t.start > t.end {
                fatalError("bad token span")
            }
            _ = TextAnalyzer.indexTerms(text)
        case "spotlight":
            // Any text either parses or is an invalid query naming a character inside it (or just past its end); a
            // query that parses runs as bound SQL without a storage error.
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = try SpotlightParser.parse(text)
            } catch {
                if error.position < 1 || error.position > text.unicodeScalars.count + 1 {
                    fatalError("bad position \(error) in \(text.debugDescription)")
                }
                return 0
            }
            do {
                _ = try store?.spotlight(SpotlightRequest(query: text, limit: 5))
            } catch {
                fatalError("spotlight failed on \(text.debugDescription): \(error)")
            }
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
