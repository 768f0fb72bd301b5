import EntityIndex
import Testing

/// The parser's trees, its errors (each class, with the character it names) and `$time` at a fixed clock.
@Suite struct SpotlightParserTests {
    @Test func andBindsTighterThanOr() throws {
        let tree = try SpotlightParser.parse(#"a == "1" || b == "2" && c == "3""#)
        guard case .or(let terms) = tree, terms.count == 2, case .and(let inner) = terms[1], inner.count == 2 else {
            Issue.record("unexpected tree \(tree)")
            return
        }
    }

    @Test func modifiersWildcardsAndEscapes() throws {
        guard case .predicate(let p) = try SpotlightParser.parse(#"title ==[c] "*a\*b\"\\c*"dw"#) else {
            Issue.record("no predicate"); return
        }
        #expect(p.modifiers == [.caseInsensitive, .diacriticInsensitive, .words])
        #expect(p.value == .string(SpotlightPattern([.wildcard, .literal("a*b\"\\c"), .wildcard])))
        guard case .predicate(let q) = try SpotlightParser.parse("x = 'it\\'s'") else {
            Issue.record("no predicate"); return
        }
        #expect(q.op == .equal)
        #expect(q.value == .string(SpotlightPattern([.literal("it's")])))
    }

    @Test(
        arguments: [
            ("1.5", 1.5), ("-2", -2), ("+3e2", 300), (".5", 0.5), ("7.", 7),
        ] as [(String, Double)])
    func numbers(_ text: String, _ value: Double) throws {
        guard case .predicate(let p) = try SpotlightParser.parse("n == \(text)") else {
            Issue.record("no predicate"); return
        }
        #expect(p.value == .number(value))
    }

    struct ErrorCase: CustomTestStringConvertible, Sendable {
        var query: String
        var position: Int
        var problem: String
        var testDescription: String { query.count > 60 ? String(query.prefix(60)) + "…" : query }
    }

    @Test(arguments: [
        ErrorCase(
            query: "", position: 1, problem: "expected an attribute name, ( or InRange, found the end of the query"),
        ErrorCase(query: "title == ", position: 10, problem: "expected a quoted string, a number or $time after =="),
        ErrorCase(
            query: "title == x", position: 10,
            problem: "expected a quoted string, a number or $time after ==, found 'x'"),
        ErrorCase(
            query: "title ~ \"x\"", position: 7,
            problem: "expected a comparison (==, !=, <, >, <=, >=) after title, found '~'"),
        ErrorCase(
            query: "title == \"Paris", position: 16,
            problem: "unterminated string: expected the closing \" of the string at character 10"),
        ErrorCase(
            query: "title == 'a\\", position: 13,
            problem: "unterminated string: expected the closing ' of the string at character 10"),
        ErrorCase(query: "title == \"x\"q", position: 13, problem: "unknown modifier 'q' (expected c, d, w or t)"),
        ErrorCase(
            query: "title ==[z] \"x\"", position: 10, problem: "unknown modifier 'z' in [ ] (expected c, d, w or t)"),
        ErrorCase(query: "rating ==[c] 5", position: 14, problem: "modifiers apply to quoted strings only"),
        ErrorCase(
            query: "title < \"x\"", position: 9,
            problem: "expected a number or $time after <: only numbers and dates are ordered, not strings"),
        ErrorCase(
            query: "!(title == \"x\")", position: 1,
            problem: "'!' (NOT) is not part of the Core Spotlight query language; compare with != instead"),
        ErrorCase(query: "a == 1 & b == 2", position: 8, problem: "expected && (a single & is not an operator)"),
        ErrorCase(query: "a == 1 | b == 2", position: 8, problem: "expected || (a single | is not an operator)"),
        ErrorCase(
            query: "(a == 1 || b == 2", position: 18,
            problem: "expected ) to close the ( at character 1, found the end of the query"),
        ErrorCase(query: "a == 1)", position: 7, problem: "expected &&, || or the end of the query, found ')'"),
        ErrorCase(query: "a == 5c", position: 7, problem: "expected &&, || or the end of the query, found 'c'"),
        ErrorCase(
            query: "d > $time.tomorrow", position: 11,
            problem:
                "unknown $time form \"tomorrow\" (known: now, today, yesterday, this_week, this_month, this_year, last_week, iso)"
        ),
        ErrorCase(
            query: "d > $time.iso(2026-13-01)", position: 5,
            problem: "\"2026-13-01\" is not an ISO-8601 date (such as 2026-03-02 or 2026-03-02T09:00:00Z)"),
        ErrorCase(query: "d > $time.today(1.5)", position: 17, problem: "expected a whole number in $time.today(…)"),
        ErrorCase(
            query: "d > $time.today(-1", position: 19,
            problem: "expected ) to close $time.today(, found the end of the query"),
        ErrorCase(
            query: "d > $now", position: 5,
            problem:
                "expected $time.FORM (now, today, yesterday, this_week, this_month, this_year, last_week, iso), found '$'"
        ),
        ErrorCase(
            query: "InRange(d, 1 2)", position: 14, problem: "expected , after the lower bound of InRange, found '2'"),
        ErrorCase(
            query: "InRange(d, \"a\", 2)", position: 12,
            problem: "expected a number or $time after InRange(d,: only numbers and dates are ordered, not strings"),
        ErrorCase(
            query: "title == \u{201C}Paris\u{201D}", position: 10,
            problem: "expected a quoted string after ==, found the typographic quote '\u{201C}'; quote with \" or '"),
        ErrorCase(
            query: "title == \"a\" &&", position: 16,
            problem: "expected an attribute name, ( or InRange, found the end of the query"),
        ErrorCase(
            query: String(repeating: "(", count: 65) + "a == 1", position: 65,
            problem: "parentheses nest deeper than 64 levels"),
        ErrorCase(
            query: Array(repeating: "a == 1", count: 513).joined(separator: " || "), position: 5121,
            problem: "the query has more than 512 comparisons"),
        ErrorCase(
            query: "a == \"" + String(repeating: "x", count: 65_536) + "\"", position: 65_537,
            problem: "the query is 65543 characters long; the maximum is 65536"),
    ])
    func errors(_ c: ErrorCase) {
        #expect(throws: SpotlightSyntaxError(position: c.position, problem: c.problem)) {
            try SpotlightParser.parse(c.query)
        }
    }

    /// `$time` forms at Wednesday 2026-03-04T15:30:00Z (weeks start on Monday; units are UTC calendar units).
    @Test(
        arguments: [
            ("$time.now", "2026-03-04T15:30:00Z"), ("$time.now(-90)", "2026-03-04T15:28:30Z"),
            ("$time.now(+1.5)", "2026-03-04T15:30:01.500Z"),
            ("$time.today", "2026-03-04T00:00:00Z"), ("$time.today(-7)", "2026-02-25T00:00:00Z"),
            ("$time.today(1)", "2026-03-05T00:00:00Z"),
            ("$time.yesterday", "2026-03-03T00:00:00Z"), ("$time.yesterday(-1)", "2026-03-02T00:00:00Z"),
            ("$time.this_week", "2026-03-02T00:00:00Z"), ("$time.this_week(-1)", "2026-02-23T00:00:00Z"),
            ("$time.last_week", "2026-02-23T00:00:00Z"), ("$time.last_week(2)", "2026-03-09T00:00:00Z"),
            ("$time.this_month", "2026-03-01T00:00:00Z"), ("$time.this_month(-3)", "2025-12-01T00:00:00Z"),
            ("$time.this_month(10)", "2027-01-01T00:00:00Z"), ("$time.this_year", "2026-01-01T00:00:00Z"),
            ("$time.this_year(-1)", "2025-01-01T00:00:00Z"), ("$time.iso(2026-01-02)", "2026-01-02T00:00:00Z"),
            ("$time.iso(\"2026-01-02T03:04:05+02:00\")", "2026-01-02T01:04:05Z"),
            ("$time.iso('2026-01-02T03:04')", "2026-01-02T03:04:00Z"),
            ("$time.today( -2 )", "2026-03-02T00:00:00Z"),
        ] as [(String, String)])
    func time(_ text: String, _ expected: String) throws {
        guard case .predicate(let p) = try SpotlightParser.parse("d > \(text)"), case .time(let t) = p.value else {
            Issue.record("no $time in \(text)")
            return
        }
        #expect(Timestamp.format(Int64(t.milliseconds(now: Timestamp.parse("2026-03-04T15:30:00Z")!))) == expected)
    }
}
