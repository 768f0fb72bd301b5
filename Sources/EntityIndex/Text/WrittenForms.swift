import JSON

/// The words of a record as written, found from the index terms they yield: the inverse of the analyzer, for
/// completions that show `Kaffeemühle` rather than `kaffeemuehle`.
enum WrittenForms {
    /// The longest CJK run offered whole as a completion: a longer one is a phrase or a sentence, not a word.
    static let maxRunCharacters = 12

    /// What a typed prefix asks to be completed besides plain words: codes (ids, words with digits) when it has a
    /// digit; the parts of e-mail and web addresses when it has an `@` or a `.`.
    struct Scope: Sendable, Equatable {
        var codes: Bool
        var addresses: Bool
        /// The normalized characters of a CJK run being typed, which an offered run starts with.
        var run: [String] = []

        /// Plain words only.
        static let words = Scope(codes: false, addresses: false)

        /// The scope that `typed` (the word being typed, as typed) asks for.
        init(typed: String) {
            codes = typed.unicodeScalars.contains { $0.properties.generalCategory == .decimalNumber }
            addresses = typed.unicodeScalars.contains { $0 == "@" || $0 == "." || $0 == "\u{FF20}" || $0 == "\u{FF0E}" }
        }

        init(codes: Bool, addresses: Bool) {
            self.codes = codes
            self.addresses = addresses
        }
    }

    /// The spans of `text` (as written) whose word yields the index term `term`: a token that is the term, or whose
    /// spelled-out variant or letter/digit run it is, shows as the token (`Müller` for `mueller`, `iPhone15` for
    /// `iphone`); a compound's part as the part; a compound joined, or one of its path segments joined, as the
    /// compound or the segment with its connectors (`e-mail` for `email`); a CJK run as the whole run, when the term
    /// starts it and it has at most `maxRunCharacters` characters (`メロン` for `めろ`, never the fragment `メロ`).
    ///
    /// Out of `scope`, a span with a digit, and a span inside an e-mail or web address (`juergen.weiss` in
    /// `juergen.weiss@example.com`), are left out: those are not words people type.
    static func spans(of term: String, in text: String, scope: Scope = Scope(codes: true, addresses: true))
        -> [String]
    {
        let utf8 = Array(text.utf8)
        func written(_ from: Int, _ to: Int) -> String { String(decoding: utf8[from..<to], as: UTF8.self) }
        func yields(_ token: Token) -> Bool {
            token.text == term || TextAnalyzer.letterDigitParts(token).contains(term)
        }
        var found: [String] = []
        func add(_ from: Int, _ to: Int) {
            let span = written(from, to)
            if !scope.codes && span.unicodeScalars.contains(where: { $0.properties.generalCategory == .decimalNumber })
            {
                return
            }
            if !scope.addresses && inAddress(utf8, from, to) { return }
            found.append(span)
        }
        for word in TextAnalyzer.words(text, document: true) {
            switch word {
            case .plain(let t):
                if yields(t) { add(t.start, t.end) }
            case .compound(let parts):
                // A compound with a digit is a code (`CAF-1000`), its letters too.
                if !scope.codes && parts.contains(where: \.hasDigit) { continue }
                if let part = parts.first(where: yields) {
                    add(part.start, part.end)
                } else if parts.map(\.text).joined() == term {
                    add(word.start, word.end)
                } else if let segment = TextAnalyzer.segments(parts, utf8).first(where: {
                    parts[$0].map(\.text).joined() == term
                }) {
                    add(parts[segment.lowerBound].start, parts[segment.upperBound - 1].end)
                }
            case .cjk(let chars):
                let starts = chars.count == 1 ? chars[0].text == term : chars[0].text + chars[1].text == term
                if starts && chars.count <= maxRunCharacters && chars.count >= scope.run.count
                    && zip(chars, scope.run).allSatisfy({ $0.text == $1 })
                {
                    add(chars[0].start, chars[chars.count - 1].end)
                }
            }
        }
        return found
    }

    /// Whether the bytes `from..<to` of `utf8` stand inside an e-mail or web address: the run of characters around
    /// them up to a space, a bracket, a quote, a comma or a semicolon holds an `@` or `://`.
    static func inAddress(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        func ends(_ b: UInt8) -> Bool { b <= 0x20 || "<>()[]\"',;".utf8.contains(b) }
        var start = from, end = to
        while start > 0, !ends(utf8[start - 1]) { start -= 1 }
        while end < utf8.count, !ends(utf8[end]) { end += 1 }
        let chunk = utf8[start..<end]
        if chunk.contains(0x40) { return true }
        var i = chunk.startIndex
        while i + 2 < chunk.endIndex {
            if chunk[i] == 0x3A && chunk[i + 1] == 0x2F && chunk[i + 2] == 0x2F { return true }
            i += 1
        }
        return false
    }

    /// The searchable strings of a stored record: its id (with `ids`), title, subtitle, description, synonyms,
    /// keywords and string properties.
    static func texts(of record: JSONObject, ids: Bool = true) -> [String] {
        var texts: [String] = []
        for field in ids ? ["id", "title", "subtitle", "description"] : ["title", "subtitle", "description"] {
            if let s = record[field]?.string { texts.append(s) }
        }
        for field in ["synonyms", "keywords"] { texts += (record[field]?.array ?? []).compactMap(\.string) }
        for (_, value) in record["properties"]?.object ?? JSONObject() { texts += SearchDocument.strings(value) }
        return texts
    }

    /// The forms of `term` written in `records`, most often first (`mostWritten`), each record counted once per
    /// form.
    static func allWritten(_ term: String, in records: [JSONObject], scope: Scope = Scope(codes: true, addresses: true))
        -> [String]
    {
        var counts: [String: Int] = [:], order: [String] = []
        for record in records {
            var seen = Set<String>()
            for form in texts(of: record, ids: scope.codes).flatMap({ spans(of: term, in: $0, scope: scope) })
            where seen.insert(form).inserted {
                if counts[form] == nil { order.append(form) }
                counts[form, default: 0] += 1
            }
        }
        return order.enumerated().sorted {
            counts[$0.element]! != counts[$1.element]!
                ? counts[$0.element]! > counts[$1.element]! : $0.offset < $1.offset
        }.map(\.element)
    }

    /// The form of `term` written most often in `records`, each record counted once per form (the first seen among
    /// equals), or nil when none holds it within `scope` (an id is read only when the scope takes codes).
    static func mostWritten(
        _ term: String, in records: [JSONObject], scope: Scope = Scope(codes: true, addresses: true)
    )
        -> String?
    {
        allWritten(term, in: records, scope: scope).first
    }
}
