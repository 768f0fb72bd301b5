import EntityIndex
import JSON
import TestSupport
import Testing

/// The public relevance cases (`search-cases.jsonl`, and `ranking-cases.jsonl`: more matches than any window of
/// candidates, where an older entity must win on a tier), each on a fresh index.
///
/// Read from the shared acceptance folder beside the repository when present (it may have newer cases), else from
/// the copy in Tests/Fixtures.
@Suite struct AcceptanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let json: JSONValue
        var testDescription: String { name }
    }

    static func load(_ file: String) -> [Case] {
        let shared = TestSupport.repository + "/../shared/acceptance/" + file
        let text =
            TestSupport.read(shared) ?? TestSupport.read(TestSupport.repository + "/Tests/Fixtures/" + file) ?? ""
        return text.split(separator: "\n").filter { !$0.isEmpty }.map { line in
            let json = TestSupport.json(String(line))
            return Case(name: json["name"]?.string ?? "?", json: json)
        }
    }

    static let searchCases = load("search-cases.jsonl")
    static let rankingCases = load("ranking-cases.jsonl")
    static let cases = searchCases + rankingCases

    @Test func thereAreCases() {
        #expect(Self.searchCases.count >= 50)
        #expect(Self.rankingCases.count >= 5)
    }

    @Test(arguments: cases)
    func acceptance(_ c: Case) throws {
        let store = try TestSupport.store()
        _ = try store.ingest(c.json["records"]?.array ?? [])
        let request = SearchRequest(query: c.json["query"]?.string ?? "", type: c.json["type"]?.string, limit: 50)
        let results: [String]
        do {
            results = try store.search(request).map { "\($0.key.type)/\($0.key.id)" }
        } catch {
            Issue.record("search failed: \(error)")
            return
        }
        let expect = c.json["expect"]?.object ?? JSONObject()
        for hit in expect["hit"]?.array ?? [] {
            #expect(results.contains(hit.string!), "expected \(hit.string!) among \(results)")
        }
        for miss in expect["miss"]?.array ?? [] {
            #expect(!results.contains(miss.string!), "expected \(miss.string!) not among \(results)")
        }
        if let first = expect["first"]?.string {
            #expect(results.first == first, "expected \(first) first in \(results)")
        }
        if let order = expect["order"]?.array?.compactMap(\.string) {
            let positions = order.compactMap { results.firstIndex(of: $0) }
            #expect(
                positions.count == order.count && positions == positions.sorted(),
                "expected order \(order) in \(results)")
        }
    }
}
