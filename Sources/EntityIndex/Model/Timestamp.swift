/// Milliseconds since 1970-01-01T00:00:00Z, and the ISO-8601 forms the contract uses.
///
/// Parsing is strict: `YYYY-MM-DDTHH:MM[:SS[.fff…]]` followed by `Z` or `±hh:mm` (a zone is required, since a
/// date-time without one means different instants on different devices).
public enum Timestamp {
    public static let day: Int64 = 86_400_000

    /// The start (UTC midnight) of a day written `YYYY-MM-DD` and nothing else; nil otherwise. A filter on a date
    /// property reads such a value as that whole day.
    public static func parseDay(_ text: String) -> Int64? {
        guard text.utf8.count == 10 else { return nil }
        return parse(text + "T00:00:00Z")
    }

    /// Parses an ISO-8601 date-time with a zone; nil when malformed.
    public static func parse(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = b[i + k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            i += n
            return v
        }
        func expect(_ c: Character) -> Bool {
            guard i < b.count, b[i] == c.asciiValue! else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let dayOfMonth = digits(2) else {
            return nil
        }
        guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ") else {
            return nil
        }
        i += 1
        guard let hour = digits(2), expect(":"), let minute = digits(2) else { return nil }
        var second = 0, millis = 0
        if expect(":") {
            guard let s = digits(2) else { return nil }
            second = s
            if expect(".") || expect(",") {
                var scale = 100, any = false
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    millis += Int(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                    any = true
                }
                guard any else { return nil }
            }
        }
        var offset = 0
        if expect("Z") || expect("z") {
        } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = digits(2) else { return nil }
            _ = expect(":")
            guard let om = digits(2), oh < 24, om < 60 else { return nil }
            offset = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        guard (1...12).contains(month), dayOfMonth >= 1, dayOfMonth <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: dayOfMonth)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        return seconds * 1000 + Int64(millis)
    }

    /// Formats as `2026-03-02T09:00:00Z` (with `.mmm` when there are milliseconds).
    public static func format(_ ms: Int64) -> String {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        let millis = Int(ms - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rem = Int(seconds - days * 86_400)
        let (y, m, d) = civilFromDays(Int(days))
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        var text =
            "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):\(pad(rem % 60, 2))"
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    /// One calendar month later, as Core Spotlight's default expiry ("one month"), clamping the day.
    public static func addingMonth(to ms: Int64) -> Int64 {
        let days = Int(ms >= 0 ? ms / day : (ms - day + 1) / day)
        let within = ms - Int64(days) * day
        var (y, m, d) = civilFromDays(days)
        m += 1
        if m > 12 { m = 1; y += 1 }
        d = min(d, daysIn(month: m, year: y))
        return Int64(daysFromCivil(year: y, month: m, day: d)) * day + within
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
