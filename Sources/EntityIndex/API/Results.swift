import JSON

/// An entity in a result: its identity, the record exactly as ingested, and what the method adds.
///
/// A search adds its `score` (and, when asked, the ranking tiers and the matched spans); a suggestion its
/// `engagement`.
public struct EntityResult: Sendable {
    public var key: EntityKey
    /// The record as ingested, as its stored JSON text or parsed.
    private var stored: Stored
    public var score: Double?
    public var explanation: JSONValue?
    public var highlights: [Highlight]?
    /// How a search result matched beyond the words as typed: `synonym`, `phone`, `stem`, `typo` (sorted); nil or
    /// empty when it matched as typed.
    public var matchedBy: [String]?
    public var engagement: Double?

    private enum Stored: Sendable {
        case text(JSONText)
        case parsed(JSONObject)
    }

    public init(key: EntityKey, record: JSONObject) {
        self.key = key
        self.stored = .parsed(record)
    }

    /// A result read from the index: the record's JSON text as stored, written to responses as it is.
    public init(key: EntityKey, recordText: JSONText) {
        self.key = key
        self.stored = .text(recordText)
    }

    /// The record, parsed (each read of a result read from the index parses its text).
    public var record: JSONObject {
        get {
            switch stored {
            case .parsed(let o): return o
            case .text(let t): return JSONValue.encoded(t).object ?? JSONObject()
            }
        }
        set { stored = .parsed(newValue) }
    }

    /// The same result with its record parsed once, for a reader that looks at several of its fields (each read of
    /// `record` parses a stored text again).
    public var parsed: EntityResult {
        guard case .text = stored else { return self }
        var copy = self
        copy.stored = .parsed(record)
        return copy
    }

    /// Replaces the record by another stored text (the same record cut to some of its fields).
    mutating func replaceRecordText(_ text: JSONText) { stored = .text(text) }

    /// The record's JSON text when the result holds it unparsed.
    public var recordText: JSONText? {
        if case .text(let t) = stored { return t }
        return nil
    }
}

/// A matched span of one field of a search result, in UTF-16 code units of the original text.
public struct Highlight: Sendable, Equatable {
    /// `title`, `synonyms[0]`, `properties.note`…
    public var field: String
    public var start: Int
    public var end: Int
    public var text: String

    public init(field: String, start: Int, end: Int, text: String) {
        self.field = field
        self.start = start
        self.end = end
        self.text = text
    }
}

/// A page of `allEntities()` (or of a property query cut at the per-request maximum), and where the next starts.
public struct EntityPage: Sendable {
    public var entities: [EntityResult]
    public var nextCursor: String?
    /// The facets asked for, counted among every match; nil when none was asked for.
    public var facets: FacetCounts?
    public init(entities: [EntityResult], nextCursor: String? = nil) {
        self.entities = entities
        self.nextCursor = nextCursor
    }
}

/// What `related` found: the linked entities, and the entities the one asked about lists that the index does not
/// hold (deleted, expired or never pushed), which `out` leaves out of `entities`.
public struct RelatedEntities: Sendable {
    public var entities: [EntityResult]
    /// In listed order, each once; empty for `in`.
    public var missing: [EntityKey]
    public init(entities: [EntityResult], missing: [EntityKey] = []) {
        self.entities = entities
        self.missing = missing
    }
}

/// A completion of the word being typed and how many documents hold it.
public struct Completion: Sendable, Equatable {
    public var term: String
    public var documents: Int
    public init(term: String, documents: Int) {
        self.term = term
        self.documents = documents
    }
}

/// An open reindex request and what it still waits for.
public struct PendingReindex: Sendable, Equatable {
    public var requestId: Int64
    public var type: String?
    public var ids: [String]?
    public var createdAt: Int64
    /// Entities not re-pushed (ingested or deleted) since the request.
    public var outstanding: [EntityKey]
}

/// The declared properties of one entity type.
public struct TypeDeclarations: Sendable, Equatable {
    public var type: String
    public var properties: [PropertyDeclaration]
    /// How the type's text matches other forms of its words.
    public var stemming: Stemming = .none
    /// Whether the type's words of other scripts also match by their Latin letters.
    public var transliteration: Transliteration = .none
}

/// What is in the index, what is hidden, expired or about to expire, and what it runs on.
public struct Stats: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var entities = 0
        public var hidden = 0
        public var expired = 0
        /// Entities that expire within 7 days.
        public var expiringSoon = 0
    }

    public var all: Counts
    /// Per type, ordered by type.
    public var types: [(type: String, counts: Counts)]
    public var reindexRequests: Int
    public var donations: Int
    public var clientState: String?
    public var databaseBytes: Int
    public var path: String
    public var now: Int64
    public var schemaVersion: Int
    public var textVersion: Int
    public var sqliteVersion: String
    public var icuVersion: String
    /// The text version the index was built with: when it differs from `textVersion`, the first write (or
    /// `entityidx rebuild`) rebuilds it; until then searches use the older analysis.
    public var indexTextVersion: Int
    /// Whether this process cannot write the database (it is read, immutable).
    public var readOnly: Bool

    public static func == (a: Stats, b: Stats) -> Bool {
        a.all == b.all && a.types.map(\.type) == b.types.map(\.type) && a.types.map(\.counts) == b.types.map(\.counts)
            && a.reindexRequests == b.reindexRequests && a.donations == b.donations && a.clientState == b.clientState
            && a.databaseBytes == b.databaseBytes && a.path == b.path && a.now == b.now
            && a.schemaVersion == b.schemaVersion && a.textVersion == b.textVersion
            && a.sqliteVersion == b.sqliteVersion && a.icuVersion == b.icuVersion
            && a.indexTextVersion == b.indexTextVersion && a.readOnly == b.readOnly
    }
}
