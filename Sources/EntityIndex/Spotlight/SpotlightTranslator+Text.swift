import SQLite

/// Text predicates: candidates from an index, then the check on the value as stored.
///
/// Candidates: an equality is a lookup of the folded value's (head, hash) in `spotlight_key`, a pattern with a
/// literal start a range of heads; `t` asks the full-text index for the pattern's tokens in the attribute's column;
/// a leading wildcard and `w` ask it for the words of `vocabulary` that hold the pattern's longest ASCII run, or
/// read the attribute's values (for subtitles, descriptions, keywords and synonyms only those whose normalized
/// search text holds that run). Each candidate is then checked on the
/// stored value by `spotlight_match` (the title, a column of the entity) or `spotlight_record` (any other attribute,
/// read from the stored record), which decide case, accents, words, tokens and wildcards exactly.
extension SpotlightTranslator {
    func textPredicate(key: String, _ pattern: SpotlightPattern, _ p: SpotlightPredicate) throws -> SQLFragment {
        // An attribute no value ever had: nothing matches, neither == nor !=.
        guard let attr = try store.spotlightAttributeID(key) else { return Self.nothing }
        let m = p.modifiers
        let spec = SQLValue.text(Self.spec(pattern, m))
        func check(_ alias: String) -> SQLFragment {
            key == "title"
                ? SQLFragment(sql: "spotlight_match(\(alias).title, ?)", arguments: [spec])
                : SQLFragment(sql: "spotlight_record(\(alias).record, ?, ?)", arguments: [.text(key), spec])
        }
        // Whether the entity (`alias`) has a value of the attribute with a head in `heads` (nil: any value).
        func has(_ alias: String, _ heads: ClosedRange<Int64>? = nil) -> SQLFragment {
            let heads = heads ?? Int64.min...Int64.max
            return SQLFragment(
                sql: "spotlight_has(\(alias).\(key == "title" ? "title" : "record"), ?, ?, ?)",
                arguments: [.text(key), .integer(heads.lowerBound), .integer(heads.upperBound)])
        }
        let positive: SQLFragment
        switch Self.candidates(pattern, m) {
        case .keys(let heads, let hash, let checked):
            if perEntity {
                // `spotlight_key` has no index by entity: an equality is a lookup of the whole key, a range of heads
                // is asked of the entity's values.
                var f: SQLFragment
                if let hash, let heads {
                    f = SQLFragment(
                        sql:
                            "EXISTS (SELECT 1 FROM spotlight_key k WHERE k.attr = ? AND k.head = ? AND k.hash = ? AND k.entity = e.rowid)",
                        arguments: [.integer(attr), .integer(heads.lowerBound), .integer(hash)])
                } else {
                    f = has("e", heads)
                }
                if checked { f = f.and(check("e")) }
                positive = f
            } else {
                let (condition, arguments) = Self.keyCondition(heads, hash)
                let verify = checked ? check("v") : SQLFragment(sql: "1", arguments: [])
                positive = SQLFragment(
                    sql:
                        "e.rowid IN (SELECT k.entity FROM spotlight_key k CROSS JOIN entity v ON v.rowid = k.entity WHERE k.attr = ?\(condition) AND \(verify.sql))",
                    arguments: [.integer(attr)] + arguments + verify.arguments)
            }
        case .fullText(let terms):
            let match = Self.searchColumn(key).map { "{\($0)} : (\(terms))" } ?? terms
            positive =
                perEntity ? Self.found(match, check("e")) : Self.fullText(match, check("v"), ordered: key == "title")
        case .scan(let run):
            let column = Self.searchColumn(key)
            if let run, let column, let terms = try vocabulary(containing: run) {
                // Every matching value holds the run inside one of its search terms (see `longestASCIIRun`).
                let match = "{\(column)} : (\(terms.joined(separator: " OR ")))"
                positive =
                    terms.isEmpty
                    ? SQLFragment(sql: "0", arguments: [])
                    : perEntity
                        ? Self.found(match, check("e")) : Self.fullText(match, check("v"), ordered: key == "title")
            } else if perEntity {
                // The title is checked on the entity row, another attribute on the record.
                positive = check("e")
            } else if key == "title", let run {
                // `search_doc.title_plain` holds each title's tokens: its index is a small copy to scan for the run.
                let verify = check("v")
                positive = SQLFragment(
                    sql:
                        "e.rowid IN (SELECT v.rowid AS entity FROM entity v WHERE v.rowid IN (SELECT d.rowid FROM search_doc d INDEXED BY search_doc_title_plain WHERE spotlight_scanned(d.title_plain) AND instr(d.title_plain, ?) > 0) AND \(verify.sql))",
                    arguments: [.text(run)] + verify.arguments)
            } else if key == "title" {
                let verify = check("v")
                positive = SQLFragment(
                    sql: "e.rowid IN (SELECT v.rowid AS entity FROM entity v WHERE \(verify.sql))",
                    arguments: verify.arguments)
            } else if column != nil {
                // Every entity with the attribute, in the entities' order, checked on its record.
                let verify = SQLFragment(
                    sql: "spotlight_record_held(v.record, ?, ?)", arguments: [.text(key), spec])
                positive = SQLFragment(
                    sql: "e.rowid IN (SELECT v.rowid AS entity FROM entity v WHERE \(verify.sql))",
                    arguments: verify.arguments)
            } else {
                let verify = check("v")
                positive = SQLFragment(
                    sql:
                        "e.rowid IN (SELECT v.rowid AS entity FROM (SELECT DISTINCT entity FROM spotlight_key WHERE attr = ?) s CROSS JOIN entity v ON v.rowid = s.entity WHERE \(verify.sql))",
                    arguments: [.integer(attr)] + verify.arguments)
            }
        }
        guard p.op == .notEqual else { return positive }
        // The entity has the attribute (every entity has a title), and none of its values matches.
        let negative = SQLFragment(sql: "NOT (\(positive.sql))", arguments: positive.arguments)
        return key == "title" ? negative : has("e").and(negative)
    }

    /// The entities the full-text index finds for `match` whose stored value passes `verify` (on `v`), in the
    /// index's order, each checked as it is found, so that a limit stops early. `ordered` (titles): in the order of
    /// their rowids, as the title scans give them: the found rowids are collected first (no record is read for
    /// that), then each entity is checked in turn.
    static func fullText(_ match: String, _ verify: SQLFragment, ordered: Bool) -> SQLFragment {
        guard ordered else {
            return SQLFragment(
                sql:
                    "e.rowid IN (SELECT d.rowid AS entity FROM search JOIN search_doc d ON d.doc = search.rowid CROSS JOIN entity v ON v.rowid = d.rowid WHERE search MATCH ? AND \(verify.sql))",
                arguments: [.text(match)] + verify.arguments)
        }
        return SQLFragment(
            sql:
                "e.rowid IN (SELECT v.rowid AS entity FROM entity v WHERE v.rowid IN (SELECT d.rowid FROM search JOIN search_doc d ON d.doc = search.rowid WHERE search MATCH ?) AND \(verify.sql))",
            arguments: [.text(match)] + verify.arguments)
    }

    /// Whether the full-text index finds entity `e` for `match`, and its value passes `verify`: the found rowids
    /// are collected once for the statement, then each entity is looked up among them before it is checked.
    static func found(_ match: String, _ verify: SQLFragment) -> SQLFragment {
        SQLFragment(
            sql:
                "e.rowid IN (SELECT d.rowid FROM search JOIN search_doc d ON d.doc = search.rowid WHERE search MATCH ?)",
            arguments: [.text(match)]
        ).and(verify)
    }

    enum Candidates: Equatable {
        /// Rows of `spotlight_key` of the attribute with a head in `heads` (nil: any) and, for an equality, this
        /// hash; `checked`: each needs the check on the value (only `"*"` does not).
        case keys(heads: ClosedRange<Int64>?, hash: Int64?, checked: Bool)
        /// Documents the full-text index finds for these terms in the attribute's column.
        case fullText(String)
        /// Every value of the attribute; for a search text column, only those holding this run.
        case scan(run: String?)
    }

    static func candidates(_ pattern: SpotlightPattern, _ m: SpotlightModifiers) -> Candidates {
        if m.contains(.tokenized) {
            return fullTextNarrowing(pattern).map { .fullText($0) } ?? .scan(run: nil)
        }
        if m.contains(.words) { return .scan(run: longestASCIIRun(pattern)) }
        if let literal = pattern.literal {
            let fold = Array(SpotlightFold.key(literal).utf8)
            let head = SpotlightKey.head(fold)
            return .keys(heads: head...head, hash: SpotlightKey.hash(fold), checked: true)
        }
        if case .literal(let start)? = pattern.parts.first {
            let fold = Array(SpotlightFold.key(start).utf8)
            if fold.count >= 8 {
                let head = SpotlightKey.head(fold)
                return .keys(heads: head...head, hash: nil, checked: true)
            }
            return .keys(heads: SpotlightKey.heads(startingWith: fold), hash: nil, checked: true)
        }
        if pattern.parts == [.wildcard] { return .keys(heads: nil, hash: nil, checked: false) }
        return .scan(run: longestASCIIRun(pattern))
    }

    /// The condition on `spotlight_key k` of a `keys` candidate set, after its attribute.
    static func keyCondition(_ heads: ClosedRange<Int64>?, _ hash: Int64?) -> (String, [SQLValue]) {
        guard let heads else { return ("", []) }
        if let hash { return (" AND k.head = ? AND k.hash = ?", [.integer(heads.lowerBound), .integer(hash)]) }
        if heads.lowerBound == heads.upperBound { return (" AND k.head = ?", [.integer(heads.lowerBound)]) }
        return (" AND k.head BETWEEN ? AND ?", [.integer(heads.lowerBound), .integer(heads.upperBound)])
    }

    /// The `search` column that holds an attribute's normalized text (nil for a property, which a declaration may
    /// have moved to any column, and whose dates are not indexed at all).
    static func searchColumn(_ key: String) -> String? {
        switch key {
        case "title": return "title"
        case "subtitle": return "subtitle"
        case "description": return "description"
        case "keywords", "synonyms": return "names"
        default: return nil
        }
    }

    /// The longest run of ASCII letters and digits in the folded literals, lowercased: a value that matches holds
    /// it folded, and the search pipeline writes those characters (and whatever folds to them) the same way.
    static func longestASCIIRun(_ pattern: SpotlightPattern) -> String? {
        var best: [UInt8] = []
        for case .literal(let s) in pattern.parts {
            var run: [UInt8] = []
            for b in SpotlightFold.key(s).utf8 {
                if (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7A) { run.append(b); continue }
                if run.count > best.count { best = run }
                run = []
            }
            if run.count > best.count { best = run }
        }
        return best.isEmpty ? nil : String(decoding: best, as: UTF8.self)
    }

    /// The most words of the vocabulary a scan asks the full-text index for instead.
    static let vocabularyTerms = 512

    /// The words of the full-text index that hold `run` (quoted for FTS5), when the run has no digit (`vocabulary`
    /// keeps the words without digits: every token's letters, as a word or as its letter-digit split) and there are
    /// at most `vocabularyTerms` of them; else nil.
    func vocabulary(containing run: String) throws -> [String]? {
        guard !run.hasASCIIDigit else { return nil }
        let terms = try store.vocabularyCopy.words(containing: run, limit: Self.vocabularyTerms, db: store)
        return terms.count > Self.vocabularyTerms ? nil : terms.map { "\"" + $0 + "\"" }
    }

    /// The most terms of a `t` pattern the full-text narrowing asks for.
    static let narrowingTerms = 8

    /// An FTS5 query every `t` match satisfies: the pattern's tokens that do not follow a wildcard (a token after one
    /// is a suffix, which FTS5 cannot look up), quoted, the one before a wildcard as a prefix; at most
    /// `narrowingTerms` of them (any of the terms narrows as well as all, and a few keep FTS5 from holding a
    /// position list per term of a long pattern for every long value it reads). CJK tokens are left out (the index
    /// holds their bigrams). Nil when no token qualifies.
    static func fullTextNarrowing(_ pattern: SpotlightPattern) -> String? {
        var terms: [String] = []
        var seen = Set<String>()
        let parts = pattern.parts
        for (k, part) in parts.enumerated() {
            guard case .literal(let s) = part else { continue }
            let tokens = TextAnalyzer.tokens(s)
            for (n, token) in tokens.enumerated() where !token.isCJK {
                if n == 0 && k > 0 && parts[k - 1] == .wildcard { continue }
                let quoted = "\"" + token.text.replacingAll("\"", "\"\"") + "\""
                let prefix = n == tokens.count - 1 && k + 1 < parts.count && parts[k + 1] == .wildcard
                let term = prefix ? quoted + "*" : quoted
                guard seen.insert(term).inserted else { continue }
                terms.append(term)
                if terms.count == Self.narrowingTerms { return terms.joined(separator: " ") }
            }
        }
        return terms.isEmpty ? nil : terms.joined(separator: " ")
    }
}

extension SQLFragment {
    func and(_ other: SQLFragment) -> SQLFragment {
        SQLFragment(sql: "(\(sql) AND \(other.sql))", arguments: arguments + other.arguments)
    }
}
