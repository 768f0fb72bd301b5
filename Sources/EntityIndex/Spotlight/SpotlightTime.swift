import JSON

/// `$time` expressions: parsing and evaluation against the request's clock (`--now`).
///
/// Days, weeks, months and years are calendar units in UTC (the engine has no time zone of the caller); a week
/// starts on Monday (ISO 8601). `$time` is fixed when the query starts, as Core Spotlight fixes it.
extension SpotlightTime {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of Core Spotlight's numeric dates.
    public static let referenceDateSeconds: Double = 978_307_200

    /// Milliseconds since 1970 of a date written as seconds since 2001-01-01 (`CFAbsoluteTime`).
    public static func milliseconds(fromAbsoluteTime seconds: Double) -> Double {
        (seconds + referenceDateSeconds) * 1000
    }

    /// The instant this expression names, in milliseconds since 1970, at the clock `now`.
    public func milliseconds(now: Int64) -> Double {
        let day = Timestamp.day
        let days = Int(now >= 0 ? now / day : (now - day + 1) / day)
        let today = Int64(days) * day
        switch self {
        case .iso(let ms):
            return Double(ms)
        case .relative(let anchor, let offset):
            let n = Int(offset)
            switch anchor {
            case .now: return Double(now) + offset * 1000
            case .today: return Double(today + Int64(n) * day)
            case .yesterday: return Double(today + Int64(n - 1) * day)
            case .thisWeek, .lastWeek:
                // 1970-01-01 was a Thursday: days since a Monday are (days + 3) mod 7.
                let monday = Int64(days - ((days % 7 + 7 + 3) % 7)) * day
                return Double(monday + Int64(7 * (anchor == .lastWeek ? n - 1 : n)) * day)
            case .thisMonth, .thisYear:
                let (y, m, _) = Timestamp.civilFromDays(days)
                var months = y * 12 + (m - 1) + (anchor == .thisMonth ? n : 0)
                if anchor == .thisYear { months = (y + n) * 12 }
                let year = Int(floorDiv(months, 12)), month = months - year * 12 + 1
                return Double(
                    Int64(Timestamp.daysFromCivil(year: year, month: anchor == .thisYear ? 1 : month, day: 1)) * day)
            }
        }
    }

    private func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// An ISO-8601 date for `$time.iso(…)`: a date-time with a zone as records use, or a date (`2026-03-02`) or a
    /// date-time without a zone (`2026-03-02T09:00`), both read as UTC.
    static func parseISO(_ text: String) -> Int64? {
        if let ms = Timestamp.parse(text) { return ms }
        if text.utf8.count == 10, let ms = Timestamp.parse(text + "T00:00:00Z") { return ms }
        return Timestamp.parse(text + "Z")
    }
}

extension Parser {
    /// `$time.now`, `$time.today(-7)`, `$time.iso("2026-03-02")`, …
    mutating func parseTime() throws(SpotlightSyntaxError) -> SpotlightTime {
        let start = i
        let forms = SpotlightTime.Anchor.allCases.map(\.rawValue).joined(separator: ", ") + ", iso"
        guard take("$time.") else { throw fail("expected $time.FORM (\(forms)), found \(found)") }
        let nameStart = i
        while let c = peek(), c.isASCII, c.properties.isAlphabetic || c == "_" { i += 1 }
        let name = String(String.UnicodeScalarView(s[nameStart..<i]))
        if name == "iso" {
            guard take("(") else { throw fail("expected ( after $time.iso") }
            skipSpace()
            var text: String
            if let q = peek(), q == "\"" || q == "'" {
                guard let literal = try parseString().literal else {
                    throw fail("a $time.iso date has no wildcards", at: start)
                }
                text = literal
            } else {
                let from = i
                while let c = peek(), c != ")", !c.properties.isWhitespace { i += 1 }
                text = String(String.UnicodeScalarView(s[from..<i]))
            }
            skipSpace()
            guard take(")") else { throw fail("expected ) to close $time.iso(, found \(found)") }
            guard let ms = SpotlightTime.parseISO(text) else {
                throw fail(
                    "\(Quoting.quoted(text)) is not an ISO-8601 date (such as 2026-03-02 or 2026-03-02T09:00:00Z)",
                    at: start)
            }
            return .iso(ms)
        }
        guard let anchor = SpotlightTime.Anchor(rawValue: name) else {
            throw fail("unknown $time form \(Quoting.quoted(name)) (known: \(forms))", at: nameStart)
        }
        var offset = 0.0
        let save = i
        skipSpace()
        if take("(") {
            skipSpace()
            let numberStart = i
            offset = try parseNumber(after: "$time.\(name)(")
            if anchor != .now && offset != offset.rounded() {
                throw fail("expected a whole number in $time.\(name)(…)", at: numberStart)
            }
            guard abs(offset) <= 1e12 else {
                throw fail("the offset of $time.\(name) is out of range", at: numberStart)
            }
            skipSpace()
            guard take(")") else { throw fail("expected ) to close $time.\(name)(, found \(found)") }
        } else {
            i = save
        }
        if anchor != .now && abs(offset) > 1_000_000 {
            throw fail("the offset of $time.\(name) is out of range (at most 1000000)", at: start)
        }
        return .relative(anchor, offset: offset)
    }
}
