import JSON

/// Parses Core Spotlight query strings into a `SpotlightExpression`.
///
/// A recursive-descent parser over Unicode scalars, so that every error can name the character where it happened.
/// `&&` binds tighter than `||` (the C-like precedence of Apple's metadata query syntax); a lone `=` reads as `==`
/// (Apple's WWDC24 sample writes `contentTypeTree="public.image"`); the MDQuery form `==[cd]` is read too. There is no
/// `!` (NOT): Apple's grammar has none, so it is an invalid query. Input size and nesting are bounded, so no input can
/// exhaust the stack or build SQL with more parameters than SQLite binds.
public enum SpotlightParser {
    public static let maxLength = 65_536
    public static let maxDepth = 64
    public static let maxPredicates = 512

    public static func parse(_ text: String) throws(SpotlightSyntaxError) -> SpotlightExpression {
        var parser = Parser(Array(text.unicodeScalars))
        if parser.s.count > maxLength {
            throw SpotlightSyntaxError(
                position: maxLength + 1,
                problem: "the query is \(parser.s.count) characters long; the maximum is \(maxLength)")
        }
        let expression = try parser.parseOr()
        parser.skipSpace()
        if !parser.atEnd { throw parser.fail("expected &&, || or the end of the query, found \(parser.found)") }
        return expression
    }
}

struct Parser {
    let s: [Unicode.Scalar]
    var i = 0
    var depth = 0
    var predicates = 0

    init(_ s: [Unicode.Scalar]) { self.s = s }

    var atEnd: Bool { i >= s.count }
    func peek(_ offset: Int = 0) -> Unicode.Scalar? { i + offset < s.count ? s[i + offset] : nil }
    func fail(_ problem: String, at index: Int? = nil) -> SpotlightSyntaxError {
        SpotlightSyntaxError(position: (index ?? i) + 1, problem: problem)
    }
    /// What stands at the current position, for messages.
    var found: String {
        guard let c = peek() else { return "the end of the query" }
        return c == "'" ? "\"'\"" : "'\(c)'"
    }
    mutating func skipSpace() { while let c = peek(), c.properties.isWhitespace { i += 1 } }
    mutating func take(_ text: String) -> Bool {
        let t = Array(text.unicodeScalars)
        guard i + t.count <= s.count, Array(s[i..<(i + t.count)]) == t else { return false }
        i += t.count
        return true
    }

    // MARK: - Expressions

    mutating func parseOr() throws(SpotlightSyntaxError) -> SpotlightExpression {
        var terms = [try parseAnd()]
        while true {
            skipSpace()
            if take("||") { terms.append(try parseAnd()); continue }
            if peek() == "|" { throw fail("expected || (a single | is not an operator)") }
            break
        }
        return terms.count == 1 ? terms[0] : .or(terms)
    }

    mutating func parseAnd() throws(SpotlightSyntaxError) -> SpotlightExpression {
        var terms = [try parsePrimary()]
        while true {
            skipSpace()
            if take("&&") { terms.append(try parsePrimary()); continue }
            if peek() == "&" { throw fail("expected && (a single & is not an operator)") }
            break
        }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    mutating func parsePrimary() throws(SpotlightSyntaxError) -> SpotlightExpression {
        skipSpace()
        let start = i
        guard let c = peek() else { throw fail("expected an attribute name, ( or InRange, found the end of the query") }
        if c == "(" {
            guard depth < SpotlightParser.maxDepth else {
                throw fail("parentheses nest deeper than \(SpotlightParser.maxDepth) levels")
            }
            i += 1
            depth += 1
            let inner = try parseOr()
            skipSpace()
            guard take(")") else {
                throw fail("expected ) to close the ( at character \(start + 1), found \(found)")
            }
            depth -= 1
            return inner
        }
        if c == "!" && peek(1) != "=" {
            throw fail("'!' (NOT) is not part of the Core Spotlight query language; compare with != instead")
        }
        guard let name = readName() else {
            throw fail("expected an attribute name, ( or InRange, found \(found)")
        }
        predicates += 1
        if predicates > SpotlightParser.maxPredicates {
            throw fail("the query has more than \(SpotlightParser.maxPredicates) comparisons", at: start)
        }
        let save = i
        skipSpace()
        if name == "InRange" && peek() == "(" {
            return .predicate(try parseInRange(start: start))
        }
        i = save
        return .predicate(try parseComparison(name, start: start))
    }

    /// An attribute name: ASCII letters, digits and `_`, not starting with a digit (`kMDItemTitle`, `_kMDItemSnippet`).
    mutating func readName() -> String? {
        let start = i
        while let c = peek(), c.isASCII, c.properties.isAlphabetic || c == "_" || (i > start && ("0"..."9").contains(c))
        { i += 1 }
        return i > start ? String(String.UnicodeScalarView(s[start..<i])) : nil
    }

    mutating func parseComparison(_ name: String, start: Int) throws(SpotlightSyntaxError) -> SpotlightPredicate {
        skipSpace()
        let opStart = i
        let op: SpotlightPredicate.Op
        if take("==") {
            op = .equal
        } else if take("!=") {
            op = .notEqual
        } else if take("<=") {
            op = .lessOrEqual
        } else if take(">=") {
            op = .greaterOrEqual
        } else if take("=") {
            op = .equal
        } else if take("<") {
            op = .less
        } else if take(">") {
            op = .greater
        } else {
            throw fail("expected a comparison (==, !=, <, >, <=, >=) after \(Quoting.unquoted(name)), found \(found)")
        }
        let written = String(String.UnicodeScalarView(s[opStart..<i]))
        var modifiers: SpotlightModifiers = []
        if peek() == "[" {
            // MDQuery's form: modifiers in brackets after the operator (`kMDItemAuthors ==[c] "Steve"`).
            i += 1
            while let c = peek(), c != "]" {
                guard let m = SpotlightModifiers.letters.first(where: { $0.0 == Character(c) })?.1 else {
                    throw fail("unknown modifier \(found) in [ ] (expected c, d, w or t)")
                }
                modifiers.insert(m)
                i += 1
            }
            guard take("]") else { throw fail("expected ] to close the modifiers after \(written)") }
        }
        skipSpace()
        let valueStart = i
        let value = try parseValue(after: written, ordered: op != .equal && op != .notEqual)
        if case .string = value {
            modifiers.formUnion(try parseModifiers())
        } else if !modifiers.isEmpty {
            throw fail("modifiers apply to quoted strings only", at: valueStart)
        }
        return SpotlightPredicate(
            attribute: name, op: op, value: value, high: nil, modifiers: modifiers, position: start + 1)
    }

    mutating func parseInRange(start: Int) throws(SpotlightSyntaxError) -> SpotlightPredicate {
        i += 1  // (
        skipSpace()
        guard let name = readName() else { throw fail("expected an attribute name after InRange(, found \(found)") }
        skipSpace()
        guard take(",") else { throw fail("expected , after InRange(\(Quoting.unquoted(name)), found \(found)") }
        skipSpace()
        let low = try parseValue(after: "InRange(\(Quoting.unquoted(name)),", ordered: true)
        skipSpace()
        guard take(",") else { throw fail("expected , after the lower bound of InRange, found \(found)") }
        skipSpace()
        let high = try parseValue(after: "the lower bound of InRange", ordered: true)
        skipSpace()
        guard take(")") else { throw fail("expected ) to close InRange( at character \(start + 1), found \(found)") }
        return SpotlightPredicate(
            attribute: name, op: .inRange, value: low, high: high, modifiers: [], position: start + 1)
    }

    /// A quoted string, a number or a `$time` expression. `ordered`: after `<`, `>`, `<=`, `>=` or in `InRange`,
    /// where only numbers and dates make sense.
    mutating func parseValue(after what: String, ordered: Bool) throws(SpotlightSyntaxError) -> SpotlightValue {
        guard let c = peek() else {
            throw fail(
                ordered
                    ? "expected a number or $time after \(what)"
                    : "expected a quoted string, a number or $time after \(what)")
        }
        if c == "\"" || c == "'" {
            if ordered {
                throw fail("expected a number or $time after \(what): only numbers and dates are ordered, not strings")
            }
            return .string(try parseString())
        }
        if c == "$" { return .time(try parseTime()) }
        if c == "-" || c == "+" || c == "." || ("0"..."9").contains(c) { return .number(try parseNumber(after: what)) }
        if c == "\u{201C}" || c == "\u{201D}" || c == "\u{2018}" || c == "\u{2019}" {
            throw fail(
                "expected a quoted string after \(what), found the typographic quote \(found); quote with \" or '")
        }
        throw fail(
            ordered
                ? "expected a number or $time after \(what), found \(found)"
                : "expected a quoted string, a number or $time after \(what), found \(found)")
    }

    /// A string in single or double quotes; `\` takes the next character literally (`\*` is a literal star).
    mutating func parseString() throws(SpotlightSyntaxError) -> SpotlightPattern {
        let open = i
        let quote = s[i]
        i += 1
        var parts: [SpotlightPattern.Part] = []
        var literal = String.UnicodeScalarView()
        while true {
            guard let c = peek() else {
                throw fail("unterminated string: expected the closing \(quote) of the string at character \(open + 1)")
            }
            i += 1
            if c == quote { break }
            if c == "\\" {
                guard let next = peek() else {
                    throw fail(
                        "unterminated string: expected the closing \(quote) of the string at character \(open + 1)")
                }
                literal.append(next)
                i += 1
            } else if c == "*" {
                parts.append(.literal(String(literal)))
                literal = String.UnicodeScalarView()
                parts.append(.wildcard)
            } else {
                literal.append(c)
            }
        }
        parts.append(.literal(String(literal)))
        return SpotlightPattern(parts)
    }

    mutating func parseModifiers() throws(SpotlightSyntaxError) -> SpotlightModifiers {
        var modifiers: SpotlightModifiers = []
        while let c = peek(), c.isASCII, c.properties.isAlphabetic {
            guard let m = SpotlightModifiers.letters.first(where: { $0.0 == Character(c) })?.1 else {
                throw fail("unknown modifier \(found) (expected c, d, w or t)")
            }
            modifiers.insert(m)
            i += 1
        }
        return modifiers
    }

    mutating func parseNumber(after what: String) throws(SpotlightSyntaxError) -> Double {
        let start = i
        if peek() == "-" || peek() == "+" { i += 1 }
        var digits = 0
        while let c = peek(), ("0"..."9").contains(c) { i += 1; digits += 1 }
        if peek() == "." {
            i += 1
            while let c = peek(), ("0"..."9").contains(c) { i += 1; digits += 1 }
        }
        if digits > 0, peek() == "e" || peek() == "E" {
            let save = i
            i += 1
            if peek() == "-" || peek() == "+" { i += 1 }
            var exponent = 0
            while let c = peek(), ("0"..."9").contains(c) { i += 1; exponent += 1 }
            if exponent == 0 { i = save }
        }
        let text = String(String.UnicodeScalarView(s[start..<i]))
        guard digits > 0, let value = Double(text), value.isFinite else {
            throw fail("expected a number after \(what), found \(Quoting.quoted(text))", at: start)
        }
        return value
    }
}
