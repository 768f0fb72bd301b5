import EntityIndex
import JSON

/// The methods of the pipe (contract §3): the one list that dispatch, the unknown-method error and the schema test
/// read.
///
/// Adding a method is a case here and a `PipeMethod` type that decodes its params, runs it and encodes its result.
public enum Method: String, CaseIterable, Sendable {
    case ingest, get, search, complete, suggest, all, query, related, delete, donate
    case batchBegin = "batch.begin"
    case batchEnd = "batch.end"
    case batchAbort = "batch.abort"
    case state
    case reindexRequest = "reindex.request"
    case reindexPending = "reindex.pending"
    case reindexAck = "reindex.ack"
    case stats, declare, declarations, lint, drill
    case spotlight, userQuery, test
    case rpcDiscover = "rpc.discover"

    /// The request type of this method.
    public var request: any PipeMethod.Type {
        switch self {
        case .ingest: IngestRequest.self
        case .get: GetRequest.self
        case .search: SearchRequest.self
        case .complete: CompleteRequest.self
        case .suggest: SuggestRequest.self
        case .all: AllRequest.self
        case .query: PropertyQueryRequest.self
        case .related: RelatedRequest.self
        case .delete: DeleteRequest.self
        case .donate: DonateRequest.self
        case .batchBegin: BatchBeginMethod.self
        case .batchEnd: BatchEndRequest.self
        case .batchAbort: BatchAbortMethod.self
        case .state: StateMethod.self
        case .reindexRequest: ReindexRequest.self
        case .reindexPending: ReindexPendingMethod.self
        case .reindexAck: ReindexAckRequest.self
        case .stats: StatsMethod.self
        case .declare: DeclareRequest.self
        case .declarations: DeclarationsMethod.self
        case .lint: LintMethod.self
        case .drill: DrillMethod.self
        case .spotlight: SpotlightRequest.self
        case .userQuery: UserQueryRequest.self
        case .test: TestMethod.self
        case .rpcDiscover: DiscoverMethod.self
        }
    }

    /// Whether the method only reads: it changes neither the index, nor its client state, nor the open batch.
    public var reads: Bool {
        switch self {
        case .ingest, .delete, .donate, .batchBegin, .batchEnd, .batchAbort, .reindexRequest, .reindexAck, .declare:
            false
        default: true
        }
    }

    /// The names of its parameters; any other is an invalid-params error.
    public var parameters: [String] { request.parameters }

    /// Every method name, for messages.
    public static var names: [String] { allCases.map(\.rawValue) }
}

/// A request of one pipe method: decoded from `params`, run on a store, its result encoded.
///
/// The CLI builds the same values from its options and encodes results with the same `encode`, so that its
/// `--json` output is the pipe's `result` by construction.
public protocol PipeMethod: Sendable {
    associatedtype Result
    static var method: Method { get }
    static var parameters: [String] { get }
    /// Reads the params of a pipe request (unknown parameters are already rejected).
    init(params: Params) throws(EntityIndexError)
    /// Checks what the engine would not (a type name's syntax): the same errors for the pipe and the CLI.
    func validate() throws(EntityIndexError)
    func run(on store: EntityStore) throws(EntityIndexError) -> Result
    static func encode(_ result: Result) -> JSONValue
}

extension PipeMethod {
    public func validate() throws(EntityIndexError) {}

    /// Decodes `params`, runs the request and encodes its result: what the pipe does for one request. A type the
    /// index does not know is `not_found` (see `NamesEntityTypes`).
    static func respond(to params: JSONValue?, on store: EntityStore) throws(EntityIndexError) -> JSONValue {
        let request = try Self(params: try Params(params, method: method.rawValue, allowed: parameters))
        try request.validate()
        if let named = request as? any NamesEntityTypes {
            try store.checkKnown(types: named.namedTypes, emptyIndexAnswers: true)
        }
        return encode(try request.run(on: store))
    }

    /// An invalid-params error about one parameter, worded like the pipe's.
    func invalid(_ name: String, _ problem: String) -> EntityIndexError {
        EntityIndexError(.invalidParams, "\(Self.method.rawValue): parameter \(Quoting.quoted(name)) \(problem)")
    }

    /// Checks each type name of a union like a record's `type`.
    func check(types: [String], name: String = "type") throws(EntityIndexError) {
        for (i, type) in types.enumerated() {
            if let problem = RecordValidator.typeProblem(type) {
                throw invalid(types.count == 1 ? name : "\(name)[\(i)]", problem)
            }
        }
    }

    /// Checks a type name like a record's `type`.
    func check(type: String?, name: String = "type") throws(EntityIndexError) {
        if let type, let problem = RecordValidator.typeProblem(type) { throw invalid(name, problem) }
    }
}

/// A request that reads entities of the types it names: a type the index does not know is an error with the
/// closest known one, as the CLI's `--type` is, not an empty answer an assistant would take for "none"; an index
/// with no entities at all answers empty. (`related` is not one: `in` lists who points at an id of any type.)
protocol NamesEntityTypes {
    var namedTypes: [String] { get }
}

extension GetRequest: NamesEntityTypes { var namedTypes: [String] { [type] } }
extension SuggestRequest: NamesEntityTypes { var namedTypes: [String] { types } }
extension AllRequest: NamesEntityTypes { var namedTypes: [String] { types } }
extension PropertyQueryRequest: NamesEntityTypes { var namedTypes: [String] { types } }
extension SearchRequest: NamesEntityTypes { var namedTypes: [String] { types } }
extension SpotlightRequest: NamesEntityTypes { var namedTypes: [String] { types } }

// MARK: - Methods without parameters

/// `batch.begin`.
public struct BatchBeginMethod: PipeMethod {
    public static let method = Method.batchBegin
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) { try store.beginBatch() }
    public static func encode(_ result: Void) -> JSONValue { [:] }
}

/// `batch.abort`: rolls the open batch back (nothing of it is applied, the client state is unchanged).
public struct BatchAbortMethod: PipeMethod {
    public static let method = Method.batchAbort
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) {
        guard store.batchIsOpen else {
            throw EntityIndexError(.batchState, "no batch is open; there is nothing to abort")
        }
        store.abortBatch()
    }
    public static func encode(_ result: Void) -> JSONValue { [:] }
}

/// `state`: the client state of the last committed batch.
public struct StateMethod: PipeMethod {
    public static let method = Method.state
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) -> String? { try store.clientState() }
    public static func encode(_ result: String?) -> JSONValue { ["clientState": JSONValue(result)] }
}

/// `reindex.pending`: the open reindex requests.
public struct ReindexPendingMethod: PipeMethod {
    public static let method = Method.reindexPending
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) -> [PendingReindex] { try store.pendingReindex() }
    public static func encode(_ result: [PendingReindex]) -> JSONValue { ["requests": .array(result.map(\.json))] }
}

/// `stats`.
public struct StatsMethod: PipeMethod {
    public static let method = Method.stats
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) -> Stats { try store.stats() }
    public static func encode(_ result: Stats) -> JSONValue { result.json }
}

/// `declarations`: the declared properties of every type.
public struct DeclarationsMethod: PipeMethod {
    public static let method = Method.declarations
    public static let parameters: [String] = []
    public init() {}
    public init(params: Params) {}
    public func run(on store: EntityStore) throws(EntityIndexError) -> [TypeDeclarations] {
        try store.allDeclarations()
    }
    public static func encode(_ result: [TypeDeclarations]) -> JSONValue {
        let declared = result.filter { !$0.properties.isEmpty }
        var json = JSONObject([
            ("types", .object(JSONObject(declared.map { ($0.type, JSONValue.array($0.properties.map(\.json))) })))
        ])
        let stemmed = result.filter { $0.stemming != .none }
        if !stemmed.isEmpty {
            json["stemming"] = .object(JSONObject(stemmed.map { ($0.type, .string($0.stemming.rawValue)) }))
        }
        let transliterated = result.filter { $0.transliteration != .none }
        if !transliterated.isEmpty {
            json["transliterate"] = .object(
                JSONObject(transliterated.map { ($0.type, .string($0.transliteration.rawValue)) }))
        }
        return .object(json)
    }
}
