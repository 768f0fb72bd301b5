internal import CEntityIdx

/// Case and diacritic folding for the `c` and `d` modifiers: whole strings, NFC out, with an ASCII fast path.
enum SpotlightFold {
    /// `value` with case folded (`c`) and nonspacing marks removed (`d`), in NFC.
    static func fold(_ value: String, case foldCase: Bool, marks foldMarks: Bool) -> String {
        var value = value
        return value.withUTF8 { utf8 -> String in
            if !utf8.contains(where: { $0 >= 0x80 }) {
                guard foldCase, utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else {
                    return String(decoding: utf8, as: UTF8.self)
                }
                return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            }
            let flags = Int32(foldCase ? EIDX_FOLD_CASE : 0) | Int32(foldMarks ? EIDX_FOLD_MARKS : 0)
            var capacity = utf8.count * 3 + 16
            while true {
                var out = [CChar](repeating: 0, count: capacity)
                var length: Int32 = 0
                let rc = utf8.withMemoryRebound(to: CChar.self) { input in
                    eidx_fold(input.baseAddress, Int32(input.count), flags, &out, Int32(capacity), &length)
                }
                if rc == 0 {
                    return String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }
                if rc == -2 && Int(length) >= capacity { capacity = Int(length) + 1; continue }
                return String(decoding: utf8, as: UTF8.self)
            }
        }
    }

    /// Case and marks folded: the form `spotlight_key` keeps the head and hash of.
    static func key(_ value: String) -> String { fold(value, case: true, marks: true) }
}

/// Decides whether one stored value matches a string predicate, exactly as its modifiers say.
///
/// The SQL translation narrows the candidates with `spotlight_key` or the full-text index; this check on the value
/// as stored decides. Plain patterns compare the NFC value; `c` and `d` fold both sides; `w` compares whole words (a
/// lower-to-upper case change also starts a word); `t` compares the search pipeline's tokens, which are already
/// free of case and accents.
struct SpotlightMatcher {
    /// A pattern as bytes: literal runs and wildcards.
    typealias Glob = [GlobPart]
    enum GlobPart: Hashable { case literal([UInt8]), wildcard }

    let modifiers: SpotlightModifiers
    /// Whether dotted ancestors of the value match too (`contentTypeTree`, `domainIdentifier`).
    let tree: Bool
    private var whole: Glob = []
    /// For `w` and `t`: the consecutive words or tokens to find.
    private var sequence = GlobSequence([])

    init(_ pattern: SpotlightPattern, modifiers: SpotlightModifiers, tree: Bool = false) {
        self.modifiers = modifiers
        self.tree = tree
        if modifiers.contains(.tokenized) {
            sequence = GlobSequence(Self.tokenGlobs(pattern))
        } else if modifiers.contains(.words) {
            sequence = GlobSequence(
                Self.wordGlobs(pattern).map {
                    $0.map { part in
                        if case .literal(let bytes) = part {
                            return .literal(Array(fold(String(decoding: bytes, as: UTF8.self)).utf8))
                        }
                        return part
                    }
                })
        } else {
            whole = pattern.parts.map { part in
                if case .literal(let s) = part { return .literal(Array(fold(s).utf8)) }
                return .wildcard
            }
        }
    }

    func fold(_ s: String) -> String {
        SpotlightFold.fold(
            s, case: modifiers.contains(.caseInsensitive), marks: modifiers.contains(.diacriticInsensitive))
    }

    func matches(_ value: String) -> Bool {
        var cost = 0
        return matches(value, cost: &cost)
    }

    /// Whether the value matches; `cost` grows by the work done (bytes and words examined), which is linear in the
    /// value's length for every pattern (times one step per 64 words of a `w` or `t` pattern).
    func matches(_ value: String, cost: inout Int) -> Bool {
        if matchesOne(value, cost: &cost) { return true }
        guard tree else { return false }
        var ancestor = Substring(value)
        while let dot = ancestor.lastIndex(of: ".") {
            ancestor = ancestor[..<dot]
            if matchesOne(String(ancestor), cost: &cost) { return true }
        }
        return false
    }

    private func matchesOne(_ value: String, cost: inout Int) -> Bool {
        cost += value.utf8.count
        if modifiers.contains(.tokenized) {
            return sequence.occurs(in: TextAnalyzer.tokens(value).map { Array($0.text.utf8) }, cost: &cost)
        }
        if modifiers.contains(.words) {
            if let ascii = Self.asciiWords(value, lowercased: modifiers.contains(.caseInsensitive)) {
                return sequence.occurs(in: ascii, cost: &cost)
            }
            return sequence.occurs(in: Self.words(of: value).map { Array(fold($0).utf8) }, cost: &cost)
        }
        return Self.glob(whole, Array(fold(value).utf8))
    }

    /// Whole-text match of a pattern whose only wildcard is `*`: the first literal anchors the start, the last the
    /// end, and the ones between are found leftmost in order (which is enough when `*` is the only wildcard), each
    /// in time linear in the text (`find`).
    static func glob(_ parts: Glob, _ text: [UInt8]) -> Bool {
        var literals = parts.compactMap { part -> [UInt8]? in
            if case .literal(let l) = part { return l }; return nil
        }
        let leading = parts.first == .wildcard, trailing = parts.last == .wildcard
        if literals.count == parts.count { return literals.first ?? [] == text }
        var position = 0, limit = text.count
        if !leading {
            let first = literals.removeFirst()
            guard text.starts(with: first) else { return false }
            position = first.count
        }
        if !trailing, let last = literals.popLast() {
            guard limit - last.count >= position, text[(limit - last.count)...].elementsEqual(last) else {
                return false
            }
            limit -= last.count
        }
        for literal in literals {
            guard let found = find(literal, in: text, from: position, to: limit) else { return false }
            position = found + literal.count
        }
        return true
    }

    /// The first place of `needle` in `text[from..<to]` (Knuth–Morris–Pratt: linear in both, whatever repeats they
    /// hold).
    static func find(_ needle: [UInt8], in text: [UInt8], from: Int, to: Int) -> Int? {
        var steps = 0
        return find(needle, in: text, from: from, to: to, steps: &steps)
    }

    /// `find`, adding to `steps` the byte comparisons that fail and the bytes read, which KMP keeps under twice the
    /// needle's and the text's lengths together (for the tests of its cost; inlined, the count costs nothing).
    @inline(__always)
    static func find(_ needle: [UInt8], in text: [UInt8], from: Int, to: Int, steps: inout Int) -> Int? {
        guard !needle.isEmpty else { return from }
        guard to - from >= needle.count else { return nil }
        var failure = [Int](repeating: 0, count: needle.count)
        var k = 0
        for i in 1..<needle.count {
            steps += 1
            while k > 0 && needle[i] != needle[k] {
                k = failure[k - 1]
                steps += 1
            }
            if needle[i] == needle[k] { k += 1 }
            failure[i] = k
        }
        k = 0
        for i in from..<to {
            steps += 1
            while k > 0 && text[i] != needle[k] {
                k = failure[k - 1]
                steps += 1
            }
            if text[i] == needle[k] { k += 1 }
            if k == needle.count { return i - needle.count + 1 }
        }
        return nil
    }

    // MARK: - Words

    static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        if p.isAlphabetic || p.numericType != nil { return true }
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The words of a value for `w`: runs of letters, digits and marks, also split where a lowercase letter is
    /// followed by an uppercase one (`MyWindowClass` → My, Window, Class; `NSWindow` stays one word).
    static func words(of value: String) -> [String] {
        var result: [String] = []
        var current = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for c in value.unicodeScalars {
            if isWordScalar(c) {
                if let p = previous, p.properties.isLowercase, c.properties.isUppercase, !current.isEmpty {
                    result.append(String(current))
                    current = String.UnicodeScalarView()
                }
                current.append(c)
            } else if !current.isEmpty {
                result.append(String(current))
                current = String.UnicodeScalarView()
            }
            previous = c
        }
        if !current.isEmpty { result.append(String(current)) }
        return result
    }

    /// The words of an ASCII value as bytes (folding is then only lowercasing), without Unicode property lookups;
    /// nil when the value is not ASCII.
    static func asciiWords(_ value: String, lowercased: Bool) -> [[UInt8]]? {
        var value = value
        return value.withUTF8 { utf8 -> [[UInt8]]? in
            var result: [[UInt8]] = []
            var current: [UInt8] = []
            var previousLower = false
            for b in utf8 {
                if b >= 0x80 { return nil }
                let upper = b >= 0x41 && b <= 0x5A, lower = b >= 0x61 && b <= 0x7A, digit = b >= 0x30 && b <= 0x39
                if upper || lower || digit {
                    if upper && previousLower && !current.isEmpty { result.append(current); current = [] }
                    current.append(lowercased && upper ? b | 0x20 : b)
                } else if !current.isEmpty {
                    result.append(current)
                    current = []
                }
                previousLower = lower
            }
            if !current.isEmpty { result.append(current) }
            return result
        }
    }

    /// A pattern split into words the same way, wildcards kept with the word they touch (`"*paris"w` is one word
    /// ending in paris).
    static func wordGlobs(_ pattern: SpotlightPattern) -> [Glob] {
        var globs: [Glob] = []
        var current: Glob = []
        var literal = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        func flushLiteral() {
            if !literal.isEmpty {
                current.append(.literal(Array(String(literal).utf8))); literal = String.UnicodeScalarView()
            }
        }
        func flushWord() {
            flushLiteral()
            if current.contains(where: {
                if case .literal = $0 { return true }; return false
            }) || current == [.wildcard] {
                globs.append(current)
            }
            current = []
        }
        for part in pattern.parts {
            switch part {
            case .wildcard:
                flushLiteral()
                current.append(.wildcard)
                previous = nil
            case .literal(let s):
                for c in s.unicodeScalars {
                    if isWordScalar(c) {
                        if let p = previous, p.properties.isLowercase, c.properties.isUppercase { flushWord() }
                        literal.append(c)
                    } else {
                        flushWord()
                    }
                    previous = c
                }
            }
        }
        flushWord()
        return globs
    }

    /// A pattern as the search pipeline's tokens for `t`: each literal run is tokenized; a wildcard before or after a
    /// run applies to its first or last token.
    static func tokenGlobs(_ pattern: SpotlightPattern) -> [Glob] {
        let parts = pattern.parts
        if parts == [.wildcard] { return [[.wildcard]] }
        var globs: [Glob] = []
        for (k, part) in parts.enumerated() {
            guard case .literal(let s) = part else { continue }
            let tokens = TextAnalyzer.tokens(s)
            for (n, token) in tokens.enumerated() {
                var glob: Glob = [.literal(Array(token.text.utf8))]
                if n == 0 && k > 0 && parts[k - 1] == .wildcard { glob.insert(.wildcard, at: 0) }
                if n == tokens.count - 1 && k + 1 < parts.count && parts[k + 1] == .wildcard { glob.append(.wildcard) }
                globs.append(glob)
            }
        }
        return globs
    }
}
