import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Adjacency: inside the title tier's `words` and `prefix` steps, a query's words side by side in the title, in
/// their order, rank before the same words apart. On real names (Unicode's, Debian's packages); the exact-ranking
/// property test checks it against a brute-force ranking.
@Suite struct AdjacencyTests {
    static func explained(_ store: EntityStore, _ query: String, limit: Int = 50) throws -> [EntityResult] {
        try store.search(SearchRequest(query: query, limit: limit, explain: true))
    }

    /// Unicode's names of the APL symbols with a tilde, by code point: only U+2368 has "symbol tilde" side by side,
    /// and it is neither the newest nor the shortest.
    @Test func wordsSideBySideRankBeforeTheSameWordsApart() throws {
        let store = try TestSupport.store()
        let names = [
            ("2368", "APL FUNCTIONAL SYMBOL TILDE DIAERESIS"), ("236B", "APL FUNCTIONAL SYMBOL DEL TILDE"),
            ("236D", "APL FUNCTIONAL SYMBOL STILE TILDE"), ("2371", "APL FUNCTIONAL SYMBOL DOWN CARET TILDE"),
            ("2372", "APL FUNCTIONAL SYMBOL UP CARET TILDE"),
        ]
        _ = try store.ingest(names.map { TestSupport.record("char", $0.0, $0.1) })
        for query in ["symbol tilde", "symbol tilde ", "symbol til", "SYMBOL  Tilde "] {
            let results = try Self.explained(store, query)
            #expect(results.map(\.key.id).first == "2368", "\(query): \(results.map(\.key.id))")
            #expect(results.map { $0.explanation?["adjacent"] } == [true] + Array(repeating: false, count: 4))
        }
        // In the other order the words are side by side nowhere: the document rank decides, as before.
        let reversed = try Self.explained(store, "tilde symbol ")
        #expect(reversed.allSatisfy { $0.explanation?["adjacent"] == false })
        #expect(reversed.map(\.key.id) == ["236D", "236B", "2368", "2372", "2371"])
        // One word, or a compound (`mips64` is `mips 64`), has nothing to be adjacent to.
        for query in ["tilde", "symbol-tilde", "symbol tilde64"] {
            #expect(try Self.explained(store, query).allSatisfy { $0.explanation?["adjacent"] == nil }, "\(query)")
        }
    }

    /// On Debian's package sample: in every search of several words, each title match of the `words` and `prefix`
    /// steps says whether its words stand side by side (checked here on the title's tokens), and those that do come
    /// first in their step. `mixed`: the sample has titles of both kinds for the query (`librust-arrayvec+serde-dev`
    /// and `librust-wasm-bindgen+serde-serialize-dev` for `serde dev`).
    @Test(arguments: [
        ("serde dev", true), ("serde d", true), ("dev serde", false), ("lib dev", false), ("librust dev", false),
        ("lib dev m", false),
    ])
    func packagesOfEachStepListWordsSideBySideFirst(_ query: String, mixed: Bool) throws {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/debian-sample.ndjson") ?? ""
        _ = try store.ingest(text.split(separator: "\n").map { TestSupport.json(String($0)) })
        let words = TextAnalyzer.tokens(query).map(\.text)
        let typing = !query.hasSuffix(" ")
        let results = try Self.explained(store, query, limit: 200)
        var stepsSeen: [String: Bool] = [:]  // the step, and whether a result apart was seen in it
        var adjacentSeen = 0, apartSeen = 0
        for r in results {
            guard let e = r.explanation, e["attribute"] == 0,
                let exactness = e["exactness"]?.string, exactness == "words" || exactness == "prefix"
            else {
                #expect(r.explanation?["adjacent"] == nil, "\(query): \(r.key.id)")
                continue
            }
            let tokens = TextAnalyzer.tokens(r.record["title"]?.string ?? "").map(\.text)
            let adjacent =
                tokens.count >= words.count
                && (0...(tokens.count - words.count)).contains { s in
                    words.indices.allSatisfy { i in
                        tokens[s + i] == words[i]
                            || (typing && i == words.count - 1 && tokens[s + i].hasPrefix(words[i]))
                    }
                }
            #expect(e["adjacent"] == .bool(adjacent), "\(query): \(r.key.id)")
            let step = "\(e["typos"].map { "\($0)" } ?? "") \(exactness)"
            if adjacent {
                adjacentSeen += 1
                #expect(stepsSeen[step] != true, "\(query): \(r.key.id) side by side after words apart")
            } else {
                apartSeen += 1
                stepsSeen[step] = true
            }
        }
        #expect(apartSeen + adjacentSeen > 0, "\(query)")
        if mixed {
            #expect(adjacentSeen > 0 && apartSeen > 0, "\(query): \(adjacentSeen) side by side, \(apartSeen) apart")
        }
    }
}
