extension SearchQuery {
    /// Whether the word being typed is a number (digits, with separators or not): then a field whose number is
    /// those digits whole (`1234567` in `030 1234567`, whose group-boundary suffixes are index terms) ranks before
    /// one whose number merely starts with them (`12345678`), inside the same field rank (`Ranker`, exactness).
    var ranksWholeNumbers: Bool {
        guard let last = terms.last, last.prefix else { return false }
        func digits(_ s: String) -> Bool { !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        switch last.kind {
        case .plain(let t): return digits(t)
        case .compound(_, let joined): return digits(joined)
        case .cjk: return false
        }
    }

    /// The international phone numbers of a query (a `+` before groups of digits with a calling code, see
    /// `PhoneNumbers`), each as one term over its words: its digits joined, its groups side by side, or its national
    /// form (`+49 30 1234567` finds `(030) 1234567` and `+49 30 1234567`). A number being typed may have fewer than
    /// `PhoneNumbers.minDigits` digits, but at least one after its calling code.
    static func phoneNumbers(_ words: [Word], _ utf8: [UInt8]) -> [(words: Range<Int>, term: QueryTerm)] {
        var found: [(words: Range<Int>, term: QueryTerm)] = []
        var i = 0
        func isNumber(_ w: Word) -> Bool { w.tokens.allSatisfy { $0.hasDigit && !$0.hasLetter && !$0.isCJK } }
        while i < min(words.count, Self.maxTerms) {
            let start = words[i].start
            guard isNumber(words[i]), start > 0, utf8[start - 1] == 0x2B else { i += 1; continue }
            var end = i + 1
            while end < min(words.count, Self.maxTerms), isNumber(words[end]),
                TextAnalyzer.continuesNumber(utf8, words[end - 1].end, words[end].start)
            {
                end += 1
            }
            let groups = words[i..<end].flatMap { $0.tokens.map(\.text) }
            if let national = PhoneNumbers.national(groups) {
                let joined = groups.joined()
                let parts = groups.count > 1 ? groups : [joined]
                found.append(
                    (
                        i..<end,
                        QueryTerm(
                            kind: .compound(parts: parts, joined: joined), prefix: false,
                            alternatives: national.digits == joined ? [] : [national.digits])
                    ))
            }
            i = end
        }
        return found
    }
}
