#if canImport(Glibc)
    import Glibc
#endif

/// One word of a search, normalized, with how it may match.
struct QueryTerm: Sendable {
    enum Kind: Sendable, Equatable {
        case plain(String)
        case compound(parts: [String], joined: String)
        case cjk([String])
    }

    let kind: Kind
    /// The last term of a query that does not end in a space matches as a prefix (search as you type).
    var prefix: Bool
    /// For a long prefix, the vocabulary words it completes (see `PrefixExpansion`); the FTS query lists them
    /// instead of the prefix. Matching candidates (`match`) still compares by prefix.
    var completions: [String]?
    /// With a stemmed type in the index (`Stemming`), the marked stem of a plain word: another whole term the word
    /// matches, at no typo.
    var stem: [UInt8]?
    /// With a transliterated type in the index (`Transliteration`), the marked form of a plain Latin word: another
    /// term the word matches at no typo (as a prefix while typing).
    var latin: [UInt8]?
    /// Vocabulary words one or two edits away from a plain word, filled in by the typo fallback.
    var plainVariants: [TypoVariant] = []
    /// For a compound of words typed with connectors (`python3-reqeusts`), each part's variants (empty for a part
    /// without typo budget).
    var partVariants: [[TypoVariant]] = []
    /// Whether the parts of a compound get typos: true for words joined by connectors, false for the letter and digit
    /// runs of one word (`iphone15`: a word with digits never gets typos).
    let typoInParts: Bool
    /// Every variant of the term, with its distance (for callers that only ask whether there are any).
    var variants: [String: Int] {
        var all: [String: Int] = [:]
        for v in plainVariants + partVariants.flatMap({ $0 }) { all[v.text] = min(all[v.text] ?? Int.max, v.distance) }
        return all
    }
    /// What `match` compares, as UTF-8, computed once per query: the plain word; a compound's joined form then its
    /// parts; a CJK run's single character or its bigrams.
    private let bytes: [[UInt8]]
    /// Other joined forms a compound also matches as whole terms (a prefix while typing): the national form of an
    /// international phone number (`+49 30 1234567` also finds `0301234567`, see `PhoneNumbers`).
    let alternatives: [String]
    private let alternativeBytes: [[UInt8]]

    init(kind: Kind, prefix: Bool, typoInParts: Bool = false, alternatives: [String] = []) {
        self.kind = kind
        self.prefix = prefix
        self.typoInParts = typoInParts
        self.alternatives = alternatives
        self.alternativeBytes = alternatives.map { Array($0.utf8) }
        switch kind {
        case .plain(let t): bytes = [Array(t.utf8)]
        case .compound(let parts, let joined): bytes = [Array(joined.utf8)] + parts.map { Array($0.utf8) }
        case .cjk(let chars):
            bytes =
                chars.count == 1
                ? [Array(chars[0].utf8)] : (0..<(chars.count - 1)).map { Array((chars[$0] + chars[$0 + 1]).utf8) }
        }
    }

    /// Whether the term is a run of CJK characters.
    var isCJK: Bool {
        if case .cjk = kind { return true }
        return false
    }

    /// The text shown in explanations.
    var display: String {
        switch kind {
        case .plain(let t): return t
        case .compound(_, let joined): return joined
        case .cjk(let chars): return chars.joined()
        }
    }

    /// How many edits a word may have: one from 5 letters, two from 9, none with a digit (ids, codes, versions).
    static func typoBudget(_ word: String) -> Int {
        guard !word.contains(where: \.isNumber) else { return 0 }
        let n = word.count
        return n >= 9 ? 2 : (n >= 5 ? 1 : 0)
    }

    /// Typo tolerance applies to every word of 5 letters or more without digits: a plain word, or a word inside a
    /// compound typed with connectors (the largest budget of its parts); never CJK.
    var typoBudget: Int {
        switch kind {
        case .plain(let t): return Self.typoBudget(t)
        case .compound(let parts, _): return typoInParts ? parts.map(Self.typoBudget).max() ?? 0 : 0
        case .cjk: return 0
        }
    }

    /// The FTS5 expression for this term; every piece of text is quoted, so no input can be an operator.
    ///
    /// `wholeWords`: the last word is not a prefix. `maxTypos`: only the variants of at most that many edits.
    /// `match` accepts exactly the column terms that this expression matches in a column.
    func expression(wholeWords: Bool = false, maxTypos: Int = Int.max) -> String {
        let prefix = self.prefix && !wholeWords
        let star = prefix ? "*" : ""
        switch kind {
        case .plain(let t):
            var head = (prefix ? completions : nil).map { $0.map(quote) } ?? [quote(t) + star]
            if let stem { head.append(quote(String(decoding: stem, as: UTF8.self))) }
            if let latin { head.append(quote(String(decoding: latin, as: UTF8.self)) + star) }
            let typos = plainVariants.filter { $0.distance <= maxTypos }.map { variantExpression($0, prefix: prefix) }
            guard !typos.isEmpty || head.count > 1 else { return head.first ?? quote(t) + star }
            return "(" + (head + typos).joined(separator: " OR ") + ")"
        case .compound(let parts, let joined):
            // While typing, the joined form is the prefix (`1042-a` → `1042a*`); the split form is a plain phrase, as a
            // prefix on its last short part (`… a*`) would match half the vocabulary.
            var alternatives = [quote(joined) + star, quote(parts.joined(separator: " "))]
            for other in self.alternatives { alternatives.append(quote(other) + star) }
            // With typos, the parts side by side with one or more of them replaced by a variant (`"python3
            // requests"` for `python3-reqeusts`); at most `maxPhrases` of them, fewest replacements first.
            for typo in typoPhrases(maxTypos: maxTypos, prefix: prefix) { alternatives.append(typo.phrase) }
            return "(" + alternatives.joined(separator: " OR ") + ")"
        case .cjk(let chars):
            if chars.count == 1 { return quote(chars[0]) + "*" }
            let bigrams = (0..<(chars.count - 1)).map { chars[$0] + chars[$0 + 1] }
            return quote(bigrams.joined(separator: " ")) + star
        }
    }

    private func variantExpression(_ v: TypoVariant, prefix: Bool) -> String {
        quote(v.text) + (v.prefix && prefix ? "*" : "")
    }

    /// A compound's phrases with typos stop at this many (the product of its parts' variants can be large).
    static let maxPhrases = 32

    /// The phrases of a compound's parts with at least one part replaced by one of its variants of at most
    /// `maxTypos` edits, with their edits; a phrase's last part is a prefix while typing (FTS5 puts `*` after the
    /// phrase).
    private func typoPhrases(maxTypos: Int, prefix: Bool) -> [(phrase: String, distance: Int)] {
        guard case .compound(let parts, _) = kind, partVariants.contains(where: { !$0.isEmpty }) else { return [] }
        var phrases: [[String]] = [[]]
        var replaced: [Int] = [0], distances: [Int] = [0]
        for (k, part) in parts.enumerated() {
            let variants = k < partVariants.count ? partVariants[k].filter { $0.distance <= maxTypos } : []
            var next: [[String]] = [], nextReplaced: [Int] = [], nextDistances: [Int] = []
            for (i, phrase) in phrases.enumerated() {
                next.append(phrase + [part]); nextReplaced.append(replaced[i]); nextDistances.append(distances[i])
                for v in variants where next.count < Self.maxPhrases * 4 {
                    next.append(phrase + [v.text]); nextReplaced.append(replaced[i] + 1);
                    nextDistances.append(distances[i] + v.distance)
                }
            }
            (phrases, replaced, distances) = (next, nextReplaced, nextDistances)
        }
        let star = prefix ? "*" : ""
        return phrases.indices.filter { replaced[$0] > 0 }.sorted { replaced[$0] < replaced[$1] }.prefix(
            Self.maxPhrases
        )
        .map { (quote(phrases[$0].joined(separator: " ")) + star, distances[$0]) }
    }

    /// The typo distance of each phrase of `expression(wholeWords:maxTypos:)`, in the order FTS5 numbers them.
    func phraseDistances(wholeWords: Bool = false, maxTypos: Int = Int.max) -> [Int] {
        let prefix = self.prefix && !wholeWords
        switch kind {
        case .plain:
            let head = ((prefix ? completions?.count : nil) ?? 1) + (stem == nil ? 0 : 1) + (latin == nil ? 0 : 1)
            return Array(repeating: 0, count: head) + plainVariants.filter { $0.distance <= maxTypos }.map(\.distance)
        case .compound:
            return [0, 0] + alternatives.map { _ in 0 }
                + typoPhrases(maxTypos: maxTypos, prefix: prefix).map(\.distance)
        case .cjk: return [0]
        }
    }

    private func quote(_ s: String) -> String {
        s.utf8.contains(0x22) ? "\"" + s.replacingAll("\"", "\"\"") + "\"" : "\"" + s + "\""
    }

    /// Whether this term matches a column's index terms, and with how many typos: the column matches `expression`.
    ///
    /// Compares UTF-8 bytes without allocating for plain words: this runs for every term, column and candidate read.
    func match(_ terms: TermList, wholeWords: Bool = false) -> Int? {
        let prefix = self.prefix && !wholeWords
        switch kind {
        case .plain:
            // A prefix expanded into its completions matches the vocabulary words it starts, which are every
            // indexed word without digits that starts with it (`PrefixExpansion`).
            if prefix && completions != nil {
                if terms.contains(bytes[0], prefix: true, withoutDigits: true) { return 0 }
            } else if terms.contains(bytes[0], prefix: prefix) {
                return 0
            }
            if let stem, terms.contains(stem, prefix: false) { return 0 }
            if let latin, terms.contains(latin, prefix: prefix) { return 0 }
            var best: Int?
            for v in plainVariants
            where v.distance < (best ?? Int.max) && terms.contains(v.bytes, prefix: v.prefix && prefix) {
                best = v.distance
            }
            return best
        case .compound:
            if terms.contains(bytes[0], prefix: prefix) { return 0 }
            if terms.containsPhrase(bytes[1...], lastIsPrefix: false) { return 0 }
            if alternativeBytes.contains(where: { terms.contains($0, prefix: prefix) }) { return 0 }
            return partVariants.contains(where: { !$0.isEmpty }) ? typoPhraseMatch(terms, prefix: prefix) : nil
        case .cjk:
            if bytes.count == 1 { return terms.contains(bytes[0], prefix: true) ? 0 : nil }
            return terms.containsPhrase(bytes[...], lastIsPrefix: prefix) ? 0 : nil
        }
    }

    /// The fewest typos of a compound's parts side by side in the column, each part as typed or one of its variants
    /// (the last one as a prefix while typing, like the phrase of `expression`), or nil.
    private func typoPhraseMatch(_ terms: TermList, prefix: Bool) -> Int? {
        let parts = Array(bytes[1...])
        var ranges: [Range<Int>] = []
        terms.forEachTerm {
            ranges.append($0); return true
        }
        guard ranges.count >= parts.count else { return nil }
        var best: Int?
        for start in 0...(ranges.count - parts.count) {
            var total = 0
            for (k, part) in parts.enumerated() {
                let last = prefix && k == parts.count - 1
                if terms.term(ranges[start + k], is: part, prefix: last) { continue }
                let variants = k < partVariants.count ? partVariants[k] : []
                guard
                    let v = variants.filter({ terms.term(ranges[start + k], is: $0.bytes, prefix: last) }).map(
                        \.distance
                    ).min()
                else { total = Int.max; break }
                total += v
            }
            if total != Int.max { best = min(best ?? total, total) }
        }
        return best
    }
}

/// The space-separated index terms of one column, as UTF-8, borrowed from a row being read (or from a caller's
/// buffer): valid only while that row or buffer is.
struct TermList {
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Calls `body` with the terms of `terms` joined by spaces.
    static func with<T>(_ terms: [String], _ body: (TermList) -> T) -> T {
        var text = terms.joined(separator: " ")
        return text.withUTF8 { body(TermList($0)) }
    }

    /// Calls `body` with each term's byte range, in order, until it returns false.
    @inline(__always) func forEachTerm(_ body: (Range<Int>) -> Bool) {
        var start = 0
        let n = bytes.count
        for i in 0...n where i == n || bytes[i] == 0x20 {
            if i > start, !body(start..<i) { return }
            start = i + 1
        }
    }

    /// Whether the term in `range` equals `word`, or starts with it when `prefix`.
    @inline(__always) func term(_ range: Range<Int>, is word: [UInt8], prefix: Bool) -> Bool {
        let n = word.count
        guard n > 0, prefix ? range.count >= n : range.count == n, let base = bytes.baseAddress else { return false }
        return word.withUnsafeBufferPointer { memcmp(base + range.lowerBound, $0.baseAddress!, n) == 0 }
    }

    /// Whether some term equals `word`, or starts with it when `prefix` (and has no digit 0–9, with
    /// `withoutDigits`).
    func contains(_ word: [UInt8], prefix: Bool, withoutDigits: Bool = false) -> Bool {
        var found = false
        forEachTerm { r in
            found =
                term(r, is: word, prefix: prefix)
                && !(withoutDigits && bytes[r].contains { $0 >= 0x30 && $0 <= 0x39 })
            return !found
        }
        return found
    }

    /// Whether `words` occur as consecutive terms (FTS5's phrase), the last one as a prefix with `lastIsPrefix`.
    func containsPhrase(_ words: ArraySlice<[UInt8]>, lastIsPrefix: Bool) -> Bool {
        guard let first = words.first else { return false }
        var ranges: [Range<Int>] = []
        forEachTerm {
            ranges.append($0); return true
        }
        let n = words.count
        guard ranges.count >= n else { return false }
        for start in 0...(ranges.count - n) where term(ranges[start], is: first, prefix: lastIsPrefix && n == 1) {
            var all = true
            for (offset, word) in words.enumerated().dropFirst()
            where !term(ranges[start + offset], is: word, prefix: lastIsPrefix && offset == n - 1) {
                all = false
                break
            }
            if all { return true }
        }
        return false
    }
}

/// A parsed search string.
struct SearchQuery: Sendable {
    /// Words past this many are ignored (a pasted paragraph must not become a 10,000-term query).
    static let maxTerms = 32
    /// A query longer than this many bytes is cut (at the last space before, else at a character) before it is
    /// analyzed: analysis costs time and memory in proportion to the text, and words past `maxTerms` are ignored.
    public static let maxQueryBytes = 8192
    /// The longest code (an id or a word with digits, as typed) looked up by its fragments in the trigram index; a
    /// longer one is matched only as a whole word or id (the trigram lookup grows with its length).
    public static let maxCodeLength = 64

    var raw: String
    /// Whether `raw` was cut at `maxQueryBytes`.
    var wasCut = false
    var terms: [QueryTerm]
    /// The query as an id key (`#1042-A` → `1042a`), for the exact-id tier.
    var idKey: String
    var idKeyBytes: [UInt8]
    /// Normalized tokens of the whole query, for the exactness tier.
    var tokens: [String]
    var tokenBytes: [[UInt8]]
    /// The tokens joined by spaces, as `search_doc.title_plain` holds a title's, and their `name_key` hash.
    var plainKey: String
    var nameKey: Int64?
    /// Each term's normalized tokens and its words as typed, for a query over fewer of its words (`keeping`).
    var termTokens: [[String]] = []
    var termText: [String] = []

    init(_ text: String) {
        let raw = Self.cut(text)
        self.raw = raw
        wasCut = raw.utf8.count < text.utf8.count
        let words = TextAnalyzer.words(raw)
        let utf8 = Array(raw.utf8)
        let phones = Self.phoneNumbers(words, utf8)
        var terms: [QueryTerm] = []
        var skipUntil = 0
        for (index, word) in words.prefix(Self.maxTerms).enumerated() where index >= skipUntil {
            if let phone = phones.first(where: { $0.words.lowerBound == index }) {
                terms.append(phone.term)
                skipUntil = phone.words.upperBound
                termTokens.append(words[phone.words].flatMap { $0.tokens.map(\.text) })
                termText.append(Self.text(utf8, words[phone.words]))
                continue
            }
            termTokens.append(word.tokens.map(\.text))
            termText.append(Self.text(utf8, words[index...index]))
            switch word {
            case .plain(let t):
                // `iphone15` also finds `iPhone 15`: a word of letters and digits matches its runs side by side. Not
                // when a run is a single character (`c2`, `a1042`): the phrase would read the long lists of `c` or
                // `a` for matches that are rarely meant.
                let parts = TextAnalyzer.letterDigitParts(t)
                let split = parts.count > 1 && parts.allSatisfy { $0.count >= 2 }
                terms.append(
                    QueryTerm(kind: split ? .compound(parts: parts, joined: t.text) : .plain(t.text), prefix: false))
            case .compound(let parts):
                let texts = parts.map(\.text)
                terms.append(
                    QueryTerm(kind: .compound(parts: texts, joined: texts.joined()), prefix: false, typoInParts: true))
            case .cjk(let chars): terms.append(QueryTerm(kind: .cjk(chars.map(\.text)), prefix: false))
            }
        }
        // Typing in progress: the last word is a prefix unless the query ends with a space.
        if !terms.isEmpty, let last = raw.unicodeScalars.last, !last.properties.isWhitespace,
            words.count <= Self.maxTerms, !wasCut
        {
            terms[terms.count - 1].prefix = true
        }
        self.terms = terms
        self.tokens = words.flatMap { $0.tokens.map(\.text) }
        self.tokenBytes = tokens.map { Array($0.utf8) }
        self.idKey = self.tokens.joined()
        self.idKeyBytes = Array(idKey.utf8)
        self.plainKey = tokens.joined(separator: " ")
        self.nameKey = DocumentRank.nameKey(plainKey)
    }

    var isEmpty: Bool { terms.isEmpty }

    /// Whether words side by side in the title rank before the same words apart (`Ranker.adjacent(_:)`): a query of
    /// several words, each a plain word (a compound, a phone number or a CJK run is a phrase already).
    var ranksAdjacency: Bool {
        terms.count > 1 && terms.allSatisfy { if case .plain = $0.kind { true } else { false } }
    }

    /// The text of `words` as typed (`utf8`: the query's), from the first one's start to the last one's end.
    private static func text(_ utf8: [UInt8], _ words: ArraySlice<Word>) -> String {
        guard let first = words.first, let last = words.last else { return "" }
        return String(decoding: utf8[first.start..<last.end], as: UTF8.self)
    }

    /// Whether the query is a code to look up by its fragments: one word with a digit, of 3 to `maxCodeLength`
    /// characters.
    var searchesCodes: Bool {
        let n = idKey.unicodeScalars.count
        return n >= 3 && n <= Self.maxCodeLength && idKey.hasASCIIDigit
    }

    /// The first `maxQueryBytes` of `text`, ending at a space when there is one, else at a character boundary.
    static func cut(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > maxQueryBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maxQueryBytes)
        // Back to the start of a character: a UTF-8 continuation byte is 0b10xxxxxx.
        while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        let head = text.unicodeScalars[..<end]
        if let space = head.lastIndex(where: { $0.properties.isWhitespace }), space > head.startIndex {
            return String(head[..<space])
        }
        return String(head)
    }

    /// The FTS5 MATCH expression: every term must match (implicit AND).
    var expression: String { terms.map { $0.expression() }.joined(separator: " AND ") }
}
