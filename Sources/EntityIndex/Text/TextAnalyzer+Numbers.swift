extension TextAnalyzer {
    // MARK: - Numbers written in groups

    /// The fewest digits of a number's joined forms: fewer would join the groups of dates, sizes and versions.
    static let minJoinedDigits = 6

    /// Appends the joined forms of a run of numbers (`number`, words of digits that each continue the one before,
    /// see `continuesNumber`, in the text `utf8`) to the terms and codes of a text.
    ///
    /// Each run of two groups or more that ends the number, longest last, when it has `minJoinedDigits` to
    /// `PhoneNumbers.maxJoinedDigits` digits: `030 1234 567` → `1234567`, `0301234567` (a number is typed from its
    /// start, or without its area or country code). A longer run (a size table, a list of years, numbers one after
    /// another) yields its groups and the joined forms of its end only, at most 16 terms of at most 17 digits, so
    /// that a text costs terms linear in its length: joining every suffix of a run of n groups was n terms of up to
    /// the whole run each (`1 2 … 8000` made 127 MB of terms). An international number (a `+` before its first
    /// digit, see `PhoneNumbers`) is also indexed in its national form (`+49 30 1234567` → `030`, `0301234567`),
    /// which is how the same number is written and typed inside its country.
    static func appendNumberTerms(_ number: [Word], in utf8: [UInt8], terms: inout [String], codes: inout [String]) {
        guard let first = number.first else { return }
        var emitted = Set<String>()
        var suffix = number.last!.tokens.map(\.text).joined()
        for word in number.dropLast().reversed() {
            suffix = word.tokens.map(\.text).joined() + suffix
            // Normalized digits are ASCII: a byte is a digit.
            if suffix.utf8.count > PhoneNumbers.maxJoinedDigits { break }
            guard suffix.utf8.count >= minJoinedDigits else { continue }
            terms.append(suffix)
            codes.append(suffix)
            emitted.insert(suffix)
        }
        // Each word has a digit: a run of more words than `PhoneNumbers.maxDigits` is no international number.
        guard first.start > 0, utf8[first.start - 1] == 0x2B, number.count <= PhoneNumbers.maxDigits else { return }
        let groups = number.flatMap { $0.tokens.map(\.text) }
        guard groups.joined().utf8.count >= PhoneNumbers.minDigits, let national = PhoneNumbers.national(groups)
        else { return }
        if let group = national.firstGroup, !groups.contains(group) { terms.append(group) }
        if !emitted.contains(national.digits), !terms.suffix(4 * number.count + 8).contains(national.digits) {
            terms.append(national.digits)
            codes.append(national.digits)
        }
    }

    /// True when the text between two offsets continues a number written in groups: only what separates the groups
    /// of a phone number (spaces, brackets, dashes, dots, slashes), or nothing. A `+` after one of those starts the
    /// next number instead, so that each number of a list of international ones (`+1 415 555 0100 +1 415 555 0199`)
    /// is read, and joined, on its own; a `+` right after a digit still joins (`1.9+20221223`, a version, is not a
    /// number followed by an international one).
    static func continuesNumber(_ utf8: [UInt8], _ from: Int, _ to: Int) -> Bool {
        guard to > from, to - from <= 4 else { return to == from }
        return utf8[from..<to].indices.allSatisfy { i in
            " ()-./".utf8.contains(utf8[i]) || (utf8[i] == 0x2B && i == from)
        }
    }
}
