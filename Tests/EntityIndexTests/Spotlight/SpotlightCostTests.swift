import Foundation
import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// `w` and `t` matching is linear in the value, and a query's comparisons share one budget of text (the small
/// versions of HostileSoakTests' Spotlight cases). Each counts the work done (the matcher's cost, the steps of a
/// search, the terms asked of the full-text index), which is the same on any machine; the times are
/// HostileSoakTests', at the sizes the cases were found at.
@Suite struct SpotlightCostTests {
    static func matcher(_ pattern: String, _ modifiers: SpotlightModifiers) -> SpotlightMatcher {
        SpotlightMatcher(SpotlightPattern([.literal(pattern)]), modifiers: modifiers)
    }

    /// `a a … b` (1,000 words) against 20,000 words `a`: a matcher that restarts at every word compares about 20
    /// million words (and takes seconds); this one reads each word once, with a step per 64 pattern words.
    @Test(arguments: [SpotlightModifiers.words, [.words, .caseInsensitive], .tokenized])
    func aLongPatternOfRepeatsIsLinear(_ modifiers: SpotlightModifiers) {
        let pattern = Array(repeating: "a", count: 999).joined(separator: " ") + " b"
        let value = Array(repeating: "a", count: 20_000).joined(separator: " ")
        let m = Self.matcher(pattern, modifiers)
        var cost = 0
        #expect(!m.matches(value, cost: &cost))
        #expect(cost < 20_000 * 20 + value.utf8.count, "cost \(cost)")
        #expect(m.matches(value + " b", cost: &cost))
    }

    /// Wildcard words (`a*`) repeated through the pattern are tried once per value word, not once per pattern word.
    @Test func repeatedWildcardWordsAreTriedOnce() {
        let pattern = SpotlightPattern(
            Array(repeating: [SpotlightPattern.Part.literal(" a"), .wildcard], count: 500).joined() + [.literal(" b")])
        let m = SpotlightMatcher(pattern, modifiers: .words)
        let value = Array(repeating: "ab", count: 10_000).joined(separator: " ")
        var cost = 0
        #expect(!m.matches(value, cost: &cost))
        #expect(cost < 10_000 * 30 + value.utf8.count, "cost \(cost)")
        #expect(m.matches(value + " b", cost: &cost))
    }

    /// A literal with many repeats inside a value with many repeats (`*aaa…ab*`) is found in linear time: under
    /// twice the bytes of both (a search that starts again at each byte makes a billion steps).
    @Test func anInfixOfRepeatsIsLinear() {
        let needle = Array(repeating: UInt8(ascii: "a"), count: 5_000) + [UInt8(ascii: "b")]
        let text = Array(repeating: UInt8(ascii: "a"), count: 200_000)
        var steps = 0
        #expect(SpotlightMatcher.find(needle, in: text, from: 0, to: text.count, steps: &steps) == nil)
        #expect(steps <= 2 * (needle.count + text.count), "\(steps) steps")
        steps = 0
        let found = SpotlightMatcher.find(
            needle, in: text + needle, from: 0, to: text.count + needle.count, steps: &steps)
        #expect(found == 200_000)
        #expect(steps <= 2 * (2 * needle.count + text.count), "\(steps) steps")
    }

    /// A `t` pattern of 8,000 words against a description of 40,000: the full-text narrowing asks for a few of the
    /// pattern's terms, not every one, each with its positions in the long value; the comparison takes a step per
    /// word of the value and 64 words of the pattern (a matcher that starts again at each word makes 320 million).
    @Test func aLongTokenPatternAgainstALongDescription() throws {
        let store = try TestSupport.store()
        let description = (0..<40_000).map { "w\($0 % 10)" }.joined(separator: " ")
        _ = try store.ingest([TestSupport.record("doc", "big", "Big", [("description", .string(description))])])
        let pattern = (0..<8_000).map { "w\($0 % 10)" }.joined(separator: " ")
        let narrowing = SpotlightTranslator.fullTextNarrowing(SpotlightPattern([.literal(pattern)]))
        let terms = narrowing?.split(separator: " ").count ?? 0
        #expect(terms > 0 && terms <= SpotlightTranslator.narrowingTerms, "\(narrowing ?? "no narrowing")")
        let ids = try store.spotlight(SpotlightRequest(query: "textContent == \"\(pattern)\"t")).map(\.key.id)
        #expect(ids == ["big"])
        let linear = 40_000 * (8_000 / 64 + 2) + (1 << 20)
        #expect(store.spotlightBudget.spent < linear, "\(store.spotlightBudget.spent) compared")
        #expect(try store.spotlight(SpotlightRequest(query: "textContent == \"\(pattern) nope\"t")).isEmpty)
    }

    static func corpus(_ count: Int) throws -> EntityStore {
        let store = try TestSupport.store()
        let records = (0..<count).map { i in
            TestSupport.record(
                "item", "\(i)", "Item \(i)",
                [("description", .string(String(repeating: "words about the item ", count: 50) + "n\(i)"))])
        }
        _ = try store.ingest(records)
        return store
    }

    /// Each comparison that reads every description is within the budget alone; OR'd, they exhaust it, and the
    /// error says what to change. The budget, not the number of comparisons, bounds what the query reads.
    @Test func orredScansShareOneBudget() throws {
        let store = try Self.corpus(200)  // about 1 KB each: 200 KB a scan
        store.operation.maxSpotlightScanBytes = 1 << 20
        #expect(try store.spotlight(SpotlightRequest(query: #"textContent == "*N17"cd"#)).map(\.key.id) == ["17"])
        #expect(try store.spotlight(SpotlightRequest(query: #"textContent == "n17"w"#)).map(\.key.id) == ["17"])
        for count in [8, 100, 512] {
            let query = (0..<count).map { #"textContent == "*x\#($0)*"cd"# }.joined(separator: " || ")
            let error = try #require(throws: EntityIndexError.self) {
                try store.spotlight(SpotlightRequest(query: query))
            }
            #expect(error.code == .resourceExhausted)
            #expect(error.message.contains("1 MiB") && error.message.contains("narrow it"))
            #expect(store.spotlightBudget.spent <= (1 << 20) + 2_000, "\(count) comparisons")
        }
        // The next query starts with a budget of its own.
        #expect(try store.spotlight(SpotlightRequest(query: #"textContent == "n3"w"#)).map(\.key.id) == ["3"])
        // With the default budget, the eight comparisons are answered.
        store.operation.maxSpotlightScanBytes = EntityStore.defaultMaxSpotlightScanBytes
        let eight = (0..<8).map { #"textContent == "*n\#($0)"cd"# }.joined(separator: " || ")
        #expect(try store.spotlight(SpotlightRequest(query: eight)).count == 8)
    }
}
