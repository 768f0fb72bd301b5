import JSON

// The engine's requests, one value per method of the contract (§3). The pipe decodes its params into these and
// the CLI builds them from its options; `SearchRequest`, `PropertyQueryRequest` and `DeleteRequest` live beside the
// code that runs them.

/// Records to upsert, all or nothing (the pipe's `ingest`).
public struct IngestRequest: Sendable {
    public var records: [JSONValue]
    /// Leave invalid records out and commit the valid ones, instead of refusing the whole input.
    public var skipInvalid: Bool
    public init(records: [JSONValue], skipInvalid: Bool = false) {
        self.records = records
        self.skipInvalid = skipInvalid
    }
}

/// `entities(for:)`: entities of one type by id, in the order asked.
public struct GetRequest: Sendable, Equatable {
    public var type: String
    public var ids: [String]
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    public init(type: String, ids: [String]) {
        self.type = type
        self.ids = ids
    }
}

/// `suggestedEntities()`.
public struct SuggestRequest: Sendable, Equatable {
    public static let defaultLimit = 10
    /// Only entities of these types (their union); empty: every type.
    public var types: [String]
    public var limit: Int
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    public init(types: [String], limit: Int = defaultLimit) {
        self.types = TypeUnion.normalized(types)
        self.limit = limit
    }
    public init(type: String? = nil, limit: Int = defaultLimit) {
        self.init(types: type.map { [$0] } ?? [], limit: limit)
    }
}

/// A page of `allEntities()`.
public struct AllRequest: Sendable, Equatable {
    public static let defaultLimit = 100
    /// One type, or several for their union (never none).
    public var types: [String]
    public var limit: Int
    /// The `nextCursor` of the previous page.
    public var cursor: String?
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    /// The facets to count among every entity of the types (`FacetCounts`).
    public var facets: [String] = []
    public init(types: [String], limit: Int = defaultLimit, cursor: String? = nil) {
        self.types = TypeUnion.normalized(types)
        self.limit = limit
        self.cursor = cursor
    }
    public init(type: String, limit: Int = defaultLimit, cursor: String? = nil) {
        self.init(types: [type], limit: limit, cursor: cursor)
    }
}

/// Which way `related` follows links.
public enum RelatedDirection: String, Sendable, CaseIterable { case out, `in`, both }

/// The entities one entity links to, that link to it, or both.
public struct RelatedRequest: Sendable, Equatable {
    public var type: String
    public var id: String
    public var direction: RelatedDirection
    /// Only these fields of each entity (`fields`); nil: whole entities.
    public var fields: FieldSelection? = nil
    public init(type: String, id: String, direction: RelatedDirection = .out) {
        self.type = type
        self.id = id
        self.direction = direction
    }
}

/// An interaction with one entity (an intent donation).
public struct DonateRequest: Sendable, Equatable {
    public var type: String
    public var id: String
    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }
}

/// Completions of the word being typed.
public struct CompleteRequest: Sendable, Equatable {
    public static let defaultLimit = 8
    public var prefix: String
    public var limit: Int
    public init(prefix: String, limit: Int = defaultLimit) {
        self.prefix = prefix
        self.limit = limit
    }
}

/// Ends the open batch with a new client state; with `expected`, only if the stored state is that one.
public struct BatchEndRequest: Sendable, Equatable {
    public var clientState: String
    /// nil: no check; `.some(nil)`: the stored state must be null.
    public var expected: String??
    public init(clientState: String, expected: String?? = nil) {
        self.clientState = clientState
        self.expected = expected
    }
}

/// The system asks the app to reindex: ids of a type, a whole type, or everything.
public struct ReindexRequest: Sendable, Equatable {
    public var type: String?
    public var ids: [String]?
    public init(type: String? = nil, ids: [String]? = nil) {
        self.type = type
        self.ids = ids
    }
}

/// Closes one reindex request.
public struct ReindexAckRequest: Sendable, Equatable {
    public var requestId: Int64
    public init(requestId: Int64) { self.requestId = requestId }
}

/// Property types for one entity type.
public struct DeclareRequest: Sendable, Equatable {
    public var type: String
    public var properties: [PropertyDeclaration]
    /// How the type's text matches other forms of its words; nil: as it was.
    public var stemming: Stemming?
    /// Whether the type's words of other scripts also match by their Latin letters; nil: as it was.
    public var transliteration: Transliteration?
    public init(
        type: String, properties: [PropertyDeclaration], stemming: Stemming? = nil,
        transliteration: Transliteration? = nil
    ) {
        self.type = type
        self.properties = properties
        self.stemming = stemming
        self.transliteration = transliteration
    }
}

/// A method that takes no parameters (`batch.begin`, `state`, `reindex.pending`, `stats`, `declarations`).
public struct NoParameters: Sendable, Equatable {
    public init() {}
}
