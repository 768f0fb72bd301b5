import EntityIndex
import JSON

/// Typed access to a request's `params`, with errors that say which parameter is wrong and why.
///
/// Unknown parameters are errors too: a misspelt `"limt"` must not be silently ignored.
public struct Params {
    let object: JSONObject
    let method: String

    public init(_ value: JSONValue?, method: String, allowed: [String]) throws(EntityIndexError) {
        self.method = method
        switch value {
        case nil, .null?: object = JSONObject()
        case .object(let o)?: object = o
        case let other?:
            throw EntityIndexError(.invalidParams, "\(method): params must be an object, got \(other.typeName)")
        }
        for key in object.keys where !allowed.contains(key) {
            let known = allowed.isEmpty ? "none" : allowed.joined(separator: ", ")
            throw EntityIndexError(
                .invalidParams, "\(method): unknown parameter \(Quoting.quoted(key)) (known: \(known))")
        }
    }

    public func fail(_ name: String, _ problem: String) -> EntityIndexError {
        EntityIndexError(.invalidParams, "\(method): parameter \(Quoting.quoted(name)) \(problem)")
    }

    func string(_ name: String) throws(EntityIndexError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw fail(name, "must be a string, got \(other.typeName)")
        }
    }

    /// Whether the parameter is present (even as null).
    func has(_ name: String) -> Bool { object[name] != nil }

    func requiredString(_ name: String) throws(EntityIndexError) -> String {
        guard let s = try string(name) else { throw fail(name, "is required") }
        return s
    }

    /// A type name, checked like a record's `type`.
    func type(_ name: String = "type", required: Bool) throws(EntityIndexError) -> String? {
        guard let t = try string(name) else {
            if required { throw fail(name, "is required") }
            return nil
        }
        if let problem = RecordValidator.typeProblem(t) { throw fail(name, problem) }
        return t
    }

    /// Types for a union: a type name or a non-empty array of them, each checked like a record's `type`; empty when
    /// absent.
    func types(_ name: String = "type", required: Bool) throws(EntityIndexError) -> [String] {
        switch object[name] {
        case nil, .null?:
            if required { throw fail(name, "is required (a type, or an array of types)") }
            return []
        case .string?: return [try requiredType(name)]
        case .array(let items)?:
            guard !items.isEmpty else { throw fail(name, "must name at least one type, got an empty array") }
            var result: [String] = []
            for (i, item) in items.enumerated() {
                guard let t = item.string else {
                    throw fail("\(name)[\(i)]", "must be a type name (a string), got \(item.typeName)")
                }
                if let problem = RecordValidator.typeProblem(t) { throw fail("\(name)[\(i)]", problem) }
                result.append(t)
            }
            return TypeUnion.normalized(result)
        case let other?: throw fail(name, "must be a type name or an array of type names, got \(other.typeName)")
        }
    }

    func requiredType(_ name: String = "type") throws(EntityIndexError) -> String {
        guard let t = try type(name, required: true) else { throw fail(name, "is required") }
        return t
    }

    /// An entity id: a string, or an integer that becomes its decimal string (as in records).
    func id(_ value: JSONValue, name: String) throws(EntityIndexError) -> String {
        switch value {
        case .string(let s) where !s.isEmpty: return s
        case .number(let n) where n.isIntegerLiteral: return String(Int64(n.text) ?? 0)
        default: throw fail(name, "must be a non-empty string or an integer id, got \(value.typeName)")
        }
    }

    func requiredId(_ name: String) throws(EntityIndexError) -> String {
        guard let v = object[name], !v.isNull else { throw fail(name, "is required") }
        return try id(v, name: name)
    }

    func ids(_ name: String) throws(EntityIndexError) -> [String]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let items)?:
            var result: [String] = []
            for (i, item) in items.enumerated() { result.append(try id(item, name: "\(name)[\(i)]")) }
            return result
        case let other?: throw fail(name, "must be an array of ids, got \(other.typeName)")
        }
    }

    func strings(_ name: String) throws(EntityIndexError) -> [String]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let items)?:
            var result: [String] = []
            for (i, item) in items.enumerated() {
                guard let s = item.string else { throw fail("\(name)[\(i)]", "must be a string") }
                result.append(s)
            }
            return result
        case let other?: throw fail(name, "must be an array of strings, got \(other.typeName)")
        }
    }

    /// `fields`: record field names and `properties.NAME`; nil when absent (whole entities).
    func fields() throws(EntityIndexError) -> FieldSelection? {
        guard let names = try strings("fields") else { return nil }
        for (i, name) in names.enumerated() {
            if let problem = FieldSelection.problem(of: name) { throw fail("fields[\(i)]", problem) }
        }
        return try FieldSelection(names)
    }

    func bool(_ name: String) throws(EntityIndexError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let other?: throw fail(name, "must be true or false, got \(other.typeName)")
        }
    }

    func int(_ name: String, range: ClosedRange<Int>) throws(EntityIndexError) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let n)?:
            guard n.isIntegerLiteral, let v = Int(n.text) else { throw fail(name, "must be an integer, got \(n.text)") }
            guard range.contains(v) else {
                throw fail(name, "must be from \(range.lowerBound) to \(range.upperBound), got \(v)")
            }
            return v
        case let other?: throw fail(name, "must be an integer, got \(other.typeName)")
        }
    }

    /// `matching`: how many of a search's words must match (`all`, `frequency`, `last`).
    func matching(default value: WordMatching) throws(EntityIndexError) -> WordMatching {
        guard let name = try string("matching") else { return value }
        guard let matching = WordMatching(rawValue: name) else {
            throw fail("matching", "must be one of \(WordMatching.names), got \(Quoting.quoted(name))")
        }
        return matching
    }

    /// `stemming`: how a type's text matches other forms of its words (`none`, `english`); nil when absent.
    func stemming() throws(EntityIndexError) -> Stemming? {
        guard let name = try string("stemming") else { return nil }
        guard let stemming = Stemming(rawValue: name) else {
            throw fail("stemming", "must be one of \(Stemming.names), got \(Quoting.quoted(name))")
        }
        return stemming
    }

    /// `transliterate`: whether a type's words of other scripts also match in Latin letters (`none`, `latin`); nil
    /// when absent.
    func transliteration() throws(EntityIndexError) -> Transliteration? {
        guard let name = try string("transliterate") else { return nil }
        guard let latin = Transliteration(rawValue: name) else {
            throw fail("transliterate", "must be one of \(Transliteration.names), got \(Quoting.quoted(name))")
        }
        return latin
    }

    func limit(default value: Int) throws(EntityIndexError) -> Int {
        try int("limit", range: 0...EntityStore.maxResults) ?? value
    }

    func array(_ name: String) throws(EntityIndexError) -> [JSONValue]? {
        switch object[name] {
        case nil, .null?: return nil
        case .array(let items)?: return items
        case let other?: throw fail(name, "must be an array, got \(other.typeName)")
        }
    }

    /// `filters`: `[{"property": p, "op": op, "value": v}]`.
    func filters() throws(EntityIndexError) -> [PropertyFilter] {
        var result: [PropertyFilter] = []
        for (i, item) in (try array("filters") ?? []).enumerated() {
            let name = "filters[\(i)]"
            guard case .object(let f) = item else { throw fail(name, "must be an object {property, op, value}") }
            try onlyKeys(f, at: name, allowed: ["property", "op", "value"])
            guard let property = f["property"]?.string, !property.isEmpty else {
                throw fail("\(name).property", "must be a property name")
            }
            let ops = PropertyFilter.Op.allCases.map(\.rawValue).joined(separator: " ")
            guard let opName = f["op"]?.string, let op = PropertyFilter.Op(rawValue: opName) else {
                throw fail("\(name).op", "must be one of: \(ops)")
            }
            guard let value = f["value"] else { throw fail("\(name).value", "is required") }
            result.append(PropertyFilter(property: property, op: op, value: value))
        }
        return result
    }

    /// `sort`: `[{"property": p, "order": "asc"|"desc"}]`.
    func sort() throws(EntityIndexError) -> [PropertySort] {
        var result: [PropertySort] = []
        for (i, item) in (try array("sort") ?? []).enumerated() {
            let name = "sort[\(i)]"
            guard case .object(let s) = item else { throw fail(name, "must be an object {property, order}") }
            try onlyKeys(s, at: name, allowed: ["property", "order"])
            guard let property = s["property"]?.string else {
                throw fail("\(name).property", "must be a property name")
            }
            let order = s["order"]?.string ?? "asc"
            guard order == "asc" || order == "desc" else { throw fail("\(name).order", "must be \"asc\" or \"desc\"") }
            result.append(PropertySort(property: property, descending: order == "desc"))
        }
        return result
    }

    /// `properties`: `[{"name": n, "kind": k, "sortable"?: b, "indexingKey"?: s}]`.
    /// `properties`: property declarations; required unless `optional` (then absent is none).
    func declarations(optional: Bool = false) throws(EntityIndexError) -> [PropertyDeclaration] {
        guard let items = try array("properties") else {
            if optional { return [] }
            throw fail("properties", "is required (or stemming or transliterate)")
        }
        var result: [PropertyDeclaration] = []
        for (i, item) in items.enumerated() {
            let name = "properties[\(i)]"
            guard case .object(let o) = item else {
                throw fail(name, "must be an object {name, kind, sortable?, indexingKey?}")
            }
            try onlyKeys(o, at: name, allowed: ["name", "kind", "sortable", "indexingKey"])
            guard let property = o["name"]?.string, !property.isEmpty else {
                throw fail("\(name).name", "must be a property name")
            }
            let kinds = PropertyDeclaration.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            guard let kindName = o["kind"]?.string, let kind = PropertyDeclaration.Kind(rawValue: kindName) else {
                throw fail("\(name).kind", "must be one of: \(kinds)")
            }
            result.append(
                PropertyDeclaration(
                    name: property, kind: kind, sortable: o["sortable"]?.bool ?? true,
                    indexingKey: o["indexingKey"]?.string))
        }
        return result
    }
}
