/// Phone numbers written with a `+` and a country calling code, and their national form.
///
/// A number is a run of groups of digits separated by spaces, brackets, dashes, dots or slashes, up to the next `+`
/// (what `TextAnalyzer.indexTerms` reads as one number); it is international when a `+` stands right before its
/// first digit, its digits (calling code included) are `minDigits` to `maxDigits` (E.164's longest), and they start
/// with a calling code of `trunkPrefixes` (generated from libphonenumber's metadata by scripts/phone-codes.py). Its
/// national form is the country's trunk prefix followed by the rest: `+49 30 1234567` → `0301234567`,
/// `+44 20 7946 0958` → `02079460958`, and for countries that write no prefix nationally the rest alone:
/// `+1 415 555 0100` → `4155550100`, `+39 06 1234 5678` → `0612345678`. A trunk prefix written in brackets after the
/// calling code (`+49 (0)30 …`) is left out of the rest.
enum PhoneNumbers {
    /// The fewest digits of an international number in a record, its calling code included.
    static let minDigits = 8
    /// The most digits of an international number (E.164).
    static let maxDigits = 15
    /// The most digits of a number written in groups that are also indexed joined: E.164's 15 and a trunk prefix of
    /// up to two digits (Hungary's `06`). A longer run of groups is numbers one after another, not one number.
    static let maxJoinedDigits = maxDigits + 2

    /// An international number's national forms.
    struct National: Equatable {
        /// The trunk prefix and every digit after the calling code (`0301234567`).
        var digits: String
        /// The trunk prefix and the first group after the calling code, when the rest is written in several groups
        /// (`030` for `+49 30 1234567`), which a national number typed in groups starts with.
        var firstGroup: String?
    }

    /// The calling code `digits` starts with and its trunk prefix; calling codes are a prefix code, so at most one
    /// of the 1 to 3 digit prefixes is one.
    static func callingCode(_ digits: String) -> (code: String, trunk: String)? {
        for n in 1...3 where digits.utf8.count > n {
            let code = String(digits.prefix(n))
            if let trunk = trunkPrefixes[code] { return (code, trunk) }
        }
        return nil
    }

    /// The national form of an international number written as `groups` of digits (the first holds the calling
    /// code, alone or followed by the start of the rest), or nil when it has no calling code or no digit after it.
    /// `minDigits` is checked by the caller (a query being typed may have fewer).
    static func national(_ groups: [String]) -> National? {
        let all = groups.joined()
        guard all.utf8.count <= maxDigits, let (code, trunk) = callingCode(all) else { return nil }
        // The groups after the calling code; it may end inside a group (`+4930 1234567`).
        var rest: [String] = []
        var consumed = 0
        for group in groups {
            let n = group.utf8.count
            if consumed >= code.utf8.count {
                rest.append(group)
            } else if consumed + n > code.utf8.count {
                rest.append(String(group.dropFirst(code.utf8.count - consumed)))
            }
            consumed += n
        }
        if !trunk.isEmpty, rest.count > 1, rest[0] == trunk { rest.removeFirst() }
        guard !rest.isEmpty else { return nil }
        return National(digits: trunk + rest.joined(), firstGroup: rest.count > 1 ? trunk + rest[0] : nil)
    }
}
