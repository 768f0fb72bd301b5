import EntityIndex
import JSON

// The engine's requests as pipe methods: how each reads its params, runs, and encodes its result.

extension IngestRequest: PipeMethod {
    public static let method = Method.ingest
    public static let parameters = ["records", "skipInvalid"]
    public init(params p: Params) throws(EntityIndexError) {
        guard let records = try p.array("records") else { throw p.fail("records", "is required (an array of records)") }
        self.init(records: records, skipInvalid: try p.bool("skipInvalid") ?? false)
    }
    public func run(on store: EntityStore) throws(EntityIndexError) -> IngestCounts {
        try store.ingest(records, skipInvalid: skipInvalid)
    }
    public static func encode(_ result: IngestCounts) -> JSONValue { result.json }
}

extension GetRequest: PipeMethod {
    public static let method = Method.get
    public static let parameters = ["type", "ids", "fields"]
    public init(params p: Params) throws(EntityIndexError) {
        let type = try p.requiredType()
        guard let ids = try p.ids("ids") else { throw p.fail("ids", "is required") }
        self.init(type: type, ids: ids)
        fields = try p.fields()
    }
    public func validate() throws(EntityIndexError) { try check(type: type) }
    /// The entities found (only the fields asked for) and the ids not found.
    public func run(on store: EntityStore) throws(EntityIndexError) -> GetResult {
        var result = try store.lookup(type: type, ids: ids)
        result.entities = result.entities.selecting(fields)
        return result
    }
    public static func encode(_ result: GetResult) -> JSONValue { result.json }
}

extension SearchRequest: PipeMethod {
    public static let method = Method.search
    public static let parameters = [
        "query", "type", "limit", "filters", "explain", "highlight", "cursor", "fields", "matching", "facets",
    ]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            query: try p.requiredString("query"), types: try p.types(required: false), limit: try p.limit(default: 20),
            filters: try p.filters(), explain: try p.bool("explain") ?? false,
            highlight: try p.bool("highlight") ?? false, cursor: try p.string("cursor"),
            matching: try p.matching(default: .all))
        fields = try p.fields()
        facets = try p.strings("facets") ?? []
    }
    public func validate() throws(EntityIndexError) { try check(types: types) }
    /// The page of results (only the fields asked for), the total and the next page's cursor.
    public func run(on store: EntityStore) throws(EntityIndexError) -> SearchPage {
        var page = try store.searchPage(self)
        page.entities = page.entities.selecting(fields)
        return page
    }
    public static func encode(_ result: SearchPage) -> JSONValue { result.json }
}

extension CompleteRequest: PipeMethod {
    public static let method = Method.complete
    public static let parameters = ["prefix", "limit"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(prefix: try p.requiredString("prefix"), limit: try p.limit(default: Self.defaultLimit))
    }
    public func run(on store: EntityStore) throws(EntityIndexError) -> [Completion] {
        try store.complete(prefix, limit: limit)
    }
    public static func encode(_ result: [Completion]) -> JSONValue {
        ["completions": .array(result.map { ["term": .string($0.term), "documents": JSONValue($0.documents)] })]
    }
}

extension SuggestRequest: PipeMethod {
    public static let method = Method.suggest
    public static let parameters = ["type", "limit", "fields"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(types: try p.types(required: false), limit: try p.limit(default: Self.defaultLimit))
        fields = try p.fields()
    }
    public func validate() throws(EntityIndexError) { try check(types: types) }
    public func run(on store: EntityStore) throws(EntityIndexError) -> [EntityResult] {
        try store.suggest(types: types, limit: limit).selecting(fields)
    }
    public static func encode(_ result: [EntityResult]) -> JSONValue { result.entitiesJSON }
}

extension AllRequest: PipeMethod {
    public static let method = Method.all
    public static let parameters = ["type", "limit", "cursor", "fields", "facets"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            types: try p.types(required: true), limit: try p.limit(default: Self.defaultLimit),
            cursor: try p.string("cursor"))
        fields = try p.fields()
        facets = try p.strings("facets") ?? []
    }
    public func validate() throws(EntityIndexError) { try check(types: types) }
    public func run(on store: EntityStore) throws(EntityIndexError) -> EntityPage {
        var page = try store.all(types: types, limit: limit, cursor: cursor).selecting(fields)
        if !facets.isEmpty { page.facets = try store.allFacets(types: types, facets: facets) }
        return page
    }
    public static func encode(_ result: EntityPage) -> JSONValue { result.json }
}

extension PropertyQueryRequest: PipeMethod {
    public static let method = Method.query
    public static let parameters = ["type", "filters", "mode", "sort", "limit", "cursor", "fields", "facets"]
    public init(params p: Params) throws(EntityIndexError) {
        let modeName = try p.string("mode") ?? "and"
        guard let mode = Mode(rawValue: modeName) else { throw p.fail("mode", "must be \"and\" or \"or\"") }
        self.init(
            types: try p.types(required: true), filters: try p.filters(), mode: mode, sort: try p.sort(),
            limit: try p.int("limit", range: 0...EntityStore.maxResults), cursor: try p.string("cursor"))
        fields = try p.fields()
        facets = try p.strings("facets") ?? []
    }
    public func validate() throws(EntityIndexError) { try check(types: types) }
    /// The results, and a `nextCursor` when they were cut at the per-request maximum.
    public func run(on store: EntityStore) throws(EntityIndexError) -> EntityPage {
        try store.queryPage(self).selecting(fields)
    }
    public static func encode(_ result: EntityPage) -> JSONValue { result.json }
}

extension RelatedRequest: PipeMethod {
    public static let method = Method.related
    public static let parameters = ["type", "id", "direction", "fields"]
    public init(params p: Params) throws(EntityIndexError) {
        let name = try p.string("direction") ?? "out"
        guard let direction = RelatedDirection(rawValue: name) else {
            throw p.fail("direction", "must be \"out\", \"in\" or \"both\"")
        }
        self.init(type: try p.requiredType(), id: try p.requiredId("id"), direction: direction)
        fields = try p.fields()
    }
    public func validate() throws(EntityIndexError) { try check(type: type) }
    public func run(on store: EntityStore) throws(EntityIndexError) -> RelatedEntities {
        var result = try store.related(self)
        result.entities = result.entities.selecting(fields)
        return result
    }
    public static func encode(_ result: RelatedEntities) -> JSONValue { result.json }
}

extension DeleteRequest: PipeMethod {
    public static let method = Method.delete
    public static let parameters = ["type", "ids", "domains", "all", "dryRun"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            types: try p.types(required: false), ids: try p.ids("ids") ?? [],
            domains: try p.strings("domains") ?? [], all: try p.bool("all") ?? false)
        dryRun = try p.bool("dryRun") ?? false
    }
    public func validate() throws(EntityIndexError) { try check(types: types) }
    public func run(on store: EntityStore) throws(EntityIndexError) -> DeleteOutcome {
        dryRun ? DeleteOutcome(preview: try store.preview(self)) : DeleteOutcome(deleted: try store.delete(self))
    }
    public static func encode(_ result: DeleteOutcome) -> JSONValue { result.json }
}

extension DonateRequest: PipeMethod {
    public static let method = Method.donate
    public static let parameters = ["type", "id"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(type: try p.requiredType(), id: try p.requiredId("id"))
    }
    public func validate() throws(EntityIndexError) { try check(type: type) }
    /// Whether the donation counted (not within the window of the previous one).
    public func run(on store: EntityStore) throws(EntityIndexError) -> Bool { try store.donate(type: type, id: id) }
    public static func encode(_ result: Bool) -> JSONValue { ["counted": .bool(result)] }
}

extension BatchEndRequest: PipeMethod {
    public static let method = Method.batchEnd
    public static let parameters = ["clientState", "expectedClientState"]
    public init(params p: Params) throws(EntityIndexError) {
        let state = try p.requiredString("clientState")
        let expected: String?? = p.has("expectedClientState") ? .some(try p.string("expectedClientState")) : nil
        self.init(clientState: state, expected: expected)
    }
    public func run(on store: EntityStore) throws(EntityIndexError) {
        try store.endBatch(clientState: clientState, expected: expected)
    }
    public static func encode(_ result: Void) -> JSONValue { [:] }
}

extension ReindexRequest: PipeMethod {
    public static let method = Method.reindexRequest
    public static let parameters = ["type", "ids"]
    public init(params p: Params) throws(EntityIndexError) {
        self.init(type: try p.type(required: false), ids: try p.ids("ids"))
    }
    public func validate() throws(EntityIndexError) { try check(type: type) }
    /// The new request's id.
    public func run(on store: EntityStore) throws(EntityIndexError) -> Int64 {
        try store.requestReindex(type: type, ids: ids)
    }
    public static func encode(_ result: Int64) -> JSONValue { ["requestId": .number(JSONNumber(result))] }
}

extension ReindexAckRequest: PipeMethod {
    public static let method = Method.reindexAck
    public static let parameters = ["requestId"]
    public init(params p: Params) throws(EntityIndexError) {
        guard let id = try p.int("requestId", range: 1...Int.max) else { throw p.fail("requestId", "is required") }
        self.init(requestId: Int64(id))
    }
    public func run(on store: EntityStore) throws(EntityIndexError) { try store.acknowledgeReindex(requestId) }
    public static func encode(_ result: Void) -> JSONValue { [:] }
}

extension DeclareRequest: PipeMethod {
    public static let method = Method.declare
    public static let parameters = ["type", "properties", "stemming", "transliterate"]
    public init(params p: Params) throws(EntityIndexError) {
        let type = try p.requiredType(), stemming = try p.stemming(), latin = try p.transliteration()
        self.init(
            type: type, properties: try p.declarations(optional: stemming != nil || latin != nil),
            stemming: stemming, transliteration: latin)
    }
    public func validate() throws(EntityIndexError) {
        try check(type: type)
        if properties.isEmpty && stemming == nil && transliteration == nil {
            throw invalid("properties", "must declare at least one property (or give stemming or transliterate)")
        }
        for (i, d) in properties.enumerated() {
            if d.name.isEmpty {
                throw invalid("properties[\(i)]", "must be an object {name, kind, sortable?, indexingKey?}")
            }
            if let key = d.indexingKey,
                key.isEmpty || !key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            {
                throw invalid(
                    "properties[\(i)].indexingKey", "must be an attribute name of ASCII letters, digits and '_'")
            }
        }
    }
    /// How many properties were declared.
    public func run(on store: EntityStore) throws(EntityIndexError) -> Int {
        try store.declare(type: type, properties, stemming: stemming, transliteration: transliteration)
        return properties.count
    }
    public static func encode(_ result: Int) -> JSONValue { ["declared": JSONValue(result)] }
}
