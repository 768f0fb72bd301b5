import JSON
import System

/// Finds the spans of the original text that a search matched, field by field.
///
/// Offsets are in UTF-16 code units (what JavaScript's `String.prototype.slice` takes), and each span carries the
/// matched text too, so that any client can use them. Each span is charged to the request's result budget, and a
/// stop signal ends the work between words.
struct Highlighter {
    var query: SearchQuery
    /// The types whose text is stemmed (`Stemming`): a word of theirs is also marked when its stem matched.
    var stemmed: Set<String> = []
    /// The types whose text is transliterated (`Transliteration`): a word of theirs is also marked when its Latin
    /// form matched.
    var transliterated: Set<String> = []

    /// About what a span adds to the encoded response besides its field name and text (`{"field":…}`).
    static let spanOverhead = 40

    func highlights(_ record: JSONObject, budget: ResultBudget) throws(EntityIndexError) -> [Highlight] {
        var tracker = MatchTracker(count: query.terms.count)
        return try marks(record, budget: budget, tracker: &tracker)
    }

    /// The spans of `record` the search matched, and how it matched beyond the words as typed (`MatchTracker`).
    func marks(_ record: JSONObject, budget: ResultBudget) throws(EntityIndexError) -> (
        highlights: [Highlight], matchedBy: [String]
    ) {
        var tracker = MatchTracker(count: query.terms.count)
        let spans = try marks(record, budget: budget, tracker: &tracker)
        return (spans, tracker.matchedBy)
    }

    private func marks(_ record: JSONObject, budget: ResultBudget, tracker: inout MatchTracker)
        throws(EntityIndexError) -> [Highlight]
    {
        var spans: [Highlight] = []
        let type = record["type"]?.string ?? ""
        let stems = !stemmed.isEmpty && stemmed.contains(type)
        let latin = !transliterated.isEmpty && transliterated.contains(type)
        // Linear in the text: the UTF-16 offset is carried from one span to the next, not counted from the start.
        func scan(_ field: String, _ text: String) throws(EntityIndexError) {
            let utf8 = Array(text.utf8)
            tracker.field = field == "title" ? .title : field.hasPrefix("synonyms[") ? .synonym : .other
            // The description is not transliterated (`SearchDocument`).
            let found = try ranges(text, utf8, stems: stems, latin: latin && field != "description", tracker: &tracker)
            guard !found.isEmpty else { return }
            var position = 0
            var units = 0
            for (start, end) in found.sorted(by: { $0.0 < $1.0 }) {
                if start < position {
                    position = 0
                    units = 0
                }
                units += Self.utf16Count(utf8[position..<start])
                position = start
                let length = Self.utf16Count(utf8[start..<end])
                try budget.charge(Self.spanOverhead + field.utf8.count + end - start)
                spans.append(
                    Highlight(
                        field: field, start: units, end: units + length,
                        text: String(decoding: utf8[start..<end], as: UTF8.self)))
            }
        }
        for field in ["title", "subtitle", "description"] {
            if let text = record[field]?.string { try scan(field, text) }
        }
        for field in ["synonyms", "keywords"] {
            for (i, item) in (record[field]?.array ?? []).enumerated() {
                if let text = item.string { try scan("\(field)[\(i)]", text) }
            }
        }
        for (name, value) in record["properties"]?.object ?? JSONObject() {
            if let text = value.string { try scan("properties.\(name)", text) }
            for (i, item) in (value.array ?? []).enumerated() {
                if let text = item.string { try scan("properties.\(name)[\(i)]", text) }
            }
        }
        return spans
    }

    /// Where the CJK term `q` (its characters) matches a run of characters `texts`: the index of each first
    /// character; the last character as a prefix while typing.
    static func cjkMatches(_ q: [String], prefix: Bool, in texts: [String]) -> [Int] {
        (0..<texts.count).filter { i in
            guard i + q.count <= texts.count else { return false }
            let window = texts[i..<(i + q.count)]
            return q.count == 1
                ? window.first == q[0]
                : zip(window, q).enumerated().allSatisfy { k, pair in
                    pair.0 == pair.1 || (prefix && k == q.count - 1 && pair.0.hasPrefix(pair.1))
                }
        }
    }

    /// How many UTF-16 code units the UTF-8 bytes encode: one per character, two for one of 4 bytes.
    static func utf16Count(_ bytes: ArraySlice<UInt8>) -> Int {
        var n = 0
        for b in bytes where b & 0xC0 != 0x80 { n += b >= 0xF0 ? 2 : 1 }
        return n
    }

    /// A long text is analyzed in pieces of about this many bytes, cut before a space, a line end, an ideographic
    /// space or an ideographic full stop (no word spans one), so that a stop signal is seen between pieces and the
    /// tokens of one piece are held at a time.
    static let pieceBytes = 32 << 10

    /// Whether a piece may end before `utf8[i]`.
    static func isCut(_ utf8: [UInt8], _ i: Int) -> Bool {
        switch utf8[i] {
        case 0x20, 0x0A, 0x09, 0x0D: return true
        case 0xE3: return i + 2 < utf8.count && utf8[i + 1] == 0x80 && (utf8[i + 2] == 0x80 || utf8[i + 2] == 0x82)
        default: return false
        }
    }

    /// Byte ranges of `text` (whose UTF-8 bytes are `utf8`) matched by any query term.
    func ranges(_ text: String, _ utf8: [UInt8], stems: Bool = false, latin: Bool = false) throws(EntityIndexError)
        -> [(Int, Int)]
    {
        var tracker = MatchTracker(count: query.terms.count)
        return try ranges(text, utf8, stems: stems, latin: latin, tracker: &tracker)
    }

    func ranges(
        _ text: String, _ utf8: [UInt8], stems: Bool, latin: Bool = false, tracker: inout MatchTracker
    ) throws(EntityIndexError) -> [(Int, Int)] {
        guard utf8.count > Self.pieceBytes else {
            return try pieceRanges(text, stems: stems, latin: latin, tracker: &tracker)
        }
        var result: [(Int, Int)] = []
        var start = 0
        while start < utf8.count {
            var end = min(start + Self.pieceBytes, utf8.count)
            while end < utf8.count, !Self.isCut(utf8, end) { end += 1 }
            let piece = String(decoding: utf8[start..<end], as: UTF8.self)
            for (from, to) in try pieceRanges(piece, stems: stems, latin: latin, tracker: &tracker) {
                result.append((from + start, to + start))
            }
            try StopSignal.check("highlighting the results")
            start = end
        }
        return result
    }

    /// Byte ranges of `text` matched by any query term, analyzing it whole.
    private func pieceRanges(_ text: String, stems: Bool, latin: Bool, tracker: inout MatchTracker)
        throws(EntityIndexError) -> [(Int, Int)]
    {
        var result: [(Int, Int)] = []
        let utf8 = Array(text.utf8)
        let words = TextAnalyzer.words(text, document: true)
        for (n, word) in words.enumerated() {
            if n & 255 == 255 { try StopSignal.check("highlighting the results") }
            var terms: [String] = []
            TextAnalyzer.appendIndexTerms(word, in: utf8, to: &terms)
            let stemmed = stems ? Stemming.stemTerms(terms) : []
            var hit = false
            TermList.with(terms) { list in
                for (t, term) in query.terms.enumerated() {
                    guard let typos = term.match(list) else { continue }
                    hit = true
                    tracker.matched(t, typos > 0 ? .typo : nil)
                }
            }
            if !stemmed.isEmpty {
                TermList.with(terms + stemmed) { list in
                    for (t, term) in query.terms.enumerated() where term.stem != nil && term.match(list) == 0 {
                        if TermList.with(terms, { term.match($0) }) == nil {
                            hit = true
                            tracker.matched(t, .stem)
                        }
                    }
                }
            }
            if latin, case let forms = Transliteration.latinTerms(terms), !forms.isEmpty {
                // The native word is marked when its Latin form matched and the word as written did not.
                TermList.with(forms) { list in
                    for (t, term) in query.terms.enumerated() where term.latin != nil && term.match(list) == 0 {
                        if TermList.with(terms, { term.match($0) }) == nil {
                            hit = true
                            tracker.matched(t, .transliteration)
                        }
                    }
                }
            }
            if latin, case .cjk(let chars) = word {
                result += readingRanges(chars, utf8, written: terms, tracker: &tracker)
            }
            guard hit else { continue }
            if case .cjk(let chars) = word {
                // Mark only the characters of the matched CJK words.
                var marked = [Bool](repeating: false, count: chars.count)
                let texts = chars.map(\.text)
                for term in query.terms {
                    guard case .cjk(let q) = term.kind else { continue }
                    for i in Self.cjkMatches(q, prefix: term.prefix, in: texts) {
                        for k in i..<(i + q.count) { marked[k] = true }
                    }
                }
                var i = 0
                while i < chars.count {
                    guard marked[i] else { i += 1; continue }
                    var j = i
                    while j + 1 < chars.count, marked[j + 1] { j += 1 }
                    result.append((chars[i].start, chars[j].end))
                    i = j + 1
                }
            } else if result.last.map({ $0 != (word.start, word.end) }) ?? true {
                // A spelled-out variant follows its word over the same span: one highlight for both.
                result.append((word.start, word.end))
            }
        }
        result += numberRanges(words, utf8, tracker: &tracker)
        return result
    }

    /// The spans of numbers written in groups that a term matched by their joined digits or national form, which
    /// no single word holds (`0612345678` marks the whole of `+33 6 12 34 56 78`): from the first group the joined
    /// form starts at (its `+` included) to the number's end.
    private func numberRanges(_ words: [Word], _ utf8: [UInt8], tracker: inout MatchTracker) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        var run: [Word] = []
        func isNumber(_ w: Word) -> Bool { w.tokens.allSatisfy { $0.hasDigit && !$0.hasLetter && !$0.isCJK } }
        func end() {
            defer { run.removeAll() }
            guard run.count > 1 else { return }
            var codes: [String] = []
            for k in 0..<(run.count - 1) {
                var joined: [String] = []
                TextAnalyzer.appendNumberTerms(Array(run[k...]), in: utf8, terms: &joined, codes: &codes)
                // Suffixes of this run first (the one from group k is the longest), then national forms (whole run).
                let whole = k == 0 ? joined : Array(joined.prefix(1)).filter { $0.utf8.count >= 6 }
                guard !whole.isEmpty else { continue }
                let found = TermList.with(whole) { list in
                    query.terms.indices.filter { query.terms[$0].match(list) == 0 }
                }
                guard !found.isEmpty else { continue }
                for t in found { tracker.matched(t, .phone) }
                let start = run[k].start > 0 && utf8[run[k].start - 1] == 0x2B ? run[k].start - 1 : run[k].start
                result.append((start, run[run.count - 1].end))
                return
            }
        }
        for word in words {
            if !isNumber(word) || (run.last.map { !TextAnalyzer.continuesNumber(utf8, $0.end, word.start) } ?? false) {
                end()
            }
            if isNumber(word) { run.append(word) }
        }
        end()
        return result
    }
}

/// How the terms of a search matched one record, field by field: as typed, or only through a typo, a stem, the joined
/// digits or national form of a number, or the record's synonyms.
struct MatchTracker {
    enum Field { case title, synonym, other }
    enum Way: String { case typo, stem, phone, transliteration, reading }

    var field = Field.other
    private var typed: [Bool]
    private var ways: [Set<String>]
    private var inTitle: [Bool]
    private var inSynonym: [Bool]

    init(count: Int) {
        typed = Array(repeating: false, count: count)
        ways = Array(repeating: [], count: count)
        inTitle = typed
        inSynonym = typed
    }

    /// Term `t` matched a word of the current field, as typed (`way` nil) or only another way.
    mutating func matched(_ t: Int, _ way: Way?) {
        if let way { ways[t].insert(way.rawValue) } else { typed[t] = true }
        switch field {
        case .title: inTitle[t] = true
        case .synonym: inSynonym[t] = true
        case .other: break
        }
    }

    /// `synonym` when a term matched a synonym and not the title; `typo`, `stem`, `phone`, `transliteration`, `reading` for a
    /// term that matched nowhere as typed; sorted, empty when every term matched as typed.
    var matchedBy: [String] {
        var all = Set<String>()
        for t in typed.indices {
            if !typed[t] { all.formUnion(ways[t]) }
            if inSynonym[t] && !inTitle[t] { all.insert("synonym") }
        }
        return all.sorted()
    }
}
