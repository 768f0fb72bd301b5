internal import CEntityIdx

/// How a type's text also matches its words written in Latin letters (`declare --transliterate`): off by default.
///
/// A transliterated type's words in another script (Cyrillic, Greek, Arabic, Hebrew, Armenian, Georgian, Thai,
/// Devanagari…: any script ICU's `Any-Latin` reads, except Han, kana, Hangul and Bopomofo, which the index keeps one
/// character per token) are also indexed by their Latin form, made by ICU's `Any-Latin; Latin-ASCII` and then the
/// text pipeline's normalization; a Cyrillic word also by its `Russian-Latin/BGN` form, the spelling English text
/// uses (`Германия`: `germania` by Any-Latin's ISO 9, `germaniya` by BGN). Each form is marked so that it never meets a word as written (`смирнов` also yields
/// `\u{E001}smirnov`). A search also looks for each Latin word it is given, marked the same way (the last one as a
/// prefix while typing), so that `smirnov` finds `Смирнов` and `alexandros` finds `Αλέξανδρος` in a transliterated
/// type's entities, never in another type's. Like a stem, a match by the Latin form alone ranks as a whole word: in
/// the same tiers as the word as typed, and after it where the title's words decide (a title equal to the query, or
/// starting with it, comes first); it gets no typos.
public enum Transliteration: String, CaseIterable, Sendable {
    /// Words only as written (the default).
    case none
    /// Words of other scripts also by their Latin letters, in ASCII.
    case latin

    /// The names, as the parameter's errors list them (`none, latin`).
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What starts an index term that is a transliteration: a private-use character, which the tokenizer keeps in a
    /// term and the text pipeline never makes of a word (the stems' marker is the one before it).
    static let marker = "\u{E001}"
    static let markerBytes = Array(marker.utf8)

    /// Whether this ICU can build the transform (`Any-Latin; Latin-ASCII`).
    public static var isAvailable: Bool { eidx_transliterate_available() != 0 }

    /// The marked Latin forms of a normalized word (one, or two for Cyrillic when BGN spells it otherwise), empty
    /// when it has no letter of a transliterated script (ASCII words, CJK characters) or ICU cannot transliterate it.
    static func latinTerms(_ word: String) -> [String] {
        guard word.utf8.contains(where: { $0 >= 0x80 }), let latin = latin(word, Int32(EIDX_LATIN_ANY)) else {
            return []
        }
        // Each form normalized as any text is, its words joined: one native word stays one term.
        func term(_ text: String) -> String? {
            let joined = TextAnalyzer.tokens(text).map(\.text).joined()
            return joined.isEmpty ? nil : marker + joined
        }
        let forms = [term(latin), self.latin(word, Int32(EIDX_LATIN_RUSSIAN)).flatMap(term)].compactMap { $0 }
        return forms.count == 2 && forms[0] == forms[1] ? [forms[0]] : forms
    }

    /// The marked Latin forms of a column's terms, each once, in the order they first appear: appended after the
    /// column's terms (and stems), so that the positions of the words as written are those of a type without it.
    static func latinTerms(_ terms: [String]) -> [String] {
        var seen = Set<String>()
        return terms.flatMap { term in latinTerms(term).filter { seen.insert($0).inserted } }
    }

    /// ICU's Latin form of `text` (`form`: `EIDX_LATIN_ANY` or `EIDX_LATIN_RUSSIAN`), or nil (nothing to
    /// transliterate, or no transform).
    static func latin(_ text: String, _ form: Int32) -> String? {
        var text = text
        return text.withUTF8 { utf8 -> String? in
            var capacity = utf8.count * 4 + 32
            while true {
                var out = [CChar](repeating: 0, count: capacity)
                var length: Int32 = 0
                let rc = utf8.withMemoryRebound(to: CChar.self) {
                    eidx_transliterate($0.baseAddress, Int32($0.count), form, &out, Int32(capacity), &length)
                }
                if rc == -2 {
                    capacity = Int(length) + 16
                    continue
                }
                guard rc == 0 else { return nil }
                return String(decoding: out[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }

    /// The query word's marked form, for a plain word of ASCII letters (what a transliteration is made of).
    static func queryTerm(_ word: String) -> [UInt8]? {
        let utf8 = word.utf8
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 < 0x80 }), utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A })
        else { return nil }
        return markerBytes + Array(utf8)
    }
}

extension SearchQuery {
    /// The query with each plain Latin word's marked form (`QueryTerm.latin`), for an index that has a
    /// transliterated type.
    mutating func addTransliterations() {
        for i in terms.indices {
            guard case .plain(let word) = terms[i].kind, let latin = Transliteration.queryTerm(word) else { continue }
            terms[i].latin = latin
        }
    }
}
