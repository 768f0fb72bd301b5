internal import CEntityIdx

/// One normalized token and the span of the original text it came from (UTF-8 byte offsets).
public struct Token: Sendable, Equatable {
    public var text: String
    public var start: Int
    public var end: Int
    public var isCJK: Bool
    public var hasDigit: Bool
    public var hasLetter: Bool
    /// Another spelling of the token before it, over the same span (a document's `Müller` also yields `mueller`).
    public var isVariant: Bool = false
}

/// A word as a person typed it: a plain token, a compound joined by connectors (`#1042-A`, `e-mail`, `O'Neil`), or a
/// run of CJK characters.
public enum Word: Sendable, Equatable {
    case plain(Token)
    case compound([Token])
    case cjk([Token])

    public var tokens: [Token] {
        switch self {
        case .plain(let t): return [t]
        case .compound(let ts), .cjk(let ts): return ts
        }
    }
    public var start: Int { tokens.first!.start }
    public var end: Int { tokens.last!.end }
}

/// The text pipeline shared by documents and queries.
///
/// 1. Segment and normalize (ICU, in the C shim): NFKC case folding, accents removed on Latin/Greek, Latin to ASCII,
///    CJK one character per token. Pure-ASCII text takes a fast path in Swift that gives the same tokens.
/// 2. Group tokens into words: compounds joined by one connector character, and runs of CJK characters.
/// 3. For the index, each word becomes terms: a plain token; a compound's parts, then the parts joined
///    (`1042 a 1042a`), then letter/digit splits (`k2` → `k 2`); a CJK run's overlapping bigrams and its last
///    character.
///
/// Bump `version` whenever the output of any step changes: opening a database indexed with another version rebuilds
/// its normalized text.
public enum TextAnalyzer {
    public static let version = 12

    /// Characters that join two tokens into a compound when they stand alone between them.
    static let connectors: Set<Unicode.Scalar> = [
        "-", "_", ".", "/", "\\", "'", ":", "\u{2019}", "\u{2010}", "\u{2011}", "\u{00B7}", "\u{FF0D}", "\u{FF0E}",
        "\u{FF0F}", "\u{FF3C}", "\u{FF3F}",
        "\u{200C}", "\u{200D}",  // and the zero-width (non-)joiners inside Persian and Indic words
    ]

    /// Connectors that also end a segment of a compound, as in a path (`America/Swift_Current`,
    /// `C:\Program Files`): each segment of two parts or more is also indexed joined (`swiftcurrent`).
    static let segmentSeparators: Set<Unicode.Scalar> = ["/", "\\", "\u{FF0F}", "\u{FF3C}"]

    // MARK: - Tokens

    /// Segments and normalizes `text` into tokens.
    ///
    /// A `document` (text to index) also yields spelled-out German umlauts (`Müller` → `muller`, `mueller`), so that
    /// either spelling finds it; queries do not, so that `Müller` still finds `Muller`.
    public static func tokens(_ text: String, document: Bool = false) -> [Token] {
        var text = text
        return text.withUTF8 { utf8 in
            if utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(utf8) }
            return icuTokens(utf8, document: document)
        }
    }

    /// Letters and digits runs, lowercased: what ICU gives for ASCII, without ICU.
    static func asciiTokens(_ utf8: UnsafeBufferPointer<UInt8>) -> [Token] {
        var tokens: [Token] = []
        var i = 0
        let n = utf8.count
        while i < n {
            while i < n, !isAlnum(utf8[i]) { i += 1 }
            if i >= n { break }
            let start = i
            var digit = false, letter = false
            var bytes: [UInt8] = []
            while i < n, isAlnum(utf8[i]) {
                var b = utf8[i]
                if b >= 65 && b <= 90 { b += 32 }
                if b >= 48 && b <= 57 { digit = true } else { letter = true }
                bytes.append(b)
                i += 1
            }
            tokens.append(
                Token(
                    text: String(decoding: bytes, as: UTF8.self), start: start, end: i, isCJK: false,
                    hasDigit: digit, hasLetter: letter))
        }
        return tokens
    }

    @inline(__always) static func isAlnum(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
    }

    static func icuTokens(_ utf8: UnsafeBufferPointer<UInt8>, document: Bool = false) -> [Token] {
        var tokenCapacity = utf8.count + 16
        var outCapacity = utf8.count * 4 + 64
        while true {
            var raw = [eidx_token](repeating: eidx_token(), count: tokenCapacity)
            var out = [CChar](repeating: 0, count: outCapacity)
            var count: Int32 = 0, outLength: Int32 = 0
            let rc = utf8.withMemoryRebound(to: CChar.self) { input in
                eidx_analyze(
                    input.baseAddress, Int32(input.count), document ? Int32(EIDX_ANALYZE_DOCUMENT) : 0, &raw,
                    Int32(tokenCapacity), &out, Int32(outCapacity), &count, &outLength)
            }
            if rc == -2 {
                tokenCapacity *= 2
                outCapacity *= 2
                continue
            }
            guard rc == 0 else { return [] }
            return out.withUnsafeBytes { bytes in
                (0..<Int(count)).map { i in
                    let t = raw[i]
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[Int(t.norm)..<Int(t.norm + t.normLength)])
                    return Token(
                        text: String(decoding: slice, as: UTF8.self), start: Int(t.start), end: Int(t.end),
                        isCJK: t.flags & Int32(EIDX_TOKEN_CJK) != 0,
                        hasDigit: t.flags & Int32(EIDX_TOKEN_DIGIT) != 0,
                        hasLetter: t.flags & Int32(EIDX_TOKEN_LETTER) != 0,
                        isVariant: t.flags & Int32(EIDX_TOKEN_VARIANT) != 0)
                }
            }
        }
    }

    // MARK: - Words

    /// Groups the tokens of `text` into words.
    ///
    /// A document's spelled-out variants (`mueller` beside `muller`) never join a compound; each word with variants
    /// is followed by the same word spelled with them (`Müller-Lüdenscheidt` → `muller-ludenscheidt`, then
    /// `mueller-luedenscheidt`), so that a compound typed either way finds its parts side by side.
    public static func words(_ text: String, document: Bool = false) -> [Word] {
        let all = tokens(text, document: document)
        guard !all.isEmpty else { return [] }
        let utf8 = Array(text.utf8)
        var primary: [Token] = []
        var variants: [Int: Token] = [:]  // index in `primary` → its other spelling
        var pending: [Int] = []  // primaries of the current span still without a variant
        for token in all {
            if token.isVariant {
                if let i = pending.first { variants[i] = token; pending.removeFirst() }
                continue
            }
            if let last = primary.last, last.start != token.start || last.end != token.end { pending.removeAll() }
            pending.append(primary.count)
            primary.append(token)
        }
        var words: [Word] = []
        var members: [[Int]] = []  // the primary indices of each word
        // The word being built, kept apart from `words` until it ends: appending to a run stored in the array
        // would copy it at every token (quadratic in a long CJK run or compound).
        var run: [Token] = []
        var runIsCJK = false
        var runMembers: [Int] = []
        func flush() {
            guard !run.isEmpty else { return }
            words.append(runIsCJK ? .cjk(run) : run.count == 1 ? .plain(run[0]) : .compound(run))
            members.append(runMembers)
            run.removeAll()
            runMembers.removeAll()
        }
        for (index, token) in primary.enumerated() {
            if let last = run.last {
                let extends =
                    runIsCJK
                    ? token.isCJK && last.end == token.start
                    : !token.isCJK && joins(last, token, utf8)
                if extends {
                    run.append(token)
                    runMembers.append(index)
                    continue
                }
                flush()
            }
            run = [token]
            runIsCJK = token.isCJK
            runMembers = [index]
        }
        flush()
        guard !variants.isEmpty else { return words }
        var result: [Word] = []
        for (word, indices) in zip(words, members) {
            result.append(word)
            guard indices.contains(where: { variants[$0] != nil }) else { continue }
            switch word {
            case .plain: result.append(.plain(variants[indices[0]]!))
            case .compound(let parts):
                result.append(.compound(zip(parts, indices).map { variants[$1] ?? $0 }))
            case .cjk: break
            }
        }
        return result
    }

    /// True when two tokens make one compound: one connector stands between them (one of `connectors`, or a comma
    /// between digits: `1,299`), or they come from one word of the text, split by normalization (`1,299.00` →
    /// `1`, `299`, `00`; `don't` → `don`, `t`).
    static func joins(_ a: Token, _ b: Token, _ utf8: [UInt8]) -> Bool {
        if a.start == b.start && a.end == b.end { return true }
        if isConnector(utf8, a.end, b.start) { return true }
        return b.start == a.end + 1 && utf8[a.end] == 0x2C && a.hasDigit && !a.hasLetter && b.hasDigit && !b.hasLetter
    }

    /// True when exactly one connector character stands between two byte offsets.
    static func isConnector(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        guard to > from, to - from <= 4 else { return false }
        let scalars = String(decoding: utf8[from..<to], as: UTF8.self).unicodeScalars
        return scalars.count == 1 && connectors.contains(scalars.first!)
    }

    // MARK: - Index terms

    /// The terms to index for `text`, in order (phrase queries rely on the order).
    public static func indexTerms(_ text: String) -> [String] {
        var codes: [String] = []
        return indexTerms(text, codes: &codes)
    }

    /// The terms to index for `text`, and its codes: each word with a digit, joined (`#1042-A` → `1042a`), for the
    /// trigram index that finds a fragment inside one.
    ///
    /// Two joins are added for what people type without the spaces a record has: a run of numbers written with
    /// spaces, brackets, dashes, dots or slashes between them (`030 1234 567`) also yields its digits
    /// together (`appendNumberTerms`); and two short CJK runs with only a space between them (`山田 太郎`) are also
    /// indexed as one run (`山田太郎`).
    public static func indexTerms(_ text: String, codes: inout [String]) -> [String] {
        var terms: [String] = []
        let all = words(text, document: true)
        let utf8 = Array(text.utf8)
        var number: [Word] = []  // the current run of numbers
        func endNumber() {
            appendNumberTerms(number, in: utf8, terms: &terms, codes: &codes)
            number.removeAll()
        }
        for (index, word) in all.enumerated() {
            let isNumber =
                word.tokens.allSatisfy { $0.hasDigit && !$0.hasLetter } && !word.tokens.contains(where: \.isCJK)
            if !isNumber || (number.last.map { !continuesNumber(utf8, $0.end, word.start) } ?? false) {
                endNumber()
            }
            appendIndexTerms(word, in: utf8, to: &terms)
            if case .cjk(let chars) = word {
                if index > 0, case .cjk(let before) = all[index - 1], before.count <= 4, chars.count <= 4,
                    onlySpaces(utf8, before.last!.end, chars.first!.start)
                {
                    appendIndexTerms(.cjk(before + chars), in: utf8, to: &terms)
                }
                continue
            }
            let tokens = word.tokens
            if tokens.contains(where: \.hasDigit), !tokens.contains(where: \.isVariant) {
                codes.append(tokens.map(\.text).joined())
            }
            if isNumber { number.append(word) }
        }
        endNumber()
        return terms
    }

    /// True when the bytes between two offsets are one or two spaces (an ASCII or ideographic space).
    static func onlySpaces(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        guard to > from, to - from <= 6 else { return false }
        let scalars = String(decoding: utf8[from..<to], as: UTF8.self).unicodeScalars
        return scalars.count <= 2 && scalars.allSatisfy { $0 == " " || $0 == "\u{3000}" || $0 == "\u{A0}" }
    }

    /// The normalized column text: the index terms separated by spaces.
    public static func indexText(_ text: String) -> String {
        indexTerms(text).joined(separator: " ")
    }

    /// Appends the index terms of one word of `utf8` (the text the word's offsets are in): a compound's parts, its
    /// parts joined, each of its path segments joined (`america/swift_current` → `swiftcurrent`), then the letter
    /// and digit splits of its parts.
    static func appendIndexTerms(_ word: Word, in utf8: [UInt8], to terms: inout [String]) {
        switch word {
        case .plain(let t):
            terms.append(t.text)
            appendSplits(t, to: &terms)
        case .compound(let parts):
            for p in parts { terms.append(p.text) }
            terms.append(parts.map(\.text).joined())
            for segment in segments(parts, utf8) where segment.count >= 2 && segment.count < parts.count {
                terms.append(parts[segment].map(\.text).joined())
            }
            for p in parts { appendSplits(p, to: &terms) }
        case .cjk(let chars):
            if chars.count == 1 { terms.append(chars[0].text); return }
            for i in 0..<(chars.count - 1) { terms.append(chars[i].text + chars[i + 1].text) }
            terms.append(chars[chars.count - 1].text)
        }
    }

    /// The index ranges of a compound's parts between its segment separators (`/`, `\\`): one range for a compound
    /// without them.
    static func segments(_ parts: [Token], _ utf8: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        for i in 1..<max(1, parts.count) where isSegmentSeparator(utf8, parts[i - 1].end, parts[i].start) {
            ranges.append(start..<i)
            start = i
        }
        ranges.append(start..<parts.count)
        return ranges
    }

    /// True when the one character between two byte offsets is a segment separator.
    static func isSegmentSeparator(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        guard to > from, to - from <= 4, to <= utf8.count else { return false }
        let scalars = String(decoding: utf8[from..<to], as: UTF8.self).unicodeScalars
        return scalars.count == 1 && segmentSeparators.contains(scalars.first!)
    }

    /// `a1042` also yields `a` and `1042`, so that the number inside a code is found.
    static func appendSplits(_ token: Token, to terms: inout [String]) {
        let parts = letterDigitParts(token)
        if parts.count > 1 { terms.append(contentsOf: parts) }
    }

    /// A token's runs of letters and of digits (`iphone15` → `iphone`, `15`); the token alone when it has one kind.
    static func letterDigitParts(_ token: Token) -> [String] {
        guard token.hasDigit, token.hasLetter else { return [token.text] }
        var current: [Character] = []
        var currentIsDigit: Bool?
        var parts: [String] = []
        for ch in token.text {
            let digit = ch.isNumber
            if let c = currentIsDigit, c != digit {
                parts.append(String(current))
                current = []
            }
            current.append(ch)
            currentIsDigit = digit
        }
        parts.append(String(current))
        return parts
    }

    /// A key for exact-id matching: the id's tokens concatenated (`#1042-A` → `1042a`).
    public static func idKey(_ id: String) -> String {
        tokens(id).map(\.text).joined()
    }

    /// The ICU library's version.
    public static var icuVersion: String {
        var buffer = [CChar](repeating: 0, count: 32)
        let n = eidx_icu_version(&buffer, 32)
        return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
