internal import CEntityIdx

/// How a transliterated type's Japanese words written in kanji are also found by their readings: `抹茶ラテ` by
/// `まっちゃ` (or `マッチャ`) and by `matcha`.
///
/// Part of `declare --transliterate latin` (`Transliteration`). A run of CJK characters that holds a kanji is read by
/// MeCab with its system dictionary (Debian's `mecab-ipadic-utf8`), morpheme by morpheme, in context:
///
/// - the run's reading in kana (`まっちゃらて`: each morpheme's reading, a word the dictionary does not know in kana
///   as written) is indexed as a CJK run is, by its overlapping bigrams, after the column's words, so that any part
///   of it typed in kana matches as a CJK word does; a kanji the dictionary cannot read ends the reading there;
/// - each morpheme written in kanji or katakana is also indexed by its Latin letters, marked as transliterations
///   are: in Hepburn from its pronunciation without long-vowel marks (`東京` `tokyo`, `太郎` `taro`), and as typed
///   on a Japanese keyboard from its reading when that differs (`toukyou`, `tarou`).
///
/// A reading is the dictionary's best in context, one per word: a name with several readings is found by the one
/// the dictionary chose (`日本`: `にっぽん`, not `にほん`). Chinese text in a transliterated type is read as Japanese.
/// Without a UTF-8 dictionary the readings are left out (`isAvailable`) and the rest of transliteration is unchanged.
enum Readings {
    /// One morpheme of a run: its bytes in the run, its reading and its pronunciation in katakana (empty when the
    /// dictionary does not know it).
    struct Morpheme: Equatable {
        var range: Range<Int>
        var surface: String
        var reading: String
        var pronunciation: String
    }

    /// Whether a UTF-8 dictionary can be loaded (loading it once for the process).
    static var isAvailable: Bool { dictionary != nil }

    /// What identifies the dictionary (its charset, version and number of entries), or nil without one.
    static let dictionary: String? = {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = Int(eidx_reading_dictionary(&buffer, Int32(buffer.count)))
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }()

    /// MeCab's morphemes of `text`, or nil without a dictionary.
    static func morphemes(_ text: String) -> [Morpheme]? {
        var text = text
        return text.withUTF8 { utf8 -> [Morpheme]? in
            var capacity = utf8.count / 3 + 8, textCapacity = utf8.count * 3 + 64
            while true {
                var out = [eidx_morpheme](repeating: eidx_morpheme(), count: capacity)
                var readings = [CChar](repeating: 0, count: textCapacity)
                var needed: Int32 = 0, textNeeded: Int32 = 0
                let rc = utf8.withMemoryRebound(to: CChar.self) {
                    eidx_readings(
                        $0.baseAddress, Int32($0.count), &out, Int32(capacity), &readings, Int32(textCapacity),
                        &needed, &textNeeded)
                }
                if rc == -2 {
                    (capacity, textCapacity) = (Int(needed) + 1, Int(textNeeded) + 1)
                    continue
                }
                guard rc >= 0 else { return nil }
                let bytes = readings.map { UInt8(bitPattern: $0) }
                func slice(_ at: Int32, _ length: Int32) -> String {
                    String(decoding: bytes[Int(at)..<Int(at + length)], as: UTF8.self)
                }
                return out[0..<Int(rc)].map { m in
                    Morpheme(
                        range: Int(m.start)..<Int(m.end),
                        surface: String(decoding: utf8[Int(m.start)..<Int(m.end)], as: UTF8.self),
                        reading: slice(m.reading, m.readingLength),
                        pronunciation: slice(m.pronunciation, m.pronunciationLength))
                }
            }
        }
    }

    /// The index terms the readings of `texts` add: for each CJK run with a kanji, its reading's bigrams, then the
    /// marked Latin forms of its morphemes; each term once.
    static func terms(_ texts: [String]) -> [String] {
        var seen = Set<String>()
        var terms: [String] = []
        for text in texts where text.utf8.contains(where: { $0 >= 0xE3 }) {
            let utf8 = Array(text.utf8)
            for word in TextAnalyzer.words(text, document: true) {
                guard case .cjk(let chars) = word else { continue }
                let run = String(decoding: utf8[chars[0].start..<chars[chars.count - 1].end], as: UTF8.self)
                for term in runTerms(run) where seen.insert(term).inserted { terms.append(term) }
            }
        }
        return terms
    }

    /// The terms of one CJK run: none without a kanji or a katakana, or without a dictionary.
    static func runTerms(_ run: String) -> [String] {
        guard isRead(run), let morphemes = morphemes(run) else { return [] }
        return readingRuns(morphemes).flatMap { kanaTerms($0.reading) } + morphemes.flatMap(latinTerms)
    }

    /// Whether a CJK run is read: it holds a kanji (read in kana and in Latin letters) or a katakana (in Latin).
    static func isRead(_ run: String) -> Bool {
        run.unicodeScalars.contains { isKanji($0) || isKatakana($0) }
    }

    /// A reading in kana of part of a run, with the morphemes it covers and where each one's reading starts in it
    /// (a UTF-8 offset).
    typealias ReadingRun = (reading: String, morphemes: [(Morpheme, Int)])

    /// The readings of a run in kana: a kanji the dictionary cannot read ends one reading; a reading without a kanji
    /// is left out (it is the text as written).
    static func readingRuns(_ morphemes: [Morpheme]) -> [ReadingRun] {
        var runs: [ReadingRun] = []
        var reading = "", covered: [(Morpheme, Int)] = [], hasKanji = false
        func end() {
            if hasKanji && !reading.isEmpty { runs.append((reading, covered)) }
            (reading, covered, hasKanji) = ("", [], false)
        }
        for m in morphemes {
            let kanji = m.surface.unicodeScalars.contains(where: isKanji)
            if kanji && m.reading.isEmpty {
                end()
                continue
            }
            covered.append((m, reading.utf8.count))
            reading += m.reading.isEmpty ? m.surface : m.reading
            hasKanji = hasKanji || kanji
        }
        end()
        return runs
    }

    /// A reading's index terms: as a CJK run is indexed (katakana folded to hiragana, bigrams and the last character).
    static func kanaTerms(_ reading: String) -> [String] {
        var terms: [String] = []
        let utf8 = Array(reading.utf8)
        for word in TextAnalyzer.words(reading, document: true) {
            TextAnalyzer.appendIndexTerms(word, in: utf8, to: &terms)
        }
        return terms
    }

    /// A morpheme's marked Latin forms, for one written in kanji or katakana with a reading: Hepburn from its
    /// pronunciation, then its keyboard spelling from its reading when that differs.
    static func latinTerms(_ m: Morpheme) -> [String] {
        guard !m.reading.isEmpty || m.surface.unicodeScalars.allSatisfy(isKana),
            m.surface.unicodeScalars.contains(where: { isKanji($0) || isKatakana($0) })
        else { return [] }
        let reading = m.reading.isEmpty ? m.surface : m.reading
        let forms = [Romaji.latin(m.pronunciation.isEmpty ? reading : m.pronunciation), Romaji.latin(reading)]
        var terms: [String] = []
        for form in forms where !form.isEmpty {
            let term = Transliteration.marker + form
            if !terms.contains(term) { terms.append(term) }
        }
        return terms
    }

    /// Kanji: the CJK ideographs and the iteration marks written with them (`々`, `〆`).
    static func isKanji(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3005, 0x3006, 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true
        default: return false
        }
    }

    static func isKatakana(_ s: Unicode.Scalar) -> Bool { (0x30A1...0x30FA).contains(s.value) }

    static func isKana(_ s: Unicode.Scalar) -> Bool {
        (0x3041...0x3096).contains(s.value) || (0x30A1...0x30FC).contains(s.value)
    }
}
