import SQLite

/// Translates a parsed query into one SQL condition on the entity row `e`, every value bound.
///
/// Text predicates take their candidates from `spotlight_key` (equality and prefixes), the full-text index (`t`) or
/// the attribute's values (a leading wildcard, `w`), and check each on the stored value (`SpotlightTranslator+Text`).
/// Numbers and dates are range scans on `property(name, num)` and on the entity's own indexed columns. Types and
/// domains, which are few, are matched in Swift and bound as a list.
struct SpotlightTranslator {
    let store: EntityStore
    /// The request's clock, milliseconds since 1970.
    let now: Int64
    /// Whether predicates are checked per entity (`e` comes from elsewhere, such as a driving predicate): each text
    /// or number predicate then looks its entity's rows up by key instead of collecting every match.
    var perEntity = false

    func translate(_ expression: SpotlightExpression) throws -> SQLFragment {
        switch expression {
        case .and(let terms), .or(let terms):
            var parts: [String] = [], arguments: [SQLValue] = []
            for term in terms {
                let f = try translate(term)
                parts.append(f.sql)
                arguments += f.arguments
            }
            let joiner: String
            if case .and = expression { joiner = " AND " } else { joiner = " OR " }
            return SQLFragment(sql: "(" + parts.joined(separator: joiner) + ")", arguments: arguments)
        case .predicate(let p):
            return try predicate(p)
        }
    }

    static let nothing = SQLFragment(sql: "0", arguments: [])

    /// A query split into a subquery of entity rowids that can drive it (a positive text or property predicate, alone,
    /// as a term of the top-level `&&`, or each term of a top-level `||`) and the condition the rest of it puts on `e`. Driving from the predicate's
    /// index lets a limit stop the reading early, instead of collecting every match to sort it by rowid first.
    func split(_ expression: SpotlightExpression) throws -> (driver: SQLFragment, rest: SQLFragment?)? {
        switch expression {
        case .predicate(let p):
            return try driver(p).map { ($0, nil) }
        case .and(let terms):
            // A driver that reads an index range first; else, when a date or ranking range of the entity itself can
            // drive, the caller checks every term per entity; else a driver that reads an attribute's every value.
            let drivers = try terms.enumerated().compactMap { i, term -> (Int, SQLFragment, Bool)? in
                guard case .predicate(let p) = term, let d = try driver(p) else { return nil }
                return (i, d, Self.scans(p))
            }
            let ranged = terms.contains { term in
                guard case .predicate(let p) = term, p.op != .notEqual else { return false }
                switch SpotlightAttribute(name: p.attribute) {
                case .date, .rankingHint: return true
                default: return false
                }
            }
            guard let (i, d, _) = drivers.first(where: { !$0.2 }) ?? (ranged ? nil : drivers.first) else { return nil }
            var rest = terms
            rest.remove(at: i)
            var checker = self
            checker.perEntity = true
            return (d, try checker.translate(rest.count == 1 ? rest[0] : .and(rest)))
        case .or(let terms):
            // An OR of predicates that each can drive: their matches one after the other (the caller's DISTINCT
            // drops an entity found twice), instead of testing every entity against each.
            // (At most 64: SQLite allows 500 terms in one compound SELECT.)
            guard terms.count <= 64 else { return nil }
            // (At most 64: SQLite allows 500 terms in one compound SELECT.)
            guard terms.count <= 64 else { return nil }
            var parts: [String] = [], arguments: [SQLValue] = []
            for term in terms {
                guard case .predicate(let p) = term else { return nil }
                // A term that matches nothing (an attribute no entity has) adds nothing.
                if p.op != .notEqual, try predicate(p).sql == Self.nothing.sql { continue }
                guard let d = try driver(p) else { return nil }
                parts.append("SELECT entity FROM (\(d.sql))")
                arguments += d.arguments
            }
            let union = parts.isEmpty ? "SELECT 0 AS entity WHERE 0" : parts.joined(separator: " UNION ALL ")
            return (SQLFragment(sql: union, arguments: arguments), nil)
        }
    }

    /// Whether a text predicate reads every value of its attribute (a leading wildcard, `w`, `t`).
    static func scans(_ p: SpotlightPredicate) -> Bool {
        guard case .string(let pattern) = p.value else { return false }
        return p.modifiers.contains(.tokenized) || p.modifiers.contains(.words) || pattern.parts.first == .wildcard
    }

    private func driver(_ p: SpotlightPredicate) throws -> SQLFragment? {
        guard p.op != .notEqual else { return nil }
        switch SpotlightAttribute(name: p.attribute) {
        case .text, .property: break
        default: return nil
        }
        let f = try predicate(p)
        let prefix = "e.rowid IN ("
        guard f.sql.hasPrefix(prefix), f.sql.hasSuffix(")") else { return nil }
        return SQLFragment(sql: String(f.sql.dropFirst(prefix.count).dropLast()), arguments: f.arguments)
    }

    func predicate(_ p: SpotlightPredicate) throws -> SQLFragment {
        let attribute = SpotlightAttribute(name: p.attribute)
        switch (attribute, p.value) {
        case (.text(let key), .string(let pattern)):
            return try textPredicate(key: key, pattern, p)
        case (.property(let name), .string(let pattern)):
            return try textPredicate(key: SpotlightAttribute.propertyKey(name), pattern, p)
        case (.property(let name), _):
            return propertyNumber(name, p)
        case (.type(let tree), .string(let pattern)):
            let matcher = SpotlightMatcher(pattern, modifiers: p.modifiers, tree: tree)
            let types = try distinctValues(column: "type").filter(matcher.matches)
            return list(column: "e.type", types, negated: p.op == .notEqual, nullable: false)
        case (.domain, .string(let pattern)):
            let matcher = SpotlightMatcher(pattern, modifiers: p.modifiers, tree: true)
            let domains = try distinctValues(column: "domain").filter(matcher.matches)
            return list(column: "e.domain", domains, negated: p.op == .notEqual, nullable: true)
        case (.id, .string(let pattern)):
            var condition: SQLFragment
            if p.modifiers.isEmpty {
                condition =
                    pattern.literal.map { SQLFragment(sql: "e.id = ?", arguments: [.text($0)]) }
                    ?? SQLFragment(sql: "e.id GLOB ?", arguments: [.text(Self.glob(pattern.parts))])
            } else {
                condition = SQLFragment(
                    sql: "spotlight_match(e.id, ?)", arguments: [.text(Self.spec(pattern, p.modifiers))])
            }
            if p.op == .notEqual { condition.sql = "NOT (\(condition.sql))" }
            return condition
        case (.date(let name), .number), (.date(let name), .time):
            guard let bounds = comparison(p, date: true) else { return Self.nothing }
            return column(name, bounds, p.op)
        case (.rankingHint, .number):
            guard let bounds = comparison(p, date: false) else { return Self.nothing }
            return column("ranking_hint", bounds, p.op)
        default:
            // A string compared with a number or date attribute, or a number or $time with a text one: no value
            // of the entity can be equal, so nothing matches (as for an attribute no entity has).
            return Self.nothing
        }
    }

    // MARK: - Patterns

    /// A pattern as a GLOB pattern: literal `*`, `?` and `[` in brackets.
    static func glob(_ parts: [SpotlightPattern.Part]) -> String {
        parts.map { part in
            switch part {
            case .wildcard: return "*"
            case .literal(let s):
                var out = ""
                for c in s.unicodeScalars {
                    switch c {
                    case "*": out += "[*]"
                    case "?": out += "[?]"
                    case "[": out += "[[]"
                    default: out.unicodeScalars.append(c)
                    }
                }
                return out
            }
        }.joined()
    }

    /// What `spotlight_match` receives: the modifiers, then the pattern written again.
    static func spec(_ pattern: SpotlightPattern, _ modifiers: SpotlightModifiers) -> String {
        "\(modifiers.rawValue):\(pattern)"
    }

    // MARK: - Lists of values

    /// The distinct values of an entity column, read by index seeks (there are few types and domains).
    private func distinctValues(column: String) throws -> [String] {
        var values: [String] = []
        let next = try store.db.prepare(
            "SELECT \(column) FROM entity WHERE \(column) > ? ORDER BY \(column) LIMIT 1")
        var last = ""
        while true {
            try next.bind([.text(last)])
            guard try next.step() else { break }
            last = next.text(0)
            values.append(last)
            next.reset()
        }
        return values
    }

    private func list(column: String, _ values: [String], negated: Bool, nullable: Bool) -> SQLFragment {
        let present = nullable ? "\(column) IS NOT NULL" : "1"
        guard !values.isEmpty else { return SQLFragment(sql: negated ? present : "0", arguments: []) }
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        let sql = negated ? "\(present) AND \(column) NOT IN (\(placeholders))" : "\(column) IN (\(placeholders))"
        return SQLFragment(sql: sql, arguments: values.map { .text($0) })
    }

    // MARK: - Numbers and dates

    /// The bound values of a comparison, converted for a date (milliseconds since 1970) or a number column; nil
    /// when they cannot compare (a `$time` with a plain number).
    private func comparison(_ p: SpotlightPredicate, date: Bool) -> [Double]? {
        func convert(_ v: SpotlightValue?) -> Double? {
            switch v {
            case .number(let n)?: return date ? SpotlightTime.milliseconds(fromAbsoluteTime: n) : n
            case .time(let t)?: return date ? t.milliseconds(now: now) : nil
            default: return nil
            }
        }
        guard let low = convert(p.value) else { return nil }
        if p.op == .inRange {
            guard let high = convert(p.high) else { return nil }
            return [low, high]
        }
        return [low]
    }

    private static func operatorSQL(_ op: SpotlightPredicate.Op) -> String {
        switch op {
        case .equal, .notEqual: return "= ?"
        case .less: return "< ?"
        case .greater: return "> ?"
        case .lessOrEqual: return "<= ?"
        case .greaterOrEqual: return ">= ?"
        case .inRange: return "BETWEEN ? AND ?"
        }
    }

    private func column(_ name: String, _ bounds: [Double], _ op: SpotlightPredicate.Op) -> SQLFragment {
        let condition = "e.\(name) \(Self.operatorSQL(op))"
        let arguments = bounds.map { SQLValue.real($0) }
        if op == .notEqual {
            return SQLFragment(sql: "e.\(name) IS NOT NULL AND NOT (\(condition))", arguments: arguments)
        }
        return SQLFragment(sql: condition, arguments: arguments)
    }

    /// A number or date property: number rows compare with the number as written, date rows with it read as seconds
    /// since 2001 (or with the `$time`); each kind is its own range scan on `property(name, num)`.
    private func propertyNumber(_ name: String, _ p: SpotlightPredicate) -> SQLFragment {
        var selects: [String] = [], arguments: [SQLValue] = [], kinds: [String] = []
        let op = Self.operatorSQL(p.op)
        // Per entity, the unary + keeps SQLite from walking the value index for every entity: the key lookup it is.
        let owner = perEntity ? "entity = e.rowid AND " : "", num = perEntity ? "+num" : "num"
        if let numbers = comparison(p, date: false) {
            selects.append(
                "SELECT entity FROM property WHERE \(owner)name = \(EntityStore.propertyName) AND num IS NOT NULL AND \(num) \(op) AND kind IN (\(PropertyKind.sql("number", "boolean")))"
            )
            arguments += [.text(name)] + numbers.map { .real($0) }
            kinds += ["number", "boolean"]
        }
        if let dates = comparison(p, date: true) {
            selects.append(
                "SELECT entity FROM property WHERE \(owner)name = \(EntityStore.propertyName) AND num IS NOT NULL AND \(num) \(op) AND kind = \(PropertyKind.sql("date"))"
            )
            arguments += [.text(name)] + dates.map { .real($0) }
            kinds.append("date")
        }
        guard !selects.isEmpty else { return Self.nothing }
        let matching = selects.joined(separator: " UNION ALL ")
        if p.op == .notEqual {
            return SQLFragment(
                sql:
                    "EXISTS (SELECT 1 FROM property h WHERE h.entity = e.rowid AND h.name = \(EntityStore.propertyName) AND h.kind IN (\(kinds.map { String(PropertyKind.code($0)) }.joined(separator: ", ")))) AND e.rowid NOT IN (\(matching))",
                arguments: [.text(name)] + arguments)
        }
        return SQLFragment(sql: perEntity ? "EXISTS (\(matching))" : "e.rowid IN (\(matching))", arguments: arguments)
    }
}
