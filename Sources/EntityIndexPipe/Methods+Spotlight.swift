import EntityIndex
import JSON

// Core Spotlight's queries as pipe methods: `spotlight` (CSSearchQuery) and `userQuery` (CSUserQuery).

extension SpotlightRequest: PipeMethod {
    public static let method = Method.spotlight
    public static let parameters = ["query", "type", "limit", "fetchAttributes", "fields"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            query: try p.requiredString("query"), types: try p.types(required: false),
            limit: try p.limit(default: Self.defaultLimit), fetchAttributes: try p.strings("fetchAttributes"))
        fields = try p.fields()
    }
    public func validate() throws(EntityIndexError) {
        try check(types: types)
        for (i, name) in (fetchAttributes ?? []).enumerated() where name.isEmpty {
            throw invalid("fetchAttributes[\(i)]", "must be a non-empty attribute name")
        }
        if fields != nil && fetchAttributes != nil {
            throw invalid(
                "fields",
                "cannot go with fetchAttributes: give record fields (fields) or Spotlight attributes (fetchAttributes)")
        }
    }
    public func run(on store: EntityStore) throws(EntityIndexError) -> [EntityResult] {
        try store.spotlight(self).selecting(fields)
    }
    public static func encode(_ result: [EntityResult]) -> JSONValue { result.entitiesJSON }
}

extension UserQueryRequest: PipeMethod {
    public static let method = Method.userQuery
    public static let parameters = ["query", "maxItems", "maxSuggestions", "fields", "matching"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            query: try p.requiredString("query"),
            maxItems: try p.int("maxItems", range: 0...EntityStore.maxResults) ?? Self.defaultMaxItems,
            maxSuggestions: try p.int("maxSuggestions", range: 0...Self.maxSuggestionsLimit)
                ?? Self.defaultMaxSuggestions)
        fields = try p.fields()
        matching = try p.matching(default: .frequency)
    }
    public func run(on store: EntityStore) throws(EntityIndexError) -> UserQueryResult {
        var result = try store.userQuery(self)
        result.items = result.items.selecting(fields)
        return result
    }
    public static func encode(_ result: UserQueryResult) -> JSONValue {
        ["items": .array(result.items.map(\.json)), "suggestions": .array(result.suggestions.map(\.json))]
    }
}

extension UserQuerySuggestion {
    /// `{"text": …, "matchedRanges": [{"start": s, "end": e}]}`, UTF-16 offsets as in search highlights.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("text", .string(text)),
                (
                    "matchedRanges",
                    .array(matchedRanges.map { ["start": JSONValue($0.lowerBound), "end": JSONValue($0.upperBound)] })
                ),
            ]))
    }
}
