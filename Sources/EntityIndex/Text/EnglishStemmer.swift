/// The English stemmer of the Snowball project (Porter2): the stem of a word, which its regular inflections and many
/// derived forms share (`candies` and `candy` → `candi`, `boxes` → `box`, `running` → `run`, `generously` →
/// `generous`).
///
/// The rules are those of the published algorithm, "The English (Porter2) stemming algorithm" at snowballstem.org,
/// with its revisions up to Snowball 3.1: the exceptional words (`skies` → `sky`, `news` and `howe` kept), the initial
/// apostrophe and the marking of a consonant `y` as `Y`, the regions R1 and R2 (R1 after `gener`, `commun`, `arsen`,
/// `past`, `univers`, `later`, `emerg`, `organ` or `inter` when a word starts with one), steps 0 to 5 (with the `-ing`
/// words kept whole: `inning`, `outing`, `canning`, `herring`, `earring`, `evening`; and `proceed`, `exceed`,
/// `succeed`), and the `Y` written back as `y`. It is tested against Snowball's published sample vocabulary and its
/// expected stems (Tests/Fixtures/porter2-english.tsv.gz), all of which it gives.
///
/// A word is read as the text pipeline makes it: lowercase ASCII letters, perhaps with apostrophes. A word holding any
/// other character is returned as it is, and so is a word of one or two letters. The work is done in one byte buffer:
/// this runs for every word of a stemmed type at ingest, and for every word of a query.
enum EnglishStemmer {
    /// The stem of `word` (see the type's description).
    static func stem(_ word: String) -> String {
        guard word.utf8.count > 2 else { return word }
        var text = word
        return text.withUTF8 { stem($0) } ?? word
    }

    /// The stem of a word's bytes, or nil when it holds a byte other than a lowercase ASCII letter or an apostrophe.
    private static func stem(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.allSatisfy({ ($0 >= .a && $0 <= .z) || $0 == .apostrophe }) else { return nil }
        var w = Word(bytes)
        if let special = w.exception() { return special }
        w.prelude()
        w.markRegions()
        w.step0()
        w.step1a()
        w.step1b()
        w.step1c()
        w.step2()
        w.step3()
        w.step4()
        w.step5()
        return w.postlude()
    }

    /// Words stemmed by a list rather than by the rules: a word and its stem (the same for a word kept as it is).
    private static let exceptions: [(word: StaticString, stem: String)] = [
        ("skis", "ski"), ("skies", "sky"),
        // Short words whose `ly` the rules would remove (`gently` is not `gent`, nor `early` `ear`).
        ("idly", "idl"), ("gently", "gentl"), ("ugly", "ugli"), ("early", "earli"), ("only", "onli"),
        ("singly", "singl"),
        // Kept as they are: `sky` (not `ski`), `news` (not the plural of `new`), `howe` (a name, not `how`), and words
        // ending `s` that are no plurals.
        ("sky", "sky"), ("news", "news"), ("howe", "howe"), ("atlas", "atlas"), ("cosmos", "cosmos"),
        ("bias", "bias"), ("andes", "andes"),
    ]

    /// Starts of words whose R1 starts right after them rather than after their first vowel and consonant, so that
    /// words of different meaning keep apart (`generous`, `general` and `generate`; `universe` and `university`).
    private static let regionPrefixes: [StaticString] = [
        "gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ", "inter",
    ]

    /// Words ending `eed` kept whole by step 1b (`proceed`, `exceed`, `succeed`): what comes before the suffix.
    private static let eedKept: [StaticString] = ["proc", "exc", "succ"]

    /// Words ending `ing` kept whole by step 1b (`inning`, `outing`, `canning`, `herring`, `earring`, `evening`): what
    /// comes before the suffix.
    private static let ingKept: [StaticString] = ["inn", "out", "cann", "herr", "earr", "even"]

    /// A word being stemmed: its bytes, the starts of its regions R1 and R2, and whether it holds a `Y`.
    private struct Word {
        var b: [UInt8]
        var p1 = 0
        var p2 = 0
        var hasY = false

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            b = []
            b.reserveCapacity(bytes.count + 1)  // step 1b may add an `e`; no other step makes a word longer
            b.append(contentsOf: bytes)
        }

        // MARK: Letters and suffixes

        /// a, e, i, o, u and y (a `Y` is a consonant).
        static func isVowel(_ c: UInt8) -> Bool {
            switch c {
            case .a, .e, .i, .o, .u, .y: true
            default: false
            }
        }

        /// Whether `c` is one of the bytes of `letters`.
        static func isOne(_ c: UInt8, of letters: StaticString) -> Bool {
            let p = letters.utf8Start
            for k in 0..<letters.utf8CodeUnitCount where p[k] == c { return true }
            return false
        }

        /// Whether the bytes from `start` are those of `s`.
        func has(_ s: StaticString, at start: Int) -> Bool {
            let m = s.utf8CodeUnitCount
            guard start >= 0, start + m <= b.count else { return false }
            let p = s.utf8Start
            for k in 0..<m where b[start + k] != p[k] { return false }
            return true
        }

        func ends(_ s: StaticString) -> Bool { has(s, at: b.count - s.utf8CodeUnitCount) }

        /// Whether the word is `s` exactly.
        func isExactly(_ s: StaticString) -> Bool { isStart(s, b.count) }

        /// Whether the first `end` bytes are `s` exactly.
        func isStart(_ s: StaticString, _ end: Int) -> Bool { end == s.utf8CodeUnitCount && has(s, at: 0) }

        /// Whether a vowel is among the first `end` bytes.
        func hasVowel(before end: Int) -> Bool {
            var k = 0
            while k < end {
                if Self.isVowel(b[k]) { return true }
                k += 1
            }
            return false
        }

        /// Whether the first `end` bytes end with a short syllable: a vowel between a consonant and a consonant
        /// other than w, x or Y; a vowel and a consonant that are the whole of them; or `past`.
        func endsWithShortSyllable(_ end: Int) -> Bool {
            if end >= 3, !Self.isVowel(b[end - 1]), !Self.isOne(b[end - 1], of: "wxY"), Self.isVowel(b[end - 2]),
                !Self.isVowel(b[end - 3])
            {
                return true
            }
            if end == 2, !Self.isVowel(b[1]), Self.isVowel(b[0]) { return true }
            return end >= 4 && has("past", at: end - 4)
        }

        mutating func drop(_ n: Int) { b.removeLast(n) }

        /// Whether the word ends with `suffix`; if it does, and the suffix starts in the region that starts at
        /// `region`, and the letter before it is one of `after` (when given), it is replaced by `replacement`. A step
        /// looks only at its longest suffix the word ends with: it calls this for its suffixes, longest first, until
        /// one returns true.
        mutating func replace(
            _ suffix: StaticString, _ replacement: StaticString, region: Int, after: StaticString = ""
        ) -> Bool {
            guard ends(suffix) else { return false }
            let start = b.count - suffix.utf8CodeUnitCount
            guard start >= region else { return true }
            if after.utf8CodeUnitCount > 0 {
                guard start > 0, Self.isOne(b[start - 1], of: after) else { return true }
            }
            b.removeLast(suffix.utf8CodeUnitCount)
            let count = replacement.utf8CodeUnitCount
            b.append(contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: count))
            return true
        }

        // MARK: The algorithm

        /// The stem of a word of the exceptions, or nil.
        func exception() -> String? {
            guard b.count <= 6, b.last == .s || b.last == .y || b.last == .e else { return nil }
            for (word, stem) in EnglishStemmer.exceptions where isExactly(word) { return stem }
            return nil
        }

        /// Removes an initial apostrophe, and marks as `Y` a `y` that starts the word or follows a vowel.
        mutating func prelude() {
            if b.first == .apostrophe { b.removeFirst() }
            if b.first == .y {
                b[0] = .Y
                hasY = true
            }
            var k = 1
            while k < b.count {
                if b[k] == .y, Self.isVowel(b[k - 1]) {
                    b[k] = .Y
                    hasY = true
                }
                k += 1
            }
        }

        /// Where the region after the first consonant that follows a vowel at `start` or after starts (the word's
        /// end when there is none).
        func regionStart(after start: Int) -> Int {
            var k = start
            while k < b.count, !Self.isVowel(b[k]) { k += 1 }
            guard k < b.count else { return b.count }
            k += 1
            while k < b.count, Self.isVowel(b[k]) { k += 1 }
            return k < b.count ? k + 1 : b.count
        }

        mutating func markRegions() {
            p1 = EnglishStemmer.regionPrefixes.first { has($0, at: 0) }?.utf8CodeUnitCount ?? regionStart(after: 0)
            p2 = regionStart(after: p1)
        }

        /// Step 0: the longest of `'s'`, `'s` and `'` is removed.
        mutating func step0() {
            if ends("'s'") {
                drop(3)
            } else if ends("'s") {
                drop(2)
            } else if ends("'") {
                drop(1)
            }
        }

        /// Step 1a: plurals. `sses` → `ss`; `ied` and `ies` → `i` after two letters or more, `ie` after one; `us` and
        /// `ss` kept; a final `s` removed when a vowel comes before the letter before it (`gaps`, not `gas`).
        mutating func step1a() {
            if ends("sses") {
                drop(2)
            } else if ends("ied") || ends("ies") {
                drop(b.count - 3 >= 2 ? 2 : 1)
            } else if ends("us") || ends("ss") {
                return
            } else if ends("s"), b.count >= 2, hasVowel(before: b.count - 2) {
                drop(1)
            }
        }

        /// Step 1b: `eed` and `eedly` → `ee` in R1 (but `proceed`, `exceed` and `succeed` are kept); `ed`, `edly`,
        /// `ing` and `ingly` removed after a vowel, and then the end mended: `at`, `bl` and `iz` take an `e`, a double
        /// consonant is undoubled (not in `add`, `egg`, `off`), and a short word takes an `e` (`hop` → `hope`). A
        /// consonant and `ying` become the consonant and `ie` (`dying` → `die`), and `inning`, `outing`, `canning`,
        /// `herring`, `earring` and `evening` are kept.
        mutating func step1b() {
            let eed = ends("eedly") ? 5 : ends("eed") ? 3 : 0
            if eed > 0 {
                let start = b.count - eed
                if start >= p1, !EnglishStemmer.eedKept.contains(where: { isStart($0, start) }) { drop(eed - 2) }
                return
            }
            let suffix = ends("ingly") ? 5 : ends("edly") ? 4 : ends("ing") ? 3 : ends("ed") ? 2 : 0
            guard suffix > 0 else { return }
            let start = b.count - suffix
            if suffix == 3 {
                if start == 2, b[1] == .y, !Self.isVowel(b[0]) {
                    drop(3)
                    b[1] = .i
                    b.append(.e)
                    return
                }
                if EnglishStemmer.ingKept.contains(where: { isStart($0, start) }) { return }
            }
            guard hasVowel(before: start) else { return }
            drop(suffix)
            let n = b.count
            if ends("at") || ends("bl") || ends("iz") {
                b.append(.e)
            } else if n >= 2, b[n - 1] == b[n - 2], Self.isOne(b[n - 1], of: "bdfgmnprt") {
                if !(n == 3 && Self.isOne(b[0], of: "aeo")) { drop(1) }
            } else if n == p1, endsWithShortSyllable(n) {
                b.append(.e)
            }
        }

        /// Step 1c: a final `y` or `Y` after a consonant that is not the first letter becomes `i` (`cry` → `cri`).
        mutating func step1c() {
            let n = b.count
            if n >= 3, b[n - 1] == .y || b[n - 1] == .Y, !Self.isVowel(b[n - 2]) { b[n - 1] = .i }
        }

        /// Step 2: derivational suffixes in R1 replaced by a shorter form (`ational` → `ate`, `fulness` → `ful`).
        mutating func step2() {
            guard let last = b.last else { return }
            switch last {
            case .l:
                _ = replace("ational", "ate", region: p1) || replace("tional", "tion", region: p1)
            case .i:
                _ =
                    replace("lessli", "less", region: p1) || replace("biliti", "ble", region: p1)
                    || replace("entli", "ent", region: p1) || replace("aliti", "al", region: p1)
                    || replace("ousli", "ous", region: p1) || replace("iviti", "ive", region: p1)
                    || replace("fulli", "ful", region: p1) || replace("enci", "ence", region: p1)
                    || replace("anci", "ance", region: p1) || replace("abli", "able", region: p1)
                    || replace("alli", "al", region: p1) || replace("bli", "ble", region: p1)
                    || replace("ogi", "og", region: p1, after: "l")
                    || replace("li", "", region: p1, after: "cdeghkmnrt")
            case .r:
                _ = replace("izer", "ize", region: p1) || replace("ator", "ate", region: p1)
            case .n:
                _ = replace("ization", "ize", region: p1) || replace("ation", "ate", region: p1)
            case .m:
                _ = replace("alism", "al", region: p1)
            case .s:
                _ =
                    replace("fulness", "ful", region: p1) || replace("ousness", "ous", region: p1)
                    || replace("iveness", "ive", region: p1)
            case .t:
                _ = replace("ogist", "og", region: p1)
            default:
                break
            }
        }

        /// Step 3: more suffixes in R1 (`alize` → `al`, `ical` → `ic`, `ness` removed; `ative` only in R2).
        mutating func step3() {
            guard let last = b.last else { return }
            switch last {
            case .l:
                _ =
                    replace("ational", "ate", region: p1) || replace("tional", "tion", region: p1)
                    || replace("ical", "ic", region: p1) || replace("ful", "", region: p1)
            case .e:
                // R2 is within R1, so `ative` in R2 is also in R1.
                _ =
                    replace("alize", "al", region: p1) || replace("icate", "ic", region: p1)
                    || replace("ative", "", region: p2)
            case .i:
                _ = replace("iciti", "ic", region: p1)
            case .s:
                _ = replace("ness", "", region: p1)
            default:
                break
            }
        }

        /// Step 4: suffixes in R2 removed (`ion` only after `s` or `t`).
        mutating func step4() {
            guard let last = b.last else { return }
            switch last {
            case .l:
                _ = replace("al", "", region: p2)
            case .e:
                _ =
                    replace("ance", "", region: p2) || replace("ence", "", region: p2)
                    || replace("able", "", region: p2) || replace("ible", "", region: p2)
                    || replace("ate", "", region: p2) || replace("ive", "", region: p2)
                    || replace("ize", "", region: p2)
            case .r:
                _ = replace("er", "", region: p2)
            case .c:
                _ = replace("ic", "", region: p2)
            case .t:
                _ =
                    replace("ement", "", region: p2) || replace("ment", "", region: p2)
                    || replace("ant", "", region: p2) || replace("ent", "", region: p2)
            case .m:
                _ = replace("ism", "", region: p2)
            case .i:
                _ = replace("iti", "", region: p2)
            case .s:
                _ = replace("ous", "", region: p2)
            case .n:
                _ = replace("ion", "", region: p2, after: "st")
            default:
                break
            }
        }

        /// Step 5: a final `e` removed in R2, or in R1 when no short syllable comes before it; a final `l` removed in
        /// R2 after another `l`.
        mutating func step5() {
            let k = b.count - 1
            guard k >= 0 else { return }
            if b[k] == .e {
                if k >= p2 || (k >= p1 && !endsWithShortSyllable(k)) { drop(1) }
            } else if b[k] == .l, k >= p2, k > 0, b[k - 1] == .l {
                drop(1)
            }
        }

        /// The stem, each `Y` written back as `y`.
        mutating func postlude() -> String {
            if hasY {
                for k in b.indices where b[k] == .Y { b[k] = .y }
            }
            return String(decoding: b, as: UTF8.self)
        }
    }
}

extension UInt8 {
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let a = UInt8(ascii: "a")
    fileprivate static let c = UInt8(ascii: "c")
    fileprivate static let e = UInt8(ascii: "e")
    fileprivate static let i = UInt8(ascii: "i")
    fileprivate static let l = UInt8(ascii: "l")
    fileprivate static let m = UInt8(ascii: "m")
    fileprivate static let n = UInt8(ascii: "n")
    fileprivate static let o = UInt8(ascii: "o")
    fileprivate static let r = UInt8(ascii: "r")
    fileprivate static let s = UInt8(ascii: "s")
    fileprivate static let t = UInt8(ascii: "t")
    fileprivate static let u = UInt8(ascii: "u")
    fileprivate static let y = UInt8(ascii: "y")
    fileprivate static let z = UInt8(ascii: "z")
    fileprivate static let Y = UInt8(ascii: "Y")
}
