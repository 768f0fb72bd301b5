import TestSupport
import Testing

@testable import EntityIndex

/// Documents and queries give the same tokens whatever Unicode form they arrive in: the forms of
/// NormalizationTest.txt and the <wide>/<narrow> decompositions of UnicodeData.txt, for Latin, Greek, Cyrillic, kana,
/// Hangul and Han (Tests/Fixtures/normalization-forms.tsv, made by scripts/normalization-fixture.py).
@Suite struct NormalizationFormTests {
    /// Per script, words of three consecutive fixture lines, each word in every form of its lines.
    static let words: [(script: String, forms: [String])] = {
        let text = TestSupport.read(TestSupport.repository + "/Tests/Fixtures/normalization-forms.tsv") ?? ""
        var lines: [String: [[String]]] = [:]
        var order: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let forms = fields.dropFirst().map { field in
                String(
                    String.UnicodeScalarView(
                        field.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }))
            }
            if lines[fields[0]] == nil { order.append(fields[0]) }
            lines[fields[0], default: []].append(forms)
        }
        var words: [(String, [String])] = []
        for script in order {
            let rows = lines[script]!
            for start in stride(from: 0, to: rows.count, by: 3) {
                let group = rows[start..<min(start + 3, rows.count)]
                let count = group.map(\.count).min()!
                words.append((script, (0..<count).map { k in group.map { $0[k] }.joined() }))
            }
        }
        return words
    }()

    @Test func theFixtureCoversEveryScript() {
        let scripts = Set(Self.words.map(\.script))
        #expect(scripts == ["latin", "greek", "cyrillic", "kana", "hangul", "han"])
        #expect(Self.words.count > 100)
    }

    @Test("every form of a word is indexed alike", arguments: ["latin", "greek", "cyrillic", "kana", "hangul", "han"])
    func documents(_ script: String) {
        for word in Self.words where word.script == script {
            let expected = TextAnalyzer.indexText(word.forms[0])
            for form in word.forms.dropFirst() {
                #expect(
                    TextAnalyzer.indexText(form) == expected,
                    "\(word.forms[0].unicodeScalars.map { String($0.value, radix: 16) }) vs \(form.unicodeScalars.map { String($0.value, radix: 16) })"
                )
            }
        }
    }

    @Test("every form of a word is searched alike", arguments: ["latin", "greek", "cyrillic", "kana", "hangul", "han"])
    func queries(_ script: String) {
        for word in Self.words where word.script == script {
            let expected = SearchQuery(word.forms[0]).terms.map { $0.expression() }
            for form in word.forms.dropFirst() {
                #expect(SearchQuery(form).terms.map { $0.expression() } == expected)
            }
        }
    }

    @Test(
        "a word typed in one form finds it stored in another",
        arguments: [
            ("ﾎﾞﾂﾜﾅ", "ボツワナ"), ("ボツワナ", "ﾎﾞﾂﾜﾅ"),
            (
                "\u{1109}\u{1169}\u{11AF}\u{1105}\u{1169}\u{1106}\u{1169}\u{11AB} \u{110C}\u{1166}\u{1103}\u{1169}",
                "솔로몬 제도"
            ),
            ("솔로몬 제도", "\u{1109}\u{1169}\u{11AF}\u{1105}\u{1169}\u{1106}\u{1169}\u{11AB}"),
            ("e\u{301}cole normale", "école"), ("école normale", "e\u{301}cole"),
            ("\u{3B5}\u{3BB}\u{3BB}\u{3B7}\u{3BD}\u{3B9}\u{3BA}\u{3B1}\u{301}", "ελληνικά"),
            ("и\u{306}ога", "йога"), ("йога", "и\u{306}ога"),
            ("\u{F90F}馬", "\u{7F85}馬"), ("\u{7F85}馬", "\u{F90F}馬"),
            ("ｶﾞｲﾄﾞﾌﾞｯｸ", "ガイドブック"), ("ガイドブック", "ｶﾞｲﾄﾞﾌﾞｯｸ"),
            ("ＴＯＫＹＯ ｽﾃｰｼｮﾝ", "tokyo ステーション"),
        ])
    func storedAndTyped(_ stored: String, _ typed: String) throws {
        let store = try TestSupport.store()
        _ = try store.ingest([TestSupport.record("place", "1", stored), TestSupport.record("place", "2", "unrelated")])
        #expect(try store.search(SearchRequest(query: typed)).map(\.key.id) == ["1"])
    }
}
