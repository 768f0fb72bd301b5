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
    /// The entity rows read for the suggestions (at most `EntityStore.suggestionRows` for each kind).
    var rowsRead = 0
}

extension EntityStore {
    /// Names suggestions are drawn from: titles, synonyms and keywords.
    static let suggestionAttributes = ["title", "synonyms", "keywords"]
    /// At most this many names are kept for suggestions of one kind (a short prefix matches many).
    static let suggestionCandidates = 2000
    /// At most this many entity rows are read for suggestions of one kind: those that start with the typed text,
    /// then those with a later word that does (a typed text that names hold nowhere reads none).
    static let suggestionRows = 2000

    /// Items are `search` for the text as typed (best first, with `matching`: by default `frequency`); suggestions
    /// are titles and names that complete the whole typed string: those starting with it first, then those with a
    /// word starting with it; among each, names more entities carry first, then shorter ones. Hidden and expired
    /// entities give neither.
    ///
    /// Suggestions read the entities an index finds, never every entity: those with a name whose first 8 bytes
    /// (folded) are the typed text's (`spotlight_key`), then those the full-text index finds for the typed words in
    /// their titles, synonyms and keywords (`nameCandidates`), each in rowid order, at most `suggestionRows` rows and
    /// `suggestionCandidates` names of each.
    public func userQuery(_ request: UserQueryRequest) throws(EntityIndexError) -> UserQueryResult {
        let items = try search(SearchRequest(query: request.query, limit: request.maxItems, matching: request.matching))
        var typed = Substring(request.query)
        while let c = typed.first, c.isWhitespace { typed = typed.dropFirst() }
        guard request.maxSuggestions > 0, !typed.isEmpty else { return UserQueryResult(items: items, suggestions: []) }
        do {
            let key = SpotlightFold.key(String(typed))
            let (suggestions, rows) = try db.read {
                try self.suggestions(key: key, typed: String(typed), limit: request.maxSuggestions)
            }
            return UserQueryResult(items: items, suggestions: suggestions, rowsRead: rows)
        } catch let error as EntityIndexError {
            throw error
        } catch {
            throw EntityIndexError.wrap(error, doing: "finding suggestions")
        }
    }

    private struct Candidate {
        var text: String
        var count: Int
        var range: Range<Int>
        var inner: Bool
    }

    /// The names of the entities of one kind of suggestion, and how many entity rows were read for them.
    private struct Names {
        var found: [(value: String, fold: String, count: Int)]
        var rows: Int
    }

    private func suggestions(key: String, typed text: String, limit: Int) throws -> (
        suggestions: [UserQuerySuggestion], rows: Int
    ) {
        let ids = try Self.suggestionAttributes.compactMap { try spotlightAttributeID($0) }
        guard !ids.isEmpty else { return ([], 0) }
        let attributes = ids.map { _ in "?" }.joined(separator: ", ")
        let typed = Array(key.utf8)
        // The full-text query of the entities whose title, synonyms or keywords may hold the typed text, made once.
        var holding: String??
        func names() throws -> String? {
            if let holding { return holding }
            let made = try nameCandidates(String(text))
            holding = .some(made)
            return made
        }
        // Names of the candidate entities whose folded form `keep`s, the entities read in rowid order; at most
        // `suggestionRows` of them and `suggestionCandidates` names.
        func read(_ sql: String, _ arguments: [SQLValue], keep: (String) -> Bool) throws -> Names {
            var byFold: [String: (value: String, count: Int)] = [:]
            var names = 0, rows = 0
            let statement = try db.prepare(sql)
            try statement.bind(arguments)
            rows: while rows < Self.suggestionRows, try statement.step() {
                rows += 1
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
            return Names(found: byFold.map { ($0.value.value, $0.key, $0.value.count) }, rows: rows)
        }
        var byFold: [String: Candidate] = [:]
        // Names that start with the typed text: the entities with a key of one of their names in the range of
        // heads. A head is the first 8 bytes: past them, the range holds every name that shares them
        // (`python3-` for `python3-reqeusts`), narrowed by the full-text index to those holding the typed words.
        var narrowing = ""
        var arguments = ids.map { SQLValue.integer($0) }
        let heads =
            typed.count >= 8
            ? SpotlightKey.head(typed)...SpotlightKey.head(typed) : SpotlightKey.heads(startingWith: typed)
        arguments += [.integer(heads.lowerBound), .integer(heads.upperBound)]
        if typed.count >= 8, let match = try names() {
            narrowing = "AND e.rowid IN (SELECT rowid & ? FROM search WHERE search MATCH ?)"
            arguments += [.integer(DocumentRank.maxRowid), .text(match)]
        }
        let starting = try read(
            """
            SELECT e.title, e.record FROM entity e WHERE e.rowid IN (
                SELECT entity FROM spotlight_key WHERE attr IN (\(attributes)) AND head BETWEEN ? AND ?)
            \(narrowing) AND e.hidden = 0 AND e.expires_at > ?
            """, arguments + [.integer(now)],
            keep: { $0.utf8.starts(with: typed) })
        var rows = starting.rows
        for (value, fold, count) in starting.found {
            guard let range = Self.typedRange(in: value, key: key, wordStart: false) else { continue }
            byFold[fold] = Candidate(text: value, count: count, range: range, inner: false)
        }
        if byFold.count < limit, let match = try names() {
            // Names that hold the typed text after their start: the entities the full-text index finds for it in
            // the title and names columns.
            let inner = try read(
                """
                SELECT e.title, e.record FROM entity e WHERE e.rowid IN (
                    SELECT rowid & ? FROM search WHERE search MATCH ?)
                AND e.hidden = 0 AND e.expires_at > ?
                """,
                [.integer(DocumentRank.maxRowid), .text(match), .integer(now)],
                keep: { fold in
                    guard let found = SpotlightMatcher.find(typed, in: Array(fold.utf8), from: 0, to: fold.utf8.count)
                    else { return false }
                    return found > 0
                })
            rows += inner.rows
            for (value, fold, count) in inner.found where byFold[fold] == nil {
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
        return (ranked.prefix(limit).map { UserQuerySuggestion(text: $0.text, matchedRanges: [$0.range]) }, rows)
    }

    /// The full-text query (`search`, its title and names columns) of the entities with a title, synonym or
    /// keyword that may hold `typed`; nil when none can.
    ///
    /// Every typed word is a term of the query, the last one a prefix, as `search` reads them. The first word may
    /// stand inside a longer word of the name (`york` in `NewYork`): when it is a plain word without digits and the
    /// vocabulary holds at most `SpotlightTranslator.vocabularyTerms` words that contain it, those words stand for it;
    /// else the word itself (or its prefix) does, and a name where it only starts inside a word is not found.
    func nameCandidates(_ typed: String) throws -> String? {
        let query = SearchQuery(typed)
        guard let first = query.terms.first else { return nil }
        var expressions = query.terms.map { $0.expression(maxTypos: 0) }
        if case .plain(let word) = first.kind, !word.hasASCIIDigit {
            let words = try vocabularyCopy.words(
                containing: word, limit: SpotlightTranslator.vocabularyTerms, db: self)
            if words.isEmpty { return nil }
            if words.count <= SpotlightTranslator.vocabularyTerms {
                let quoted = words.map { "\"" + $0.replacingAll("\"", "\"\"") + "\"" }
                expressions[0] = "(" + quoted.joined(separator: " OR ") + ")"
            }
        }
        return "{title names} : (" + expressions.joined(separator: " AND ") + ")"
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
