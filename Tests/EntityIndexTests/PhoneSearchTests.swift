import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Phone numbers are found by their digits in any form: international with `+` and the calling code, national with
/// the trunk prefix, with or without separators. Contacts: libphonenumber's example numbers of twelve regions, each
/// written in its international, national and E.164 formats (Tests/Fixtures/contacts.ndjson, made by
/// scripts/phone-codes.py --contacts).
@Suite struct PhoneSearchTests {
    struct Contact {
        var id: String
        var phone: String
    }

    static func contacts() -> [JSONValue] {
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/contacts.ndjson") ?? ""
        return text.split(separator: "\n").map { TestSupport.json(String($0)) }
    }

    static func store() throws -> (EntityStore, [Contact]) {
        let store = try TestSupport.store()
        let records = contacts()
        #expect(records.count >= 60, "twelve regions, two numbers each, three formats")
        _ = try store.ingest(records)
        let list = records.compactMap { r -> Contact? in
            guard let id = r["id"]?.string, let phone = r["properties"]?["phone"]?.string else { return nil }
            return Contact(id: id, phone: phone)
        }
        return (store, list)
    }

    static func ids(_ store: EntityStore, _ query: String) throws -> Set<String> {
        Set(try store.search(SearchRequest(query: query, limit: 100)).map(\.key.id))
    }

    @Test func theInternationalFormFindsEveryForm() throws {
        let (store, contacts) = try Self.store()
        var regions = Set<String>()
        for c in contacts where c.id.hasSuffix("-international") {
            let number = String(c.id.dropLast("-international".count))
            let found = try Self.ids(store, c.phone)
            for form in ["international", "national", "e164"] {
                #expect(found.contains("\(number)-\(form)"), "\(c.phone) finds \(number)-\(form): \(found.sorted())")
            }
            regions.insert(String(number.prefix(2)))
        }
        #expect(regions.count >= 5)
    }

    @Test func theE164FormFindsEveryForm() throws {
        let (store, contacts) = try Self.store()
        for c in contacts where c.id.hasSuffix("-e164") {
            let number = String(c.id.dropLast("-e164".count))
            let found = try Self.ids(store, c.phone)
            for form in ["international", "national", "e164"] {
                #expect(found.contains("\(number)-\(form)"), "\(c.phone) finds \(number)-\(form): \(found.sorted())")
            }
        }
    }

    @Test func theNationalDigitsFindEveryForm() throws {
        let (store, contacts) = try Self.store()
        for c in contacts where c.id.hasSuffix("-national") {
            let number = String(c.id.dropLast("-national".count))
            let digits = String(c.phone.filter(\.isNumber))
            let found = try Self.ids(store, digits)
            for form in ["international", "national", "e164"] {
                #expect(found.contains("\(number)-\(form)"), "\(digits) finds \(number)-\(form): \(found.sorted())")
            }
        }
    }

    @Test(
        "the national form as typed finds the international one",
        arguments: [
            ("(030) 1234567", "+49 30 1234567"), ("030 1234567", "+49 30 1234567"), ("030-1234567", "+49-30-1234567"),
            ("0301234567", "+49 (0)30 1234567"), ("(415) 555-0100", "+1 415 555 0100"),
            ("020 7946 0958", "+44 20 7946 0958"), ("02079460958", "+44 20 7946 0958"),
            ("06 1234 5678", "+39 06 1234 5678"), ("03-1234-5678", "+81 3-1234-5678"),
        ])
    func nationalFindsInternational(_ typed: String, _ stored: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "a", "Ada", [("properties", ["phone": .string(stored)])]),
            TestSupport.record("contact", "other", "Bob", [("properties", ["phone": "+33 1 23 45 67 89"])]),
        ])
        #expect(try Self.ids(store, typed) == ["a"], "\(typed) finds \(stored)")
        #expect(try Self.ids(store, stored) == ["a"])
    }

    @Test(
        "the international form as typed finds the national one",
        arguments: [
            ("+49 30 1234567", "(030) 1234567"), ("+4930 1234567", "(030) 1234567"), ("+49301234567", "030/1234567"),
            ("+1 415 555 0100", "(415) 555-0100"), ("+1 (415) 555-0100", "415.555.0100"),
            ("+44 20 7946 0958", "020 7946 0958"), ("+44 20 79", "020 7946 0958"),
            ("+7 495 123-45-67", "8 495 1234567"),
            ("+39 06 1234 5678", "06 1234 5678"), ("+36 1 234 5678", "06 1 234 5678"),
        ])
    func internationalFindsNational(_ typed: String, _ stored: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "a", "Ada", [("subtitle", .string("mobile " + stored))]),
            TestSupport.record("contact", "other", "Bob", [("subtitle", "mobile 0049 30 7654321")]),
        ])
        #expect(try Self.ids(store, typed) == ["a"], "\(typed) finds \(stored)")
    }

    @Test func numbersThatAreNotPhoneNumbersKeepTheirTerms() {
        #expect(TextAnalyzer.indexText("+5 degrees") == "5 degrees", "too few digits")
        #expect(TextAnalyzer.indexText("version 1.2.3") == "version 1 2 3 123", "no plus")
        #expect(
            TextAnalyzer.indexText("+49 30 1234567") == "49 30 1234567 301234567 49301234567 030 0301234567",
            "the national form after the run's own terms")
        #expect(
            TextAnalyzer.indexText("+1 415 555 0100")
                == "1 415 555 0100 5550100 4155550100 14155550100", "no trunk prefix: the national form is a suffix")
    }
}

/// Typed digits equal to a number, or to its end from a group boundary, rank before numbers that merely start with
/// them, however many of those there are and however new.
@Suite struct PhoneRankingTests {
    @Test(arguments: [5, 400])
    func wholeNumbersFirst(newer: Int) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("contact", "ends", "Ada", [("properties", ["phone": "+49 30 1234567"])]),
            TestSupport.record("contact", "equal", "Bea", [("subtitle", "1234567")]),
        ])
        _ = try store.ingest(
            (0..<newer).map {
                TestSupport.record(
                    "contact", "starts\($0)", "Contact \($0)",
                    [("properties", ["phone": .string("030 12345678\($0 % 10)")])]
                )
            })
        let results = try store.search(SearchRequest(query: "1234567", limit: 5, explain: true))
        let ids = results.map(\.key.id)
        #expect(Set(ids.prefix(2)) == ["ends", "equal"], "\(ids)")
        #expect(results.first?.explanation?["exactness"] == "words")
        // The first k of every limit are the first k of the full ranking.
        let full = try store.search(SearchRequest(query: "1234567", limit: 1_000)).map(\.key.id)
        #expect(full.count == newer + 2)
        for limit in [1, 2, 3, 10] {
            #expect(
                try store.search(SearchRequest(query: "1234567", limit: limit)).map(\.key.id)
                    == Array(full.prefix(limit)))
        }
        let page = try store.searchPage(SearchRequest(query: "1234567", limit: 3))
        #expect(
            newer + 2 <= EntityStore.maxExactTotal
                ? page.total == newer + 2 && !page.totalIsLowerBound
                : page.totalIsLowerBound && page.total > EntityStore.maxExactTotal && page.total <= newer + 2)
        // A phone number typed in groups, and several words.
        #expect(try store.search(SearchRequest(query: "030 1234567", limit: 2)).first?.key.id == "ends")
        let typed = try store.search(SearchRequest(query: "contact 030 1234567", limit: 3)).map(\.key.id)
        #expect(typed.count == 3 && typed.allSatisfy { $0.hasPrefix("starts") })
    }
}
