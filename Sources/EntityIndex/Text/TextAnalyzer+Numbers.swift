extension TextAnalyzer {
    // MARK: - Numbers written in groups

    /// Appends the joined forms of a run of numbers (`number`, words of digits with only phone separators between
    /// them, in the text `utf8`) to the terms and codes of a text.
    ///
    /// Each run of two groups or more that ends the number, longest last, when it has at least six digits:
    /// `030 1234 567` → `1234567`, `0301234567` (a number is typed from its start, or without its area or country
    /// code). An international number (a `+` before its first digit, see `PhoneNumbers`) is also indexed in its
    /// national form (`+49 30 1234567` → `030`, `0301234567`), which is how the same number is written and typed
    /// inside its country.
    static func appendNumberTerms(_ number: [Word], in utf8: [UInt8], terms: inout [String], codes: inout [String]) {
        guard let first = number.first else { return }
        var emitted = Set<String>()
        var suffix = number.last!.tokens.map(\.text).joined()
        for word in number.dropLast().reversed() {
            suffix = word.tokens.map(\.text).joined() + suffix
            guard suffix.utf8.count >= 6 else { continue }
            terms.append(suffix)
            codes.append(suffix)
            emitted.insert(suffix)
        }
        guard first.start > 0, utf8[first.start - 1] == 0x2B else { return }
        let groups = number.flatMap { $0.tokens.map(\.text) }
        guard groups.joined().utf8.count >= PhoneNumbers.minDigits, let national = PhoneNumbers.national(groups)
        else { return }
        if let group = national.firstGroup, !groups.contains(group) { terms.append(group) }
        if !emitted.contains(national.digits), !terms.suffix(4 * number.count + 8).contains(national.digits) {
            terms.append(national.digits)
            codes.append(national.digits)
        }
    }

    /// True when only what separates the groups of a phone number stands between two offsets.
    static func onlyPhoneSeparators(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        guard to > from, to - from <= 4 else { return to == from }
        return utf8[from..<to].allSatisfy { " ()-./+".utf8.contains($0) }
    }
}
