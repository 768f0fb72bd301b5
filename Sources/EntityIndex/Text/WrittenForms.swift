import JSON

/// The words of a record as written, found from the index terms they yield: the inverse of the analyzer, for
/// completions that show `Kaffeemühle` rather than `kaffeemuehle`.
enum WrittenForms {
    /// The spans of `text` (as written) whose word yields the index term `term`: a token that is the term, or whose
    /// spelled-out variant or letter/digit run it is, shows as the token (`Müller` for `mueller`, `iPhone15` for
    /// `iphone`); a compound's part as the part; a compound joined, or one of its path segments joined, as the
    /// compound or the segment with its connectors (`e-mail` for `email`); a CJK bigram as its two characters.
    static func spans(of term: String, in text: String) -> [String] {
        let utf8 = Array(text.utf8)
        func written(_ from: Int, _ to: Int) -> String { String(decoding: utf8[from..<to], as: UTF8.self) }
        func yields(_ token: Token) -> Bool {
            token.text == term || TextAnalyzer.letterDigitParts(token).contains(term)
        }
        var found: [String] = []
        for word in TextAnalyzer.words(text, document: true) {
            switch word {
            case .plain(let t):
                if yields(t) { found.append(written(t.start, t.end)) }
            case .compound(let parts):
                if let part = parts.first(where: yields) {
                    found.append(written(part.start, part.end))
                } else if parts.map(\.text).joined() == term {
                    found.append(written(word.start, word.end))
                } else if let segment = TextAnalyzer.segments(parts, utf8).first(where: {
                    parts[$0].map(\.text).joined() == term
                }) {
                    found.append(written(parts[segment.lowerBound].start, parts[segment.upperBound - 1].end))
                }
            case .cjk(let chars):
                for i in chars.indices
                where chars[i].text == term
                    || (i + 1 < chars.count && chars[i].text + chars[i + 1].text == term)
                {
                    found.append(written(chars[i].start, chars[min(i + 1, chars.count - 1)].end))
                    break
                }
            }
        }
        return found
    }

    /// The searchable strings of a stored record: its id, title, subtitle, description, synonyms, keywords and
    /// string properties.
    static func texts(of record: JSONObject) -> [String] {
        var texts: [String] = []
        for field in ["id", "title", "subtitle", "description"] {
            if let s = record[field]?.string { texts.append(s) }
        }
        for field in ["synonyms", "keywords"] { texts += (record[field]?.array ?? []).compactMap(\.string) }
        for (_, value) in record["properties"]?.object ?? JSONObject() { texts += SearchDocument.strings(value) }
        return texts
    }

    /// The form of `term` written most often in `records`, each record counted once per form (the first seen among
    /// equals), or nil when none holds it.
    static func mostWritten(_ term: String, in records: [JSONObject]) -> String? {
        var counts: [String: Int] = [:], order: [String] = []
        for record in records {
            var seen = Set<String>()
            for form in texts(of: record).flatMap({ spans(of: term, in: $0) }) where seen.insert(form).inserted {
                if counts[form] == nil { order.append(form) }
                counts[form, default: 0] += 1
            }
        }
        guard let most = counts.values.max() else { return nil }
        return order.first { counts[$0] == most }
    }
}
