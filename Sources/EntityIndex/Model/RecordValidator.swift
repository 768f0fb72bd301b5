import JSON

/// Checks a JSON value against the record format of the contract (§1) and builds an `EntityRecord`.
///
/// Strict by design: an unknown field, a wrong type or an out-of-range value is an error naming the field, so a
/// typo in the web layer never loses data silently. All problems of a record are reported, not just the first.
public enum RecordValidator {
    static let knownFields: Set<String> = [
        "type", "id", "title", "subtitle", "synonyms", "keywords", "description", "properties", "domain", "related",
        "rankingHint", "priority", "lastUsedAt", "expiresAt", "hidden", "url", "image",
    ]

    /// The problem of an object shaped like the pipe's `ingest` params (`{"records": [...]}`) given where records
    /// are expected, such as a file for `entityidx ingest`; nil for any other object.
    ///
    /// Without it, the whole file reads as one record with an unknown field, which does not say what to do.
    static func wrappedRecordsHint(_ object: JSONObject) -> String? {
        guard case .array(let records)? = object["records"], object["type"] == nil, object["id"] == nil else {
            return nil
        }
        return
            "is an object holding \(records.count) record\(records.count == 1 ? "" : "s") under \"records\", the shape "
            + "of the pipe's ingest params, not a record: ingest takes the records themselves, as a JSON array or "
            + "NDJSON (one record a line); unwrap them first, e.g. jq '.records' FILE | entityidx ingest -"
    }

    /// Validates one record. `position` and `line` only label the problems.
    public static func validate(_ value: JSONValue, position: Int, line: Int? = nil) -> Result<
        EntityRecord, ValidationFailure
    > {
        var problems: [RecordProblem] = []
        func problem(_ field: String?, _ text: String, entity: String? = nil) {
            problems.append(
                RecordProblem(
                    position: position, line: line, entity: entity, field: field.map(Quoting.prefix), problem: text))
        }
        guard case .object(let object) = value else {
            problem(nil, "must be a JSON object, got \(value.typeName)")
            return .failure(ValidationFailure(problems: problems))
        }
        if let hint = wrappedRecordsHint(object) {
            problem(nil, hint)
            return .failure(ValidationFailure(problems: problems))
        }

        // Identity first, so that every later problem can name the entity.
        var type: String?
        switch object["type"] {
        case nil, .null?: problem("type", "is required")
        case .string(let t)?:
            if let reason = typeProblem(t) { problem("type", reason) } else { type = t }
        case let other?: problem("type", "must be a string, got \(other.typeName)")
        }
        var id: String?
        switch object["id"] {
        case nil, .null?: problem("id", "is required")
        case .string(let s)?:
            if s.isEmpty {
                problem("id", "must not be empty")
            } else if s.unicodeScalars.count > RecordLimits.maxIdLength {
                problem(
                    "id", "is \(s.unicodeScalars.count) characters long; the maximum is \(RecordLimits.maxIdLength)")
            } else {
                id = s
            }
        case .number(let n)?:
            if n.isIntegerLiteral, let v = Int64(n.text) {
                id = String(v)
            } else {
                problem("id", "must be a string or an integer, got \(n.text)")
            }
        case let other?: problem("id", "must be a string or an integer, got \(other.typeName)")
        }
        let entity = type.flatMap { t in id.map { "\(t)/\($0)" } }
        for index in problems.indices { problems[index].entity = entity }
        func fail(_ field: String, _ text: String) { problem(field, text, entity: entity) }

        var json = JSONObject()
        for (key, fieldValue) in object {
            guard knownFields.contains(key) else {
                fail(key, "is not a record field (known fields: \(knownFields.sorted().joined(separator: ", ")))")
                continue
            }
            if case .null = fieldValue { continue }
            json[key] = key == "id" ? .string(id ?? "") : fieldValue
        }

        func string(_ field: String, required: Bool = false) -> String? {
            switch object[field] {
            case nil, .null?:
                if required { fail(field, "is required") }
                return nil
            case .string(let s)?: return s
            case let other?:
                fail(field, "must be a string, got \(other.typeName)")
                return nil
            }
        }
        func strings(_ field: String) -> [String] {
            switch object[field] {
            case nil, .null?: return []
            case .array(let items)?:
                var result: [String] = []
                for (i, item) in items.enumerated() {
                    if case .string(let s) = item {
                        result.append(s)
                    } else {
                        fail("\(field)[\(i)]", "must be a string, got \(item.typeName)")
                    }
                }
                return result
            case let other?:
                fail(field, "must be an array of strings, got \(other.typeName)")
                return []
            }
        }
        func date(_ field: String) -> Int64? {
            guard let text = string(field) else { return nil }
            guard let ms = Timestamp.parse(text) else {
                fail(
                    field,
                    "must be an ISO-8601 date-time with a zone, such as 2026-03-02T09:00:00Z; got \(Quoting.quoted(text))"
                )
                return nil
            }
            return ms
        }

        let title = string("title", required: true)
        if let title, title.allSatisfy({ $0.isWhitespace }) { fail("title", "must not be empty") }
        let subtitle = string("subtitle")
        let description = string("description")
        _ = string("url")
        _ = string("image")
        let synonyms = strings("synonyms")
        let keywords = strings("keywords")

        var domain: String?
        if let d = string("domain") {
            if d.isEmpty || d.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
                fail(
                    "domain",
                    "must be dot-separated non-empty parts, such as \"account1.inbox\"; got \(Quoting.quoted(d))")
            } else {
                domain = d
            }
        }

        var properties = JSONObject()
        switch object["properties"] {
        case nil, .null?: break
        case .object(let props)?:
            if props.count > RecordLimits.maxProperties {
                fail("properties", "has \(props.count) properties; the maximum is \(RecordLimits.maxProperties)")
            }
            for (name, v) in props {
                let field = "properties.\(Quoting.prefix(name))"
                if name.isEmpty || name.count > RecordLimits.maxPropertyNameLength {
                    fail(field, "needs a name of 1 to \(RecordLimits.maxPropertyNameLength) characters")
                    continue
                }
                switch v {
                case .string, .number, .bool, .null: break
                case .array(let items):
                    for (i, item) in items.enumerated() {
                        switch item {
                        case .string, .number: break
                        default: fail("\(field)[\(i)]", "must be a string or a number, got \(item.typeName)")
                        }
                    }
                case .object, .encoded:
                    fail(field, "must be a string, number, boolean, null or array, got \(v.typeName)")
                }
            }
            properties = props
        case let other?: fail("properties", "must be an object, got \(other.typeName)")
        }

        var related: [EntityKey] = []
        switch object["related"] {
        case nil, .null?: break
        case .array(let items)?:
            for (i, item) in items.enumerated() {
                let field = "related[\(i)]"
                guard case .object(let ref) = item else {
                    fail(field, "must be an object {\"type\": …, \"id\": …}, got \(item.typeName)"); continue
                }
                for key in ref.keys where key != "type" && key != "id" {
                    fail("\(field).\(key)", "is not allowed (only type and id)")
                }
                let (refType, refId) = relatedParts(ref)
                if refType == nil { fail("\(field).type", "must be a valid type name") }
                if refId == nil { fail("\(field).id", "must be a non-empty string or an integer") }
                if let refType, let refId { related.append(EntityKey(type: refType, id: refId)) }
            }
        case let other?: fail("related", "must be an array, got \(other.typeName)")
        }

        var rankingHint: Double?
        switch object["rankingHint"] {
        case nil, .null?: break
        case .number(let n)?:
            if n.double < 0 || n.double > 100 {
                fail("rankingHint", "must be between 0 and 100, got \(n.text)")
            } else {
                rankingHint = n.double
            }
        case let other?: fail("rankingHint", "must be a number from 0 to 100, got \(other.typeName)")
        }
        var priority: Int64?
        switch object["priority"] {
        case nil, .null?: break
        case .number(let n)?:
            if let v = n.int, n.double == n.double.rounded() {
                priority = v
            } else {
                fail("priority", "must be an integer, got \(n.text)")
            }
        case let other?: fail("priority", "must be an integer, got \(other.typeName)")
        }
        var hidden = false
        switch object["hidden"] {
        case nil, .null?: break
        case .bool(let b)?: hidden = b
        case let other?: fail("hidden", "must be true or false, got \(other.typeName)")
        }
        let lastUsedAt = date("lastUsedAt")
        let expiresAt = date("expiresAt")

        guard problems.isEmpty, let type, let id, let title else {
            return .failure(ValidationFailure(problems: problems))
        }
        return .success(
            EntityRecord(
                key: EntityKey(type: type, id: id), title: title, subtitle: subtitle, synonyms: synonyms,
                keywords: keywords,
                description: description, properties: properties, domain: domain, related: related,
                rankingHint: rankingHint, priority: priority, lastUsedAt: lastUsedAt, expiresAt: expiresAt,
                hidden: hidden,
                json: json))
    }

    /// The type and id a `related` entry names, each nil when it is not valid (an integer id is its decimal text).
    static func relatedParts(_ ref: JSONObject) -> (type: String?, id: String?) {
        var type: String?, id: String?
        if case .string(let t)? = ref["type"], typeProblem(t) == nil { type = t }
        switch ref["id"] {
        case .string(let s)? where !s.isEmpty && s.unicodeScalars.count <= RecordLimits.maxIdLength: id = s
        case .number(let n)? where n.isIntegerLiteral: id = String(Int64(n.text) ?? 0)
        default: break
        }
        return (type, id)
    }

    /// Why a type name is invalid, or nil when it is valid.
    public static func typeProblem(_ type: String) -> String? {
        if type.isEmpty { return "must not be empty" }
        if type.utf8.count > RecordLimits.maxTypeLength {
            return "is longer than \(RecordLimits.maxTypeLength) characters"
        }
        let bytes = Array(type.utf8)
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 }
        guard isLetter(bytes[0]) else { return "must start with a letter or '_' (pattern [A-Za-z_][A-Za-z0-9_.-]*)" }
        for b in bytes.dropFirst() where !(isLetter(b) || (b >= 48 && b <= 57) || b == 46 || b == 45) {
            return "may only contain letters, digits, '_', '.' and '-' (pattern [A-Za-z_][A-Za-z0-9_.-]*)"
        }
        return nil
    }
}

/// The problems found in one record.
public struct ValidationFailure: Error, Sendable {
    public var problems: [RecordProblem]
}
