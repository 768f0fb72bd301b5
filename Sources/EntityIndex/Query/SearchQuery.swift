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

    var kind: Kind
    /// The last term of a query that does not end in a space matches as a prefix (search as you type).
    var prefix: Bool
    /// Vocabulary words one or two edits away, filled in by the typo fallback.
    var variants: [String: Int] = [:]

    /// The text shown in explanations.
    var display: String {
        switch kind {
        case .plain(let t): return t
        case .compound(_, let joined): return joined
        case .cjk(let chars): return chars.joined()
        }
    }

    /// Typo tolerance applies to words of 5 letters or more, without digits, never to CJK or compounds.
    var typoBudget: Int {
        guard case .plain(let t) = kind, !t.contains(where: \.isNumber) else { return 0 }
        let n = t.count
        return n >= 9 ? 2 : (n >= 5 ? 1 : 0)
    }

    /// The FTS5 expression for this term; every piece of text is quoted, so no input can be an operator.
    var expression: String {
        let star = prefix ? "*" : ""
        switch kind {
        case .plain(let t):
            guard !variants.isEmpty else { return quote(t) + star }
            let alternatives = [quote(t) + star] + variants.keys.sorted().map(quote)
            return "(" + alternatives.joined(separator: " OR ") + ")"
        case .compound(let parts, let joined):
            // While typing, the joined form is the prefix (`1042-a` → `1042a*`); the split form is a plain phrase, as a
            // prefix on its last short part (`… a*`) would match half the vocabulary.
            return "(" + quote(joined) + star + " OR " + quote(parts.joined(separator: " ")) + ")"
        case .cjk(let chars):
            if chars.count == 1 { return quote(chars[0]) + "*" }
            let bigrams = (0..<(chars.count - 1)).map { chars[$0] + chars[$0 + 1] }
            return quote(bigrams.joined(separator: " ")) + star
        }
    }

    private func quote(_ s: String) -> String {
        "\"" + s.replacingAll("\"", "\"\"") + "\""
    }

    /// Whether this term matches a column's index terms, and with how many typos.
    ///
    /// Compares UTF-8 bytes: this runs for every term, column and candidate of a search.
    func match(_ terms: TermList) -> Int? {
        switch kind {
        case .plain(let t):
            if terms.contains(Array(t.utf8), prefix: prefix) { return 0 }
            var best: Int?
            for (variant, d) in variants where d < (best ?? Int.max) && terms.contains(Array(variant.utf8), prefix: false) {
                best = d
            }
            return best
        case .compound(let parts, let joined):
            if terms.contains(Array(joined.utf8), prefix: prefix) { return 0 }
            let allParts = parts.enumerated().allSatisfy { i, p in
                terms.contains(Array(p.utf8), prefix: prefix && i == parts.count - 1)
            }
            return allParts ? 0 : nil
        case .cjk(let chars):
            if chars.count == 1 { return terms.contains(Array(chars[0].utf8), prefix: true) ? 0 : nil }
            let ok = (0..<(chars.count - 1)).allSatisfy { i in
                terms.contains(Array((chars[i] + chars[i + 1]).utf8), prefix: prefix && i == chars.count - 2)
            }
            return ok ? 0 : nil
        }
    }
}

extension QueryTerm {
    /// How many of a column's terms this term matches (a term frequency, for relevance).
    func frequency(_ terms: TermList) -> Int {
        switch kind {
        case .plain(let t):
            let word = Array(t.utf8)
            return terms.count(word, prefix: prefix) + variants.keys.reduce(0) { $0 + terms.count(Array($1.utf8), prefix: false) }
        default:
            return match(terms) == nil ? 0 : 1
        }
    }
}

/// The space-separated index terms of one column, as UTF-8 byte ranges.
struct TermList {
    let bytes: [UInt8]
    let ranges: [Range<Int>]

    init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var ranges: [Range<Int>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x20 {
            if i > start { ranges.append(start..<i) }
            start = i + 1
        }
        if bytes.count > start { ranges.append(start..<bytes.count) }
        self.ranges = ranges
    }

    init(terms: [String]) { self.init(terms.joined(separator: " ")) }

    /// The terms as byte arrays.
    var words: [ArraySlice<UInt8>] { ranges.map { bytes[$0] } }

    /// How many terms equal `word`, or start with it when `prefix`.
    func count(_ word: [UInt8], prefix: Bool) -> Int {
        let n = word.count
        guard n > 0 else { return 0 }
        return bytes.withUnsafeBufferPointer { b in
            word.withUnsafeBufferPointer { w in
                ranges.reduce(0) { total, r in
                    guard prefix ? r.count >= n : r.count == n else { return total }
                    return total + (memcmp(b.baseAddress! + r.lowerBound, w.baseAddress!, n) == 0 ? 1 : 0)
                }
            }
        }
    }

    /// Whether some term equals `word`, or starts with it when `prefix`.
    func contains(_ word: [UInt8], prefix: Bool) -> Bool {
        let n = word.count
        guard n > 0 else { return false }
        return bytes.withUnsafeBufferPointer { b in
            word.withUnsafeBufferPointer { w in
                for r in ranges where prefix ? r.count >= n : r.count == n {
                    if memcmp(b.baseAddress! + r.lowerBound, w.baseAddress!, n) == 0 { return true }
                }
                return false
            }
        }
    }
}

/// A parsed search string.
struct SearchQuery: Sendable {
    /// Words past this many are ignored (a pasted paragraph must not become a 10,000-term query).
    static let maxTerms = 32

    var raw: String
    var terms: [QueryTerm]
    /// The query as an id key (`#1042-A` → `1042a`), for the exact-id tier.
    var idKey: String
    /// Normalized tokens of the whole query, for the exactness tier.
    var tokens: [String]
    var tokenBytes: [[UInt8]]

    init(_ raw: String) {
        self.raw = raw
        let words = TextAnalyzer.words(raw)
        var terms: [QueryTerm] = []
        for word in words.prefix(Self.maxTerms) {
            switch word {
            case .plain(let t): terms.append(QueryTerm(kind: .plain(t.text), prefix: false))
            case .compound(let parts):
                let texts = parts.map(\.text)
                terms.append(QueryTerm(kind: .compound(parts: texts, joined: texts.joined()), prefix: false))
            case .cjk(let chars): terms.append(QueryTerm(kind: .cjk(chars.map(\.text)), prefix: false))
            }
        }
        // Typing in progress: the last word is a prefix unless the query ends with a space.
        if !terms.isEmpty, let last = raw.unicodeScalars.last, !last.properties.isWhitespace,
            words.count <= Self.maxTerms
        {
            terms[terms.count - 1].prefix = true
        }
        self.terms = terms
        self.tokens = words.flatMap { $0.tokens.map(\.text) }
        self.tokenBytes = tokens.map { Array($0.utf8) }
        self.idKey = self.tokens.joined()
    }

    var isEmpty: Bool { terms.isEmpty }

    /// The FTS5 MATCH expression: every term must match (implicit AND).
    var expression: String { terms.map(\.expression).joined(separator: " AND ") }
}
