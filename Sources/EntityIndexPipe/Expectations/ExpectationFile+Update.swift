import EntityIndex
import JSON

// MARK: - --update: each case's `top` from the current answers

extension ExpectationFile {
    /// One `top` rewritten.
    public struct TopChange: Sendable {
        public var caseIndex: Int
        public var name: String
        public var line: Int
        public var before: [String]
        public var after: [String]
    }

    /// How many results an empty `top` takes.
    public static let defaultTopCount = 3

    /// The file with each case's `top` replaced by the first results its request got now (as many as it held,
    /// or `defaultTopCount` when it was empty), every other byte as it was; and what changed.
    ///
    /// Only cases that have a `top` and whose request ran are rewritten; the new value is written on one line.
    public func updatingTops(_ outcomes: [CaseOutcome]) -> (bytes: [UInt8], changes: [TopChange]) {
        var replacements: [(Range<Int>, [UInt8])] = []
        var changes: [TopChange] = []
        for o in outcomes where o.file == path && o.error == nil {
            let c = o.testCase
            guard let before = c.expect.top, let span = topSpans[c.index] else { continue }
            let after = Array(o.got.prefix(before.isEmpty ? Self.defaultTopCount : before.count))
            guard after != before else { continue }
            replacements.append((span, JSONWriter.encode(.array(after.map { .string($0) })).spaced))
            changes.append(TopChange(caseIndex: c.index, name: c.name, line: c.line, before: before, after: after))
        }
        var out = bytes
        for (span, text) in replacements.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            out.replaceSubrange(span, with: text)
        }
        return (out, changes)
    }
}

extension [UInt8] {
    /// A one-line JSON array of strings with a space after each comma, as a person writes it.
    fileprivate var spaced: [UInt8] {
        var out: [UInt8] = []
        var inString = false
        var escaped = false
        for b in self {
            out.append(b)
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: ",") {
                out.append(UInt8(ascii: " "))
            }
        }
        return out
    }
}
