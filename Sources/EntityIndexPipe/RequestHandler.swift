import EntityIndex
import JSON

/// Runs one method of the contract (§3) on a store: params in, result out.
///
/// The pipe and the CLI's `--json` both go through here, so they return exactly the same results.
public final class RequestHandler {
    public let store: EntityStore
    /// The clock for each request: fixed by `--now`, else the wall clock.
    let clock: () -> Int64

    public init(store: EntityStore, clock: @escaping () -> Int64) {
        self.store = store
        self.clock = clock
    }

    public static let methods = [
        "ingest", "get", "search", "suggest", "all", "query", "related", "delete", "donate", "batch.begin", "batch.end",
        "state", "reindex.request", "reindex.pending", "reindex.ack", "stats", "declare", "declarations", "complete",
    ]

    /// Whether `method` exists (unknown methods are a protocol error, not an invalid-params one).
    public static func knows(_ method: String) -> Bool { methods.contains(method) }

    public func call(_ method: String, _ rawParams: JSONValue?) throws(EntityIndexError) -> JSONValue {
        store.now = clock()
        func params(_ allowed: [String]) throws(EntityIndexError) -> Params {
            try Params(rawParams, method: method, allowed: allowed)
        }
        switch method {
        case "ingest":
            let p = try params(["records"])
            guard let records = try p.array("records") else { throw p.fail("records", "is required (an array of records)") }
            let counts = try store.ingest(records)
            return counts.json
        case "get":
            let p = try params(["type", "ids"])
            let type = try p.type(required: true)!
            guard let ids = try p.ids("ids") else { throw p.fail("ids", "is required") }
            return entities(try store.get(type: type, ids: ids))
        case "search":
            let p = try params(["query", "type", "limit", "filters", "explain", "highlight"])
            let request = SearchRequest(
                query: try p.requiredString("query"), type: try p.type(required: false), limit: try p.limit(default: 20),
                filters: try p.filters(), explain: try p.bool("explain") ?? false, highlight: try p.bool("highlight") ?? false)
            return entities(try store.search(request))
        case "complete":
            let p = try params(["prefix", "limit"])
            let completions = try store.complete(try p.requiredString("prefix"), limit: try p.limit(default: 8))
            return ["completions": .array(completions.map { ["term": .string($0.term), "documents": JSONValue($0.documents)] })]
        case "suggest":
            let p = try params(["type", "limit"])
            return entities(try store.suggest(type: try p.type(required: false), limit: try p.limit(default: 10)))
        case "all":
            let p = try params(["type", "limit", "cursor"])
            let page = try store.all(type: try p.type(required: true)!, limit: try p.limit(default: 100), cursor: try p.string("cursor"))
            var result = JSONObject([("entities", .array(page.entities.map(\.json)))])
            if let next = page.next { result["nextCursor"] = .string(next) }
            return .object(result)
        case "query":
            let p = try params(["type", "filters", "mode", "sort", "limit"])
            let modeName = try p.string("mode") ?? "and"
            guard let mode = PropertyQueryRequest.Mode(rawValue: modeName) else { throw p.fail("mode", "must be \"and\" or \"or\"") }
            let request = PropertyQueryRequest(type: try p.type(required: true)!, filters: try p.filters(), mode: mode,
                                               sort: try p.sort(), limit: try p.int("limit", range: 0...EntityStore.maxResults))
            return entities(try store.query(request))
        case "related":
            let p = try params(["type", "id", "direction"])
            let name = try p.string("direction") ?? "out"
            guard let direction = EntityStore.RelatedDirection(rawValue: name) else {
                throw p.fail("direction", "must be \"out\", \"in\" or \"both\"")
            }
            return entities(try store.related(type: try p.type(required: true)!, id: try p.requiredId("id"), direction: direction))
        case "delete":
            let p = try params(["type", "ids", "domains", "all"])
            let request = DeleteRequest(type: try p.type(required: false), ids: try p.ids("ids") ?? [],
                                        domains: try p.strings("domains") ?? [], all: try p.bool("all") ?? false)
            return ["deleted": JSONValue(try store.delete(request))]
        case "donate":
            let p = try params(["type", "id"])
            let counted = try store.donate(type: try p.type(required: true)!, id: try p.requiredId("id"))
            return ["counted": .bool(counted)]
        case "batch.begin":
            _ = try params([])
            try store.beginBatch()
            return [:]
        case "batch.end":
            let p = try params(["clientState", "expectedClientState"])
            let state = try p.requiredString("clientState")
            let expected: String?? = p.object["expectedClientState"] == nil ? nil : .some(try p.string("expectedClientState"))
            try store.endBatch(clientState: state, expected: expected)
            return [:]
        case "state":
            _ = try params([])
            return ["clientState": JSONValue(try store.clientState())]
        case "reindex.request":
            let p = try params(["type", "ids"])
            return ["requestId": .number(JSONNumber(try store.requestReindex(type: try p.type(required: false), ids: try p.ids("ids"))))]
        case "reindex.pending":
            _ = try params([])
            return ["requests": .array(try store.pendingReindex().map(\.json))]
        case "reindex.ack":
            let p = try params(["requestId"])
            guard let id = try p.int("requestId", range: 1...Int.max) else { throw p.fail("requestId", "is required") }
            try store.acknowledgeReindex(Int64(id))
            return [:]
        case "stats":
            _ = try params([])
            return try store.stats()
        case "declare":
            let p = try params(["type", "properties"])
            let type = try p.type(required: true)!
            try store.declare(type: type, try declarations(p))
            return ["declared": JSONValue(try p.array("properties")?.count ?? 0)]
        case "declarations":
            _ = try params([])
            return ["types": try store.allDeclarations()]
        default:
            throw EntityIndexError(.invalidParams, "unknown method \"\(method)\"")
        }
    }

    private func entities(_ results: [EntityResult]) -> JSONValue {
        ["entities": .array(results.map(\.json))]
    }

    private func declarations(_ p: Params) throws(EntityIndexError) -> [PropertyDeclaration] {
        guard let items = try p.array("properties") else { throw p.fail("properties", "is required") }
        var result: [PropertyDeclaration] = []
        for (i, item) in items.enumerated() {
            let name = "properties[\(i)]"
            guard case .object(let o) = item, let property = o["name"]?.string, !property.isEmpty else {
                throw p.fail(name, "must be an object {name, kind, sortable?, indexingKey?}")
            }
            for key in o.keys where !["name", "kind", "sortable", "indexingKey"].contains(key) {
                throw p.fail("\(name).\(key)", "is not allowed")
            }
            let kinds = PropertyDeclaration.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            guard let kindName = o["kind"]?.string, let kind = PropertyDeclaration.Kind(rawValue: kindName) else {
                throw p.fail("\(name).kind", "must be one of: \(kinds)")
            }
            let sortable = o["sortable"]?.bool ?? true
            let key = o["indexingKey"]?.string
            if let key, key.isEmpty || !key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                throw p.fail("\(name).indexingKey", "must be an attribute name of ASCII letters, digits and '_'")
            }
            result.append(PropertyDeclaration(name: property, kind: kind, sortable: sortable, indexingKey: key))
        }
        return result
    }
}

extension IngestCounts {
    public var json: JSONValue {
        ["inserted": JSONValue(inserted), "updated": JSONValue(updated), "unchanged": JSONValue(unchanged)]
    }
}
