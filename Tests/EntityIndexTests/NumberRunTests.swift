import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// A text of numbers costs index terms linear in its length: the joined forms of a run of digit groups stop at what
/// one phone number can hold (`PhoneNumbers.maxJoinedDigits`), however long the run. Joining every suffix of the
/// run made a record of 8,000 numbers separated by spaces hundreds of megabytes of index, and one of 20,000 phone
/// numbers more memory than the machine had.
@Suite struct NumberRunTests {
    /// `count` numbers written as lists of them are: years and model numbers (`1000 1001 …`), or phone numbers, international (`+1 415 555 0100`)
    /// and national (`06 12 34 56 78`) in turn, separated by `separator`.
    static func numbers(_ count: Int, phones: Bool, separator: String = " ") -> String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return (0..<count).map { i in
            guard phones else { return String(1_000 + i % 9_000) }
            return i % 2 == 0
                ? "+1 415 555 \(pad(i % 10_000, 4))" : "06 12 \(pad(i / 100 % 100, 2)) \(pad(i % 100, 2)) 78"
        }.joined(separator: separator)
    }

    /// The terms, their bytes and the codes that `text` yields.
    static func cost(_ text: String) -> (terms: Int, bytes: Int, codes: Int) {
        var codes: [String] = []
        let terms = TextAnalyzer.indexTerms(text, codes: &codes)
        return (terms.count, terms.reduce(0) { $0 + $1.utf8.count }, codes.count)
    }

    @Test(
        "twice the numbers yield about twice the terms, bytes and codes, a few per number",
        arguments: [(4_000, false, " "), (1_000, true, " "), (4_000, true, " "), (1_000, true, ", ")])
    func termsGrowLinearly(_ count: Int, _ phones: Bool, _ separator: String) {
        let text = Self.numbers(count, phones: phones, separator: separator)
        let once = Self.cost(text)
        let twice = Self.cost(Self.numbers(2 * count, phones: phones, separator: separator))
        #expect(once.terms <= 8 * count && once.bytes <= 4 * text.utf8.count, "\(once) for \(text.utf8.count) bytes")
        for (a, b) in [(once.terms, twice.terms), (once.bytes, twice.bytes), (once.codes, twice.codes)] {
            #expect(b >= 2 * a - a / 20 && b <= 2 * a + a / 20, "\(once) then \(twice)")
        }
    }

    @Test func theNumbersOfALongRunAreIndexedAsTheirGroups() {
        let text = (1...8_000).map(String.init).joined(separator: " ")
        let terms = TextAnalyzer.indexTerms(text)
        #expect(terms.count <= 8_000 + 16)
        #expect(terms.prefix(8_000) == text.split(separator: " ").map(String.init)[...])
        #expect(terms.dropFirst(8_000).allSatisfy { $0.utf8.count <= PhoneNumbers.maxJoinedDigits })
        #expect(terms.last == "7997799879998000", "the end of the run, longest last, no more than 17 digits")
    }

    @Test(
        "a run of groups is joined while it could be one phone number",
        arguments: [
            (
                "030 1234 5678 9012 34",
                "030 1234 5678 9012 34 901234 5678901234 12345678901234 03012345678901234"
            ),  // 17 digits: every joined form
            ("0030 1234 5678 9012 34", "0030 1234 5678 9012 34 901234 5678901234 12345678901234"),  // 18
            ("(030) 1234-567", "030 1234 567 1234567 0301234567"),
            ("2019 2020 2021 2022 2023", "2019 2020 2021 2022 2023 20222023 202120222023 2020202120222023"),
        ])
    func joinedWhileItCouldBeOnePhoneNumber(_ text: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(text) == expected)
        var codes: [String] = []
        _ = TextAnalyzer.indexTerms(text, codes: &codes)
        #expect(codes.allSatisfy { $0.utf8.count <= PhoneNumbers.maxJoinedDigits })
    }

    @Test(
        "a plus after a separator starts the next number",
        arguments: [
            (
                "+49 30 1234567 +49 30 7654321",
                "49 30 1234567 301234567 49301234567 030 0301234567 49 30 7654321 307654321 49307654321 030 0307654321"
            ),
            (
                "tel. +1 415 555 0100/+1 415 555 0199",
                "tel 1 415 555 0100 5550100 4155550100 14155550100 1 415 555 0199 5550199 4155550199 14155550199"
            ),
            ("1.9+20221223184417-1", "1 9 19 20221223184417 1 202212231844171 19202212231844171"),  // a version
        ])
    func aPlusAfterASeparatorStartsTheNextNumber(_ text: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(text) == expected)
    }

    @Test func recordsOfPhoneNumbersAreFoundByThem() throws {
        let store = try TestSupport.store()
        let international = (0..<2_000).map { "+49 30 \(1_234_000 + $0)" }.joined(separator: " ")
        _ = try store.ingest([
            TestSupport.record(
                "note", "list", "Switchboard", [("description", .string(Self.numbers(4_000, phones: true)))]),
            TestSupport.record("note", "international", "Berlin", [("properties", ["phones": .string(international)])]),
            TestSupport.record("contact", "other", "Bob", [("subtitle", "+33 1 23 45 67 89")]),
        ])
        func ids(_ query: String) throws -> [String] {
            try store.search(SearchRequest(query: query, limit: 10)).map(\.key.id)
        }
        // A number in the middle typed as written or in groups; a national number that ends a run (the one after an
        // international number, the last one) typed joined.
        for query in [
            "+1 415 555 2000", "415 555 2000", "06 12 20 01 78", "+1 415 555 2000 ", "0612200178", "0612399978",
        ] {
            #expect(try ids(query) == ["list"], "\(query)")
        }
        // Each number of a list of international ones, in every form.
        for query in ["+49 30 1235000", "+49301235000", "(030) 1235000", "0301235000", "301235000", "49301235000"] {
            #expect(try ids(query) == ["international"], "\(query)")
        }
        #expect(try ids("+33 1 23 45 67 89") == ["other"])
        #expect(try ids("0123456789") == ["other"])
    }
}
