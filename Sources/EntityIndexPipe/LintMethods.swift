import EntityIndex
import JSON

// The pipe's `lint` and `drill`: params in, the engine's report out, and the one JSON form of each report (the
// CLI reads its records from a file as they come, runs the engine on them, and encodes with the same `encode`).

/// `lint`: `{"records": [...], "within"?: days, "limit"?: n}`, or `{}` (or only `within` and `limit`) for the
/// whole index.
public struct LintMethod: PipeMethod {
    public static let method = Method.lint
    public static let parameters = ["records", "within", "limit"]
    /// The most findings a request may ask to be listed (`limit`); without it, every finding is.
    public static let maxLimit = 1_000_000
    public var records: [JSONValue]?
    public var withinDays: Int
    public var limit: Int?

    public init(records: [JSONValue]?, withinDays: Int = LintRequest.defaultWithinDays, limit: Int? = nil) {
        self.records = records
        self.withinDays = withinDays
        self.limit = limit
    }

    public init(params p: Params) throws(EntityIndexError) {
        self.init(
            records: try p.array("records"),
            withinDays: try p.int("within", range: 0...LintRequest.maxWithinDays) ?? LintRequest.defaultWithinDays,
            limit: try p.int("limit", range: 0...Self.maxLimit))
    }

    public func run(on store: EntityStore) throws(EntityIndexError) -> LintReport {
        try store.lint(
            LintRequest(records: records.map(RecordSource.numbered), withinDays: withinDays, limit: limit))
    }

    public static func encode(_ result: LintReport) -> JSONValue { result.json }
}

/// `drill`: `{"records": [...], "type"?: T}`, what the app's reindex would push back after the system lost its
/// index (of one type, with `type`).
public struct DrillMethod: PipeMethod {
    public static let method = Method.drill
    public static let parameters = ["records", "type"]
    public var records: [JSONValue]
    public var type: String?

    public init(records: [JSONValue], type: String? = nil) {
        self.records = records
        self.type = type
    }

    public init(params p: Params) throws(EntityIndexError) {
        guard let records = try p.array("records") else {
            throw p.fail("records", "is required (the records the reindex pushes back)")
        }
        self.init(records: records, type: try p.type(required: false))
    }

    public func validate() throws(EntityIndexError) { try check(type: type) }

    public func run(on store: EntityStore) throws(EntityIndexError) -> DrillReport {
        try store.drill(restore: RecordSource.numbered(records), type: type)
    }

    public static func encode(_ result: DrillReport) -> JSONValue { result.json }
}

extension EntityKey {
    var json: JSONValue { ["type": .string(type), "id": .string(id)] }
}

extension LintLocation {
    /// `{"position": 3, "line": 7, "type": …, "id": …}` for a record of the input, `{"indexed": true, "type": …,
    /// "id": …}` for an entity of the index.
    public var json: JSONValue {
        var o = JSONObject()
        if let position { o["position"] = JSONValue(position) } else { o["indexed"] = .bool(true) }
        if let line { o["line"] = JSONValue(line) }
        if let entity {
            o["type"] = .string(entity.type)
            o["id"] = .string(entity.id)
        }
        return .object(o)
    }
}

extension LintReport {
    var json: JSONValue {
        var counts = JSONObject()
        let found = Dictionary(uniqueKeysWithValues: self.counts.map { ($0.code, $0.count) })
        for code in LintCode.allCases { counts[code.rawValue] = JSONValue(found[code] ?? 0) }
        let findings: [JSONValue] = findings.map { f in
            var o = JSONObject([
                ("code", .string(f.code.rawValue)), ("severity", .string(f.severity.rawValue)),
                ("record", f.location.json),
                ("message", .string(f.message)),
            ])
            if let field = f.field { o["field"] = .string(field) }
            if !f.others.isEmpty { o["others"] = .array(f.others.map(\.json)) }
            if let first = f.first { o["first"] = first.json }
            return .object(o)
        }
        var result = JSONObject([
            ("findings", .array(findings)), ("counts", .object(counts)),
            ("errors", JSONValue(count(.error))), ("warnings", JSONValue(count(.warning))),
            ("records", JSONValue(records)), ("indexed", JSONValue(indexed)), ("withinDays", JSONValue(withinDays)),
        ])
        if unlistedCount > 0 {
            var unlisted = JSONObject()
            for code in LintCode.allCases {
                if let n = self.unlisted[code], n > 0 { unlisted[code.rawValue] = JSONValue(n) }
            }
            result["unlisted"] = .object(unlisted)
        }
        return .object(result)
    }
}

extension DrillReport {
    var json: JSONValue {
        func entry(_ entity: EntityKey, _ location: LintLocation) -> JSONObject {
            var o = JSONObject([("type", .string(entity.type)), ("id", .string(entity.id))])
            if let position = location.position { o["position"] = JSONValue(position) }
            if let line = location.line { o["line"] = JSONValue(line) }
            return o
        }
        return .object(
            JSONObject([
                ("indexed", JSONValue(indexed)), ("pushed", JSONValue(pushed)), ("restored", JSONValue(restored)),
                ("missing", .array(missing.map(\.json))),
                (
                    "changed",
                    .array(
                        changed.map { c in
                            var o = entry(c.entity, c.location)
                            o["fields"] = .array(c.fields.map { .string($0) })
                            return .object(o)
                        })
                ),
                ("new", .array(new.map { .object(entry($0.entity, $0.location)) })),
                ("expired", .array(expired.map { .object(entry($0.entity, $0.location)) })),
                ("complete", .bool(isComplete)),
            ]))
    }
}
