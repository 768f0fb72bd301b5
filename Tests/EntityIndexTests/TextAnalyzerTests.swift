import Testing

@testable import EntityIndex

@Suite struct TextAnalyzerTests {
    @Test(
        "normalizes case, width, accents and compatibility forms",
        arguments: [
            ("Café de Flore", "cafe de flore"),
            ("CAFÉ", "cafe"),
            ("Straße 5", "strasse 5"),
            ("ＡＢＣ Ｆｕｌｌｗｉｄｔｈ", "abc fullwidth"),
            ("１０４２", "1042"),
            ("ﬁdélité", "fidelite"),
            ("İstanbul", "istanbul"),
            ("Ærøskøbing", "aeroskobing"),
            ("Łódź", "lodz"),
            ("e\u{301}cole normale", "ecole normale"),
            ("Ελληνικά", "ελληνικα"),
            ("Ёжик", "ежик"),
            ("Москва", "москва"),
            ("Müller Straße", "muller mueller strasse"),
            ("Ögon ähnlich", "ogon oegon ahnlich aehnlich"),
            ("مكتبة", "مكتبه"),
            ("أحمد إلى آخر", "احمد الي اخر"),
            ("مـــدرسة", "مدرسه"),
            ("Þórshöfn", "thorshofn thorshoefn"),
        ])
    func normalizes(_ input: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(input) == expected)
    }

    @Test(
        "indexes compounds split and joined",
        arguments: [
            ("Ticket #1042-A widget", "ticket 1042 a 1042a widget"),
            ("e-mail server", "e mail email server"),
            ("O'Neil", "o neil oneil"),
            ("ORD1042", "ord1042 ord 1042"),
            ("Kuala_Lumpur", "kuala lumpur kualalumpur"),
            ("Asia/Kuala_Lumpur", "asia kuala lumpur asiakualalumpur kualalumpur"),
            (
                "America/Argentina/Buenos_Aires",
                "america argentina buenos aires americaargentinabuenosaires buenosaires"
            ),
            ("Projects\\entity_idx\\README", "projects entity idx readme projectsentityidxreadme entityidx"),
            ("x86_64-linux-gnu/libc.so", "x86 64 linux gnu libc so x8664linuxgnulibcso x8664linuxgnu libcso x 86"),
            ("Ｓｗｉｆｔ＿Ｃｕｒｒｅｎｔ／Ｂａｙ", "swift current bay swiftcurrentbay swiftcurrent"),
        ])
    func compounds(_ input: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(input) == expected)
    }

    @Test(
        "indexes CJK runs as bigrams plus the last character",
        arguments: [
            ("东京塔", "东京 京塔 塔"),
            ("서울특별시청", "서울 울특 특별 별시 시청 청"),
            ("安装简单，没有", "安装 装简 简单 单 没有 有"),
            ("ｶﾀｶﾅ", "かた たか かな な"),
            ("ラーメン", "らー ーめ めん ん"),
            ("东", "东"),
            ("東京", "东京 京"),
            ("臺灣", "台湾 湾"),
        ])
    func cjk(_ input: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(input) == expected)
    }

    @Test(
        "indexes a number written in groups also as its digits, and two short CJK runs also as one",
        arguments: [
            ("(030) 1234-567", "030 1234 567 1234567 0301234567"),
            ("tel 030 1234 567 ok", "tel 030 1234 567 1234567 0301234567 ok"),
            ("12 34", "12 34"),  // too short to be a phone number
            ("山田 太郎", "山田 田 太郎 郎 山田 田太 太郎 郎"),
            ("安装简单 没有复杂的配置", "安装 装简 简单 单 没有 有复 复杂 杂的 的配 配置 置"),  // long runs are not joined
            ("ﾎﾞﾂﾜﾅ", "ぼつ つわ わな な"),  // normalized before segmentation: one run
            ("\u{1109}\u{1169}\u{11AF}\u{1105}\u{1169}", "솔로 로"),
        ])
    func joins(_ input: String, _ expected: String) {
        #expect(TextAnalyzer.indexText(input) == expected)
    }

    @Test func thaiSaraAmKeepsItsWords() {
        let terms = TextAnalyzer.indexTerms("น้ำตกสวยงาม ทำงาน")
        #expect(terms.count >= 2)
        #expect(TextAnalyzer.indexTerms("น้ำ\u{E4D}") != [])
    }

    @Test func thaiIsSegmentedByDictionary() {
        let terms = TextAnalyzer.indexTerms("ภาษาไทยง่ายนิดเดียว")
        #expect(terms.contains("ไทย"))
        #expect(terms.contains("ภาษา"))
    }

    @Test func offsetsPointIntoTheOriginal() {
        let text = "Crème brûlée"
        let tokens = TextAnalyzer.tokens(text)
        let utf8 = Array(text.utf8)
        #expect(tokens.map { String(decoding: utf8[$0.start..<$0.end], as: UTF8.self) } == ["Crème", "brûlée"])
    }

    @Test func asciiFastPathAgreesWithICU() {
        for text in ["Hello, World! 3.14 foo_bar O'Neil e-mail #1042-A x86_64 C++"] {
            let fast = TextAnalyzer.tokens(text)
            let slow = Array(text.utf8).withUnsafeBufferPointer { TextAnalyzer.icuTokens($0) }
            #expect(fast == slow)
        }
    }

    @Test func queriesDoNotExpandUmlauts() {
        #expect(TextAnalyzer.tokens("Müller").map(\.text) == ["muller"])
        #expect(TextAnalyzer.tokens("Müller", document: true).map(\.text) == ["muller", "mueller"])
    }

    @Test func spelledOutVariantsFollowTheirWord() {
        // A compound is indexed a second time spelled out, parts side by side; variants never become parts.
        #expect(
            TextAnalyzer.indexText("Müller-Lüdenscheidt GmbH")
                == "muller ludenscheidt mullerludenscheidt mueller luedenscheidt muellerluedenscheidt gmbh")
        #expect(TextAnalyzer.indexText("Dr. Müller's") == "dr muller s mullers mueller s muellers")
        #expect(
            TextAnalyzer.indexText("Baden-Württemberg")
                == "baden wurttemberg badenwurttemberg baden wuerttemberg badenwuerttemberg")
        // An Arabic article is dropped in a variant only when three letters or more remain.
        #expect(TextAnalyzer.indexText("الكتاب الم") == "الكتاب كتاب الم")
        // Digits joined by a comma are one number; a comma after a word or before a space joins nothing.
        #expect(TextAnalyzer.indexText("1,299.00 apples,pears 1, 2") == "1 299 00 129900 apples pears 1 2")
        // Queries are never spelled out.
        #expect(TextAnalyzer.words("Müller-Lüdenscheidt").count == 1)
    }

    @Test func idKeyJoinsTokens() {
        #expect(TextAnalyzer.idKey("#1042-A") == "1042a")
        #expect(TextAnalyzer.idKey("1042") == "1042")
    }
}
