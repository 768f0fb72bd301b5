import JSON
import TestSupport
import Testing

@testable import EntityIndex

/// Opt-in transliteration (`declare --transliterate latin`): a transliterated type's words in Cyrillic, Greek, Arabic
/// and Hebrew also match by their Latin letters, ranked after the words as written; other types' text does not, and
/// the index stays exact through updates, deletes and a change of the setting.
@Suite struct TransliterationTests {
    static func ids(_ store: EntityStore, _ query: String, type: String? = nil, limit: Int = 50) throws -> [String] {
        try store.search(SearchRequest(query: query, type: type, limit: limit)).map(\.key.id)
    }

    /// Country names in Russian, Greek, Arabic and Hebrew (Debian's iso-codes, `scripts/name-fixtures.py`), one
    /// entity of type `country` each, with ids `ru-DE`, `el-DE`, `ar-DE`, `he-DE`…
    static func countries() throws -> EntityStore {
        let store = try TestSupport.store()
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/iso-country-names.ndjson") ?? ""
        _ = try store.ingest(text.split(separator: "\n").map { TestSupport.json(String($0)) })
        return store
    }

    @Test func namesInOtherScriptsMatchByTheirLatinLettersInATransliteratedTypeOnly() throws {
        let store = try TestSupport.store()
        try store.declare(type: "person", [], transliteration: .latin)
        _ = try store.ingest([
            TestSupport.record("person", "p1", "Смирнов Иван"),
            TestSupport.record("person", "p2", "Αλέξανδρος Παπαδόπουλος"),
            TestSupport.record("person", "p3", "Ivan Smirnov"),
            TestSupport.record("contact", "c1", "Смирнов"),
        ])
        #expect(try Self.ids(store, "smirnov") == ["p3", "p1"])
        #expect(try Self.ids(store, "alexandros") == ["p2"])
        #expect(try Self.ids(store, "alexandros papadopoulos ") == ["p2"])
        // While typing, the last word is a prefix of the Latin form too.
        #expect(try Self.ids(store, "alexan") == ["p2"])
        // The words as written still match, in every type.
        #expect(Set(try Self.ids(store, "смирнов")) == ["p1", "c1"])
        // A type without the setting is found by its words as written only.
        #expect(try Self.ids(store, "smirnov", type: "contact") == [])
        // The native word is highlighted, and the result says how it matched.
        let results = try store.search(SearchRequest(query: "smirnov ivan", limit: 10, highlight: true))
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.key.id, $0) })
        #expect(byID["p1"]?.highlights?.map(\.text) == ["Смирнов", "Иван"])
        #expect(byID["p1"]?.matchedBy == ["transliteration"])
        #expect(byID["p3"]?.highlights?.map(\.text) == ["Ivan", "Smirnov"])
        #expect(byID["p3"]?.matchedBy == nil)
        #expect(try StemmingTests.integrityHolds(store))
    }

    /// Country names of Debian's iso-codes: found by the Latin spellings English text uses (BGN for Russian) and by
    /// ICU's own (ISO 9 for Russian), in Russian and Greek; a name written in Latin letters ranks first.
    @Test(arguments: [
        ("germaniya", ["ru-DE"]), ("germania", ["el-DE", "ru-DE"]), ("frantsiya ", ["ru-FR", "ru-MF"]),
        ("ispaniya", ["ru-ES"]),
        ("ispania", ["el-ES", "ru-ES"]), ("ellada", ["el-GR"]), ("avstriya", ["ru-AT"]), ("yaponiya", ["ru-JP"]),
        ("argentin", ["el-AR", "ru-AR"]), ("rossiyskaya federatsiya", ["ru-RU"]), ("izrail ", ["ru-IL"]),
        ("israel ", ["el-IL"]), ("msr ", ["ar-EG"]), ("mzrym", ["he-EG"]),
    ])
    func countryNamesAreFoundByTheirLatinForms(_ query: String, _ expected: [String]) throws {
        let store = try Self.countries()
        #expect(try Self.ids(store, query) == [])
        try store.declare(type: "country", [], transliteration: .latin)
        #expect(Set(try Self.ids(store, query)) == Set(expected))
        for matchedBy in try store.search(SearchRequest(query: query, limit: 50)).map(\.matchedBy) {
            #expect(matchedBy == ["transliteration"])
        }
        // The same name written in Latin letters ranks before every transliteration.
        _ = try store.ingest([TestSupport.record("country", "en", query)])
        #expect(try Self.ids(store, query).first == "en")
        #expect(try StemmingTests.integrityHolds(store))
    }

    @Test func updatesDeletesAndTheSettingKeepTheIndexExact() throws {
        let store = try Self.countries()
        try store.declare(type: "country", [], stemming: .english, transliteration: .latin)
        #expect(try Self.ids(store, "germaniya") == ["ru-DE"])
        // An update re-derives the old text with its Latin forms to delete it.
        _ = try store.ingest([TestSupport.record("country", "ru-DE", "Франция")])
        #expect(try Self.ids(store, "germaniya") == [])
        #expect(Set(try Self.ids(store, "frantsiya")) == ["ru-DE", "ru-FR", "ru-MF"])
        _ = try store.delete(DeleteRequest(type: "country", ids: ["ru-FR", "ru-MF"]))
        #expect(try Self.ids(store, "frantsiya") == ["ru-DE"])
        #expect(try StemmingTests.integrityHolds(store))
        // Declaring properties or stemming alone leaves the transliteration as it was.
        try store.declare(type: "country", [], stemming: Stemming.none)
        #expect(try Self.ids(store, "frantsiya") == ["ru-DE"])
        let declared = try #require(try store.allDeclarations().first { $0.type == "country" })
        #expect(declared.stemming == Stemming.none && declared.transliteration == .latin)
        // `none` turns it off and indexes the type again; with both settings off the type has no row left.
        try store.declare(type: "country", [], transliteration: Transliteration.none)
        #expect(try Self.ids(store, "frantsiya") == [])
        #expect(try store.allDeclarations().first { $0.type == "country" } == nil)
        #expect(try store.db.scalar("SELECT count(*) FROM type_setting")?.int == 0)
        #expect(try StemmingTests.integrityHolds(store))
        // On again.
        try store.declare(type: "country", [], transliteration: .latin)
        #expect(try Self.ids(store, "ellada") == ["el-GR"])
        #expect(try StemmingTests.integrityHolds(store))
    }

    @Test func latinFormsOfWords() {
        #expect(Transliteration.latinTerms("смирнов") == [Transliteration.marker + "smirnov"])
        #expect(Transliteration.latinTerms("германия").map { $0.dropFirst() } == ["germania", "germaniya"])
        #expect(Transliteration.latinTerms("αλεξανδροσ") == [Transliteration.marker + "alexandros"])
        // Latin, digits and CJK have no Latin form of their own.
        #expect(Transliteration.latinTerms("smirnov").isEmpty)
        #expect(Transliteration.latinTerms("1042").isEmpty)
        #expect(Transliteration.latinTerms("東").isEmpty)
        #expect(Transliteration.isAvailable)
    }
}
