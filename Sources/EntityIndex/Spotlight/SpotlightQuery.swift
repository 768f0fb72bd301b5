/// A parsed Core Spotlight query string (`CSSearchQuery(queryString:)`): predicates joined by `&&` and `||`.
///
/// The grammar, its sources and the points where we had to choose are in the README ("Core Spotlight queries").
public indirect enum SpotlightExpression: Sendable, Equatable {
    case and([SpotlightExpression])
    case or([SpotlightExpression])
    case predicate(SpotlightPredicate)
}

/// One comparison: `attribute op value[modifiers]`, or `InRange(attribute, low, high)`.
public struct SpotlightPredicate: Sendable, Equatable {
    public enum Op: String, Sendable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
        case inRange = "InRange"
    }
    public var attribute: String
    public var op: Op
    public var value: SpotlightValue
    /// The upper bound of `InRange` (its lower bound is `value`).
    public var high: SpotlightValue?
    public var modifiers: SpotlightModifiers
    /// Where the predicate starts in the query (1-based character).
    public var position: Int
}

/// A value: a string pattern, a number, or a `$time` expression (evaluated against the request's clock).
public enum SpotlightValue: Sendable, Equatable {
    case string(SpotlightPattern)
    case number(Double)
    case time(SpotlightTime)
}

/// A quoted string with its escapes resolved: literal runs and `*` wildcards.
public struct SpotlightPattern: Sendable, Equatable, CustomStringConvertible {
    public enum Part: Sendable, Equatable {
        case literal(String)
        case wildcard
    }
    public var parts: [Part]

    public init(_ parts: [Part]) {
        // Adjacent literals join and repeated wildcards collapse, so that every pattern has one form.
        var normalized: [Part] = []
        for part in parts {
            switch (normalized.last, part) {
            case (.literal(let a)?, .literal(let b)): normalized[normalized.count - 1] = .literal(a + b)
            case (.wildcard?, .wildcard): continue
            case (_, .literal(let s)) where s.isEmpty: continue
            default: normalized.append(part)
            }
        }
        self.parts = normalized
    }

    /// The pattern without wildcards, when it has none.
    public var literal: String? {
        switch parts.count {
        case 0: return ""
        case 1: if case .literal(let s) = parts[0] { return s }
        default: break
        }
        return nil
    }

    /// The pattern as it could be written again: wildcards as `*`, a literal `*` or `\` escaped.
    public var description: String {
        parts.map { part in
            switch part {
            case .wildcard: return "*"
            case .literal(let s):
                return s.replacingAll("\\", "\\\\").replacingAll("*", "\\*").replacingAll("\"", "\\\"")
            }
        }.joined()
    }
}

/// The string modifiers written after a quoted value (`"Paris"cdw`).
public struct SpotlightModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// `c`: case-insensitive.
    public static let caseInsensitive = SpotlightModifiers(rawValue: 1)
    /// `d`: diacritic-insensitive.
    public static let diacriticInsensitive = SpotlightModifiers(rawValue: 2)
    /// `w`: matches whole words of the value; a lower-to-upper case change also starts a word.
    public static let words = SpotlightModifiers(rawValue: 4)
    /// `t`: matches the search pipeline's tokens of the value.
    public static let tokenized = SpotlightModifiers(rawValue: 8)

    static let letters: [(Character, SpotlightModifiers)] = [
        ("c", .caseInsensitive), ("d", .diacriticInsensitive), ("w", .words), ("t", .tokenized),
    ]
}

/// A `$time` expression: a point relative to the request's clock, or an ISO-8601 date.
public enum SpotlightTime: Sendable, Equatable {
    public enum Anchor: String, Sendable, CaseIterable {
        case now, today, yesterday
        case thisWeek = "this_week", thisMonth = "this_month", thisYear = "this_year", lastWeek = "last_week"
    }
    /// `$time.today(-7)`: the anchor moved by `offset` of its unit (seconds for `now`, days, weeks, months, years).
    case relative(Anchor, offset: Double)
    /// `$time.iso(2026-03-02T09:00:00Z)`, as milliseconds since 1970.
    case iso(Int64)
}

/// An invalid query: where (1-based character) and what was expected there.
public struct SpotlightSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var position: Int
    public var problem: String
    public init(position: Int, problem: String) {
        self.position = position
        self.problem = problem
    }
    public var description: String { "invalid query at character \(position): \(problem)" }
}
