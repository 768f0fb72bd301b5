import JSON
import SQLite

/// A user's typed query (`CSUserQuery(userQueryString:userQueryContext:)`): search results and suggestions.
public struct UserQueryRequest: Sendable {
    public var query: String
    /// `maxResultCount`.
    public var maxItems: Int
    /// `maxSuggestionCount`.
    public var maxSuggestions: Int
    /// Only these fields of each item (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    /// How many of the words the items must match: by default fewer, the most frequent left out first, when fewer
    /// than `maxItems` match them all (a spoken or half-typed query has words no entity holds).
    public var matching: WordMatching = .frequency

    public static let defaultMaxItems = 20
    public static let defaultMaxSuggestions = 5
    public static let maxSuggestionsLimit = 100

    public init(
        query: String, maxItems: Int = UserQueryRequest.defaultMaxItems,
        maxSuggestions: Int = UserQueryRequest.defaultMaxSuggestions
    ) {
        self.query = query
        self.maxItems = maxItems
        self.maxSuggestions = maxSuggestions
    }
}

/// A completion of the whole typed string (`CSUserQuery.Suggestion`), with the spans of it that were typed
/// (UTF-16 offsets, as search highlights give them).
public struct UserQuerySuggestion: Sendable, Equatable {
    public var text: String
    public var matchedRanges: [Range<Int>]

    public init(text: String, matchedRanges: [Range<Int>]) {
        self.text = text
        self.matchedRanges = matchedRanges
    }
}

public struct UserQueryResult: Sendable {
    public var items: [EntityResult]
    public var suggestions: [UserQuerySuggestion]
}

extension EntityStore {
    /// Names suggestions are drawn from: titles, synonyms and keywords.
    static let suggestionAttributes = ["title", "synonyms", "keywords"]
    /// At most this many name rows are read for suggestions of one kind (a short prefix matches many).
    static let suggestionCandidates = 2000

    /// Items are `search` for the text as typed (best first, with `matching`: by default `frequency`); suggestions are titles and names that complete the
    /// whole typed string: those starting with it first, then those with a word starting with it; among each, names
    /// more entities carry first, then shorter ones. Hidden and expired entities give neither.
    public func userQuery(_ request: UserQueryRequest) throws(EntityIndexError) -> UserQueryResult {
        let items = try search(SearchRequest(query: request.query, limit: request.maxItems, matching: request.matching))
        var typed = Substring(request.query)
        while let c = typed.first, c.isWhitespace { typed = typed.dropFirst() }
        guard request.maxSuggestions > 0, !typed.isEmpty else { return UserQueryResult(items: items, suggestions: []) }
        do {
            let key = SpotlightFold.key(String(typed))
            let suggestions: [UserQuerySuggestion] = try db.read {
                try self.suggestions(key: key, limit: request.maxSuggestions)
            }
            return UserQueryResult(items: items, suggestions: suggestions)
        } catch let error as EntityIndexError {
            throw error
        } catch {
            if spotlightBudget.exhausted { throw spotlightBudget.error() }
            throw EntityIndexError.wrap(error, doing: "finding suggestions")
        }
    }

    private struct Candidate {
        var text: String
        var count: Int
        var range: Range<Int>
        var inner: Bool
    }

    private func suggestions(key: String, limit: Int) throws -> [UserQuerySuggestion] {
        try defineSpotlightMatch()
        spotlightBudget.start(limit: maxSpotlightScanBytes)
        let ids = try Self.suggestionAttributes.compactMap { try spotlightAttributeID($0) }
        guard !ids.isEmpty else { return [] }
        let attributes = ids.map { _ in "?" }.joined(separator: ", ")
        let typed = Array(key.utf8)
        // Names of the candidate entities whose folded form `keep`s; at most `suggestionCandidates` of them.
        func read(_ sql: String, _ arguments: [SQLValue], keep: (String) -> Bool) throws -> [(String, String, Int)] {
            var byFold: [String: (value: String, count: Int)] = [:]
            var names = 0
            let statement = try db.prepare(sql)
            try statement.bind(arguments)
            rows: while try statement.step() {
                let held = SpotlightValues.values(
                    stored: statement.borrowedBytes(1), keys: ["synonyms", "keywords"], db.recordDictionaries)
                let values = [statement.text(0)] + (held?.values ?? [])
                for value in values {
                    let fold = SpotlightFold.key(value)
                    guard keep(fold) else { continue }
                    let nfc = SpotlightFold.fold(value, case: false, marks: false)
                    if let known = byFold[fold] {
                        let least = nfc.utf8.lexicographicallyPrecedes(known.value.utf8) ? nfc : known.value
                        byFold[fold] = (least, known.count + 1)
                    } else {
                        byFold[fold] = (nfc, 1)
                    }
                    names += 1
                    if names == Self.suggestionCandidates { break rows }
                }
            }
            return byFold.map { ($0.value.value, $0.key, $0.value.count) }
        }
        var byFold: [String: Candidate] = [:]
        let heads =
            typed.count >= 8
            ? SpotlightKey.head(typed)...SpotlightKey.head(typed) : SpotlightKey.heads(startingWith: typed)
        let starting = try read(
            """
            SELECT e.title, e.record FROM entity e WHERE e.rowid IN (
                SELECT entity FROM spotlight_key WHERE attr IN (\(attributes)) AND head BETWEEN ? AND ?)
            AND e.hidden = 0 AND e.expires_at > ?
            """, ids.map { .integer($0) } + [.integer(heads.lowerBound), .integer(heads.upperBound), .integer(now)],
            keep: { $0.utf8.starts(with: typed) })
        for (value, fold, count) in starting {
            guard let range = Self.typedRange(in: value, key: key, wordStart: false) else { continue }
            byFold[fold] = Candidate(text: value, count: count, range: range, inner: false)
        }
        if byFold.count < limit {
            // Names that hold the typed text after their start: the title is checked on the entity; synonyms and
            // keywords on the record, of the entities that have one.
            let spec = SQLValue.text("3:" + SpotlightPattern([.wildcard, .literal(key), .wildcard]).description)
            let inner = try read(
                """
                SELECT e.title, e.record FROM entity e WHERE e.hidden = 0 AND e.expires_at > ?
                AND (spotlight_match(e.title, ?) OR spotlight_names(e.record))
                """,
                [.integer(now), spec],
                keep: { fold in
                    guard let found = SpotlightMatcher.find(typed, in: Array(fold.utf8), from: 0, to: fold.utf8.count)
                    else { return false }
                    return found > 0
                })
            for (value, fold, count) in inner where byFold[fold] == nil {
                guard let range = Self.typedRange(in: value, key: key, wordStart: true) else { continue }
                byFold[fold] = Candidate(text: value, count: count, range: range, inner: true)
            }
        }
        let ranked = byFold.values.sorted { a, b in
            if a.inner != b.inner { return !a.inner }
            if a.count != b.count { return a.count > b.count }
            if a.text.count != b.text.count { return a.text.count < b.text.count }
            return a.text < b.text
        }
        return ranked.prefix(limit).map { UserQuerySuggestion(text: $0.text, matchedRanges: [$0.range]) }
    }

    /// Where the typed text (folded: `key`) stands in `value`, in UTF-16 offsets: at its start, or (`wordStart`) at
    /// the start of a later word. Nil when it is not there.
    static func typedRange(in value: String, key: String, wordStart: Bool) -> Range<Int>? {
        let characters = Array(value)
        var utf16Start = 0
        for start in characters.indices {
            defer { utf16Start += characters[start].utf16.count }
            if wordStart {
                guard start > 0 else { continue }
                let before = characters[start - 1], here = characters[start]
                let boundary =
                    !before.unicodeScalars.allSatisfy(SpotlightMatcher.isWordScalar)
                    || (before.isLowercase && here.isUppercase)
                guard boundary else { continue }
            } else if start > 0 {
                return nil
            }
            var folded = ""
            var end = start, utf16End = utf16Start
            while end < characters.count && folded.utf8.count < key.utf8.count {
                utf16End += characters[end].utf16.count
                end += 1
                folded = SpotlightFold.key(String(characters[start..<end]))
            }
            if folded.hasPrefix(key) { return utf16Start..<utf16End }
        }
        return nil
    }
}
