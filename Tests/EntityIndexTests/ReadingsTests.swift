import Foundation
import JSON
import SQLite
import TestSupport
import Testing

@testable import EntityIndex

/// The readings of Japanese words in a transliterated type (`Readings`): text in kanji is also found by its reading
/// in kana and in Latin letters, marked and explained, ranked after the text as written; tested on words and names
/// no one here wrote (Debian's iso-codes and SKK dictionary, `scripts/name-fixtures.py`).
@Suite struct ReadingsTests {
    static func ids(_ store: EntityStore, _ query: String, type: String? = nil, limit: Int = 10) throws -> [String] {
        try store.search(SearchRequest(query: query, type: type, limit: limit)).map(\.key.id)
    }

    @Test func theDictionaryIsInstalled() {
        // `make deps` installs Debian's mecab-ipadic-utf8; without it readings are left out, and these tests say so.
        #expect(Readings.isAvailable, "no UTF-8 MeCab dictionary: apt-get install mecab-ipadic-utf8")
        #expect(Readings.dictionary?.hasPrefix("UTF-8") == true)
    }

    @Test(arguments: [
        ("トーキョー", "tokyo"), ("トウキョウ", "toukyou"), ("マッチャ", "matcha"), ("シンジュク", "shinjuku"),
        ("ジュース", "jusu"), ("チョコレート", "chokoreto"), ("ティー", "ti"), ("フォーク", "foku"),
        ("ヴァイオリン", "vaiorin"), ("ウィスキー", "wisuki"), ("キョウト", "kyouto"), ("ニッポン", "nippon"),
        ("ほうじちゃ", "houjicha"), ("シャシン", "shashin"), ("ヂャ", "ja"), ("ザッシ", "zasshi"), ("ッ", ""),
        ("ラーメン", "ramen"), ("ディズニー", "dizuni"), ("ABC", ""),
    ])
    func kanaIsSpelledInHepburn(_ kana: String, _ latin: String) {
        #expect(Romaji.latin(kana) == latin)
    }

    @Test func aWordInKanjiIsFoundByItsReadingInKanaAndInLatinLetters() throws {
        let store = try TestSupport.store()
        try store.declare(type: "menu", [], transliteration: .latin)
        _ = try store.ingest([
            TestSupport.record("menu", "m1", "抹茶ラテ"),
            TestSupport.record("menu", "m2", "マッチャ・フラペチーノ"),
            TestSupport.record("menu", "m3", "ほうじ茶"),
            TestSupport.record("shop", "s1", "抹茶専門店"),
        ])
        // The word as written comes first; a type without the setting is found by its text as written only.
        #expect(try Self.ids(store, "まっちゃ") == ["m2", "m1"])
        #expect(try Self.ids(store, "マッチャ ") == ["m2", "m1"])
        #expect(Set(try Self.ids(store, "matcha")) == ["m1", "m2"])
        #expect(try Self.ids(store, "ほうじちゃ") == ["m3"])
        #expect(try Self.ids(store, "hojicha") == ["m3"])
        #expect(try Self.ids(store, "houjicha") == ["m3"])
        // While typing, part of a reading is enough.
        #expect(try Self.ids(store, "まっち") == ["m2", "m1"])
        #expect(try Self.ids(store, "matc").contains("m1"))
        #expect(Set(try Self.ids(store, "抹茶")) == ["m1", "s1"])
        #expect(try Self.ids(store, "matcha", type: "shop") == [])
        // The morphemes are marked, and the result says it matched by a reading.
        let results = try store.search(SearchRequest(query: "まっちゃ", limit: 10, highlight: true))
        let byID = Dictionary(uniqueKeysWithValues: results.map { ($0.key.id, $0) })
        #expect(byID["m1"]?.highlights?.map(\.text) == ["抹茶"])
        #expect(byID["m1"]?.matchedBy == ["reading"])
        #expect(byID["m2"]?.highlights?.map(\.text) == ["マッチャ"])
        #expect(byID["m2"]?.matchedBy == nil)
        let latin = try store.search(SearchRequest(query: "furapechino", limit: 10, highlight: true))
        #expect(latin.map(\.key.id) == ["m2"])
        #expect(latin.first?.highlights?.map(\.text) == ["フラペチーノ"])
        #expect(latin.first?.matchedBy == ["reading"])
        #expect(try StemmingTests.integrityHolds(store))
    }

    /// Japan's 47 prefectures titled in Japanese (iso-codes' translation: 東京, 北海道, 鹿児島…), each found first by
    /// its ISO 3166-2 name in Latin letters (Tokyo, Hokkaido, Kagoshima), which no record holds.
    @Test func everyPrefectureIsFoundByItsNameInLatinLetters() throws {
        let store = try TestSupport.store()
        try store.declare(type: "prefecture", [], transliteration: .latin)
        let lines = (TestSupport.read(TestSupport.repository + "/Tests/Fixtures/japanese-prefectures.ndjson") ?? "")
            .split(separator: "\n")
        var latinNames: [String: String] = [:]
        let records = lines.map { line -> JSONValue in
            let record = TestSupport.json(String(line))
            let id = record["id"]?.string ?? ""
            latinNames[id] = record["properties"]?["latin"]?.string
            return TestSupport.json(
                #"{"type": "prefecture", "id": "\#(id)", "title": "\#(record["title"]?.string ?? "")"}"#)
        }
        #expect(records.count == 47)
        _ = try store.ingest(records)
        var missed: [String] = []
        for (id, name) in latinNames.sorted(by: { $0.key < $1.key }) {
            let found = try Self.ids(store, name.lowercased() + " ", limit: 3)
            if found.first != id { missed.append("\(name): \(found)") }
        }
        #expect(missed.isEmpty, "\(missed)")
        #expect(try Self.ids(store, "とうきょう") == ["JP-13"])
    }

    /// Words of SKK's large dictionary (every 260th entry of two to four kanji), each searched by the reading the
    /// dictionary gives it in hiragana. The dictionary holds rare words and words with several readings, of which
    /// MeCab's reads one: 305 of the 384 are found (79 %); the test holds the rate at three in four.
    @Test func dictionaryWordsAreFoundByTheirReadings() throws {
        let store = try TestSupport.store()
        try store.declare(type: "word", [], transliteration: .latin)
        let pairs = (TestSupport.read(TestSupport.repository + "/Tests/Fixtures/japanese-words.tsv") ?? "")
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        _ = try store.ingest(pairs.enumerated().map { TestSupport.record("word", "w\($0.offset)", $0.element[1]) })
        var found = 0
        for (i, pair) in pairs.enumerated() where try Self.ids(store, pair[0] + " ").contains("w\(i)") {
            found += 1
        }
        #expect(pairs.count == 384)
        #expect(found * 4 >= pairs.count * 3, "\(found) of \(pairs.count)")
        #expect(try StemmingTests.integrityHolds(store))
    }

    /// Readings follow a record through updates and deletes, and the setting's change: the index stays equal to one
    /// rebuilt from the records.
    @Test func readingsStayExactThroughChanges() throws {
        let store = try TestSupport.store()
        try store.declare(type: "contact", [], transliteration: .latin)
        _ = try store.ingest([TestSupport.record("contact", "c1", "田中太郎"), TestSupport.record("contact", "c2", "山田花子")])
        #expect(try Self.ids(store, "tanaka") == ["c1"])
        _ = try store.ingest([TestSupport.record("contact", "c1", "佐藤太郎")])
        #expect(try Self.ids(store, "tanaka") == [])
        #expect(try Self.ids(store, "sato taro") == ["c1"])
        #expect(try StemmingTests.integrityHolds(store))
        try store.declare(type: "contact", [], transliteration: Transliteration.none)
        #expect(try Self.ids(store, "yamada") == [])
        #expect(try Self.ids(store, "山田") == ["c2"])
        #expect(try StemmingTests.integrityHolds(store))
    }

    /// Schema 23 marks the search text of a database with a transliterated type stale, so that its records written
    /// before readings existed are indexed again at the next write; a database without one keeps its index.
    @Test(arguments: [true, false])
    func anOlderDatabaseWithATransliteratedTypeIsIndexedAgain(_ transliterated: Bool) throws {
        let path = TestSupport.temporaryDirectory() + "/old.sqlite"
        do {
            let store = try EntityStore(path: path, now: 0)
            if transliterated { try store.declare(type: "contact", [], transliteration: .latin) }
            _ = try store.ingest([TestSupport.record("contact", "c1", "田中太郎")])
        }
        // The migration from schema 22, run again on it.
        let migration = try #require(Schema.migrations.first { $0.version == 23 })
        do {
            let db = try Connection(path: path)
            try db.execute(migration.sql)
        }
        let store = try EntityStore(path: path, now: 0)
        #expect(try store.staleIndexes().map(\.name) == (transliterated ? ["search_text"] : []))
        _ = try store.ingest([TestSupport.record("contact", "c2", "山田花子")])
        #expect(try store.staleIndexes().isEmpty)
        #expect(try Self.ids(store, "tanaka") == (transliterated ? ["c1"] : []))
        #expect(try StemmingTests.integrityHolds(store))
    }
}
