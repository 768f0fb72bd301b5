/// Kana in Latin letters, as Japanese words are spelled in English text: modified Hepburn without long-vowel marks
/// (`トーキョー` `tokyo`, `マッチャ` `matcha`, `シンジュク` `shinjuku`, `ジュース` `jusu`), lowercase ASCII.
///
/// ICU's `Katakana-Latin` is not used: it spells a small `ャ ュ ョ` after its syllable with a tilde (`キョ` `ki~yo`)
/// and keeps the prolonged sound mark. Here the mark `ー` is dropped, so is a kana this table does not know; a small
/// `ッ` doubles the next consonant (`tch` before `ch`); `ン` is `n`.
enum Romaji {
    /// The Latin spelling of katakana or hiragana text (other characters are dropped).
    static func latin(_ kana: String) -> String {
        let syllables = kana.unicodeScalars.map { s -> Unicode.Scalar in
            // Hiragana to katakana: the blocks are 0x60 apart.
            (0x3041...0x3096).contains(s.value) ? Unicode.Scalar(s.value + 0x60)! : s
        }
        var out = ""
        var double = false
        var i = 0
        while i < syllables.count {
            let s = syllables[i]
            i += 1
            if s == "ッ" {
                double = true
                continue
            }
            guard var syllable = table[s] else {
                double = false
                continue
            }
            if i < syllables.count, let small = combined(syllable, syllables[i]) {
                syllable = small
                i += 1
            }
            if double, let first = syllable.first, first != "n", !"aiueo".contains(first) {
                out += syllable.hasPrefix("ch") ? "t" : String(first)
            }
            double = false
            out += syllable
        }
        return out
    }

    /// A syllable with the small kana after it (`キ` `ョ` `kyo`, `フ` `ァ` `fa`, `テ` `ィ` `ti`), or nil when the
    /// small kana is a syllable of its own.
    private static func combined(_ syllable: String, _ next: Unicode.Scalar) -> String? {
        switch next {
        case "ャ", "ュ", "ョ":
            guard syllable.hasSuffix("i"), syllable.count >= 2 else { return nil }
            let vowel = next == "ャ" ? "a" : next == "ュ" ? "u" : "o"
            let stem = String(syllable.dropLast())
            // シャ sha, チャ cha, ジャ ja; キャ kya.
            return stem.hasSuffix("sh") || stem.hasSuffix("ch") || stem == "j" ? stem + vowel : stem + "y" + vowel
        case "ァ", "ィ", "ゥ", "ェ", "ォ":
            let vowel = table[next]!
            switch syllable {
            case "fu", "vu", "tsu": return String(syllable.dropLast()) + vowel
            case "te", "de": return vowel == "i" || vowel == "u" ? String(syllable.dropLast()) + vowel : nil
            case "to", "do": return vowel == "u" ? String(syllable.dropLast()) + vowel : nil
            case "u": return vowel == "u" ? nil : "w" + vowel
            case "shi", "chi", "ji": return vowel == "e" ? String(syllable.dropLast()) + vowel : nil
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Each katakana's syllable (the prolonged sound mark and `ッ` are handled apart).
    private static let table: [Unicode.Scalar: String] = {
        let rows: [(String, [String])] = [
            ("アイウエオ", ["a", "i", "u", "e", "o"]), ("カキクケコ", ["ka", "ki", "ku", "ke", "ko"]),
            ("サシスセソ", ["sa", "shi", "su", "se", "so"]), ("タチツテト", ["ta", "chi", "tsu", "te", "to"]),
            ("ナニヌネノ", ["na", "ni", "nu", "ne", "no"]), ("ハヒフヘホ", ["ha", "hi", "fu", "he", "ho"]),
            ("マミムメモ", ["ma", "mi", "mu", "me", "mo"]), ("ヤユヨ", ["ya", "yu", "yo"]),
            ("ラリルレロ", ["ra", "ri", "ru", "re", "ro"]), ("ワヰヱヲン", ["wa", "i", "e", "o", "n"]),
            ("ガギグゲゴ", ["ga", "gi", "gu", "ge", "go"]), ("ザジズゼゾ", ["za", "ji", "zu", "ze", "zo"]),
            ("ダヂヅデド", ["da", "ji", "zu", "de", "do"]), ("バビブベボ", ["ba", "bi", "bu", "be", "bo"]),
            ("パピプペポ", ["pa", "pi", "pu", "pe", "po"]), ("ァィゥェォ", ["a", "i", "u", "e", "o"]),
            ("ャュョヮヴヵヶ", ["ya", "yu", "yo", "wa", "vu", "ka", "ke"]),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (kana, latin) in rows {
            for (k, l) in zip(kana.unicodeScalars, latin) { table[k] = l }
        }
        return table
    }()
}
