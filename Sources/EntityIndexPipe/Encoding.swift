import EntityIndex
import JSON
import JSONRPC

// How results are written as JSON: the one place for the pipe's results and the CLI's `--json`.

extension EntityResult {
    /// The entity as the pipe returns it: the record's fields as ingested, then what the method added.
    ///
    /// A record read from the index is written from its stored text: the added fields are spliced in before its
    /// closing brace (a record has none of their names: its schema allows no other top-level field).
    public var json: JSONValue {
        var added = JSONObject()
        if let score { added["score"] = .number(JSONNumber(score)) }
        if let explanation { added["explain"] = explanation }
        if let highlights { added["highlights"] = .array(highlights.map(\.json)) }
        if let matchedBy, !matchedBy.isEmpty { added["matchedBy"] = .array(matchedBy.map { .string($0) }) }
        if let engagement { added["engagement"] = .number(JSONNumber(engagement)) }
        if let text = recordText, let spliced = Self.splice(text, added) { return .encoded(spliced) }
        var o = record
        for (key, value) in added { o[key] = value }
        return .object(o)
    }

    /// An object's text with `added` written after its members; nil when the text is not an object.
    private static func splice(_ text: JSONText, _ added: JSONObject) -> JSONText? {
        let bytes = text.bytes
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        if added.isEmpty { return text }
        let tail = JSONWriter.encode(.object(added))
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + tail.count)
        out.append(contentsOf: bytes.dropLast())
        if bytes.count > 2 { out.append(UInt8(ascii: ",")) }
        out.append(contentsOf: tail.dropFirst())
        return JSONText(writerOutput: out)
    }
}

extension Array where Element == EntityResult {
    /// `{"entities": [...]}`.
    public var entitiesJSON: JSONValue { ["entities": .array(map(\.json))] }
}

extension Highlight {
    public var json: JSONValue {
        .object(
            JSONObject([
                ("field", .string(field)), ("start", JSONValue(start)), ("end", JSONValue(end)),
                ("text", .string(text)),
            ]))
    }
}

extension EntityPage {
    /// `{"entities": [...], "nextCursor"?: c}`.
    public var json: JSONValue {
        var o = JSONObject([("entities", .array(entities.map(\.json)))])
        if let nextCursor { o["nextCursor"] = .string(nextCursor) }
        if let facets { facets.add(to: &o) }
        return .object(o)
    }
}

extension FacetCounts {
    /// Adds `"facets": {name: {"values": [{"value", "count"}], "otherValues", "missing"}}`, `"facetsCounted": n` and,
    /// past the bound, `"facetsAreLowerBounds": true` to a result.
    func add(to o: inout JSONObject) {
        o["facets"] = .object(
            JSONObject(
                facets.map { facet in
                    (
                        facet.name,
                        .object(
                            JSONObject([
                                (
                                    "values",
                                    .array(
                                        facet.values.map {
                                            .object(JSONObject([("value", $0.value), ("count", JSONValue($0.count))]))
                                        }
                                    )
                                ),
                                ("otherValues", JSONValue(facet.otherValues)), ("missing", JSONValue(facet.missing)),
                            ]))
                    )
                }))
        o["facetsCounted"] = JSONValue(counted)
        if isLowerBound { o["facetsAreLowerBounds"] = .bool(true) }
    }
}

extension SearchPage {
    /// `{"entities": [...], "total": n, "totalIsLowerBound"?: true, "nextCursor"?: c}`.
    public var json: JSONValue {
        var o = JSONObject([("entities", .array(entities.map(\.json))), ("total", JSONValue(total))])
        if totalIsLowerBound { o["totalIsLowerBound"] = .bool(true) }
        if let nextCursor { o["nextCursor"] = .string(nextCursor) }
        if let facets { facets.add(to: &o) }
        return .object(o)
    }
}

extension RelatedEntities {
    /// `{"entities": [...], "missing"?: [{"type", "id"}]}`: `missing` only when the entity lists any.
    public var json: JSONValue {
        var o = JSONObject([("entities", .array(entities.map(\.json)))])
        if !missing.isEmpty { o["missing"] = .array(missing.map(\.json)) }
        return .object(o)
    }
}

extension IngestCounts {
    /// The ingest's result; one that skips invalid records also gives how many it skipped and their problems,
    /// located as in an invalid-record error's `data.records`.
    public var json: JSONValue {
        var o = JSONObject([
            ("inserted", JSONValue(inserted)), ("updated", JSONValue(updated)), ("unchanged", JSONValue(unchanged)),
        ])
        if skipsInvalid {
            o["skipped"] = JSONValue(skipped)
            o["problems"] = .array(problems.map(\.json))
        }
        return .object(o)
    }
}

extension RecordProblem {
    /// `{"position", "line"?, "entity"?, "field"?, "problem"}`.
    public var json: JSONValue {
        var o = JSONObject([("position", JSONValue(position))])
        if let line { o["line"] = JSONValue(line) }
        if let entity { o["entity"] = .string(entity) }
        if let field { o["field"] = .string(field) }
        o["problem"] = .string(problem)
        return .object(o)
    }
}

extension PendingReindex {
    /// `outstanding` holds ids when the request has a type, else `{type, id}` pairs.
    public var json: JSONValue {
        var o = JSONObject([("requestId", .number(JSONNumber(requestId)))])
        if let type { o["type"] = .string(type) }
        if let ids { o["ids"] = .array(ids.map { .string($0) }) }
        o["createdAt"] = .string(Timestamp.format(createdAt))
        o["outstanding"] = .array(
            outstanding.map { key in
                type != nil
                    ? .string(key.id) : .object(JSONObject([("type", .string(key.type)), ("id", .string(key.id))]))
            })
        return .object(o)
    }
}

extension PropertyDeclaration {
    public var json: JSONValue {
        var o = JSONObject([("name", .string(name)), ("kind", .string(kind.rawValue)), ("sortable", .bool(sortable))])
        if let indexingKey { o["indexingKey"] = .string(indexingKey) }
        return .object(o)
    }
}

extension Stats.Counts {
    var json: JSONObject {
        JSONObject([
            ("entities", JSONValue(entities)), ("hidden", JSONValue(hidden)), ("expired", JSONValue(expired)),
            ("expiringSoon", JSONValue(expiringSoon)),
        ])
    }
}

extension Stats {
    public var json: JSONValue {
        var o = all.json
        o["types"] = .object(JSONObject(types.map { ($0.type, .object($0.counts.json)) }))
        o["reindexRequests"] = JSONValue(reindexRequests)
        o["donations"] = JSONValue(donations)
        o["clientState"] = JSONValue(clientState)
        o["databaseBytes"] = JSONValue(databaseBytes)
        o["path"] = .string(path)
        o["now"] = .string(Timestamp.format(now))
        o["schemaVersion"] = JSONValue(schemaVersion)
        o["textVersion"] = JSONValue(textVersion)
        o["sqliteVersion"] = .string(sqliteVersion)
        o["icuVersion"] = .string(icuVersion)
        o["indexTextVersion"] = JSONValue(indexTextVersion)
        o["readOnly"] = .bool(readOnly)
        return .object(o)
    }
}

extension EntityIndexError {
    /// The JSON-RPC error object: `{"code": …, "message": …, "data": {"code": …, "records"?: […]}}`.
    public var json: JSONValue { RPCError(self).json }
}

extension RPCError {
    /// A domain error: -32602 for invalid input (records, params), else -32000; `data` holds its stable code and,
    /// for bad records, each record's problems.
    public init(_ error: EntityIndexError) {
        var data = JSONObject([("code", .string(error.code.rawValue))])
        if let position = error.position { data["character"] = JSONValue(position) }
        if !error.details.isEmpty {
            data["records"] = .array(error.details.map(\.json))
        }
        self.init(code: error.isInvalidInput ? -32602 : -32000, message: error.message, data: .object(data))
    }
}
