import JSON

/// The fields the entities of a result carry (`fields`, Spotlight's `fetchAttributes` for records): record fields by
/// name, and single properties as `properties.NAME`.
///
/// `type` and `id` are always there, and so is what the method adds (`score`, `engagement`, `explain`,
/// `highlights`). A property no entity has is simply absent; `properties` is left out when none of the listed
/// properties is there.
public struct FieldSelection: Sendable, Equatable {
    /// The names as given.
    public let names: [String]
    /// The top-level members kept whole.
    let whole: Set<String>
    /// The properties kept when `properties` itself is not kept whole.
    let properties: Set<String>

    /// The record fields (contract §1), in the contract's order.
    public static let recordFields = [
        "type", "id", "title", "subtitle", "synonyms", "keywords", "description", "properties", "domain", "related",
        "rankingHint", "priority", "lastUsedAt", "expiresAt", "hidden", "url", "image",
    ]
    /// What methods add to an entity: always kept, so naming them changes nothing.
    public static let addedFields = ["score", "engagement", "explain", "highlights", "matchedBy"]

    /// A selection of names each checked by `problem(of:)`.
    public init(_ names: [String]) throws(EntityIndexError) {
        for (i, name) in names.enumerated() {
            if let problem = Self.problem(of: name) {
                throw EntityIndexError(.invalidParams, "fields[\(i)] \(problem)")
            }
        }
        self.names = names
        var whole: Set<String> = ["type", "id"]
        whole.formUnion(Self.addedFields)
        var properties = Set<String>()
        for name in names {
            if name.hasPrefix("properties.") {
                properties.insert(String(name.dropFirst("properties.".count)))
            } else {
                whole.insert(name)
            }
        }
        self.whole = whole
        self.properties = properties
    }

    /// Why a name is not a field, worded to follow the parameter's name (`fields[1] names an unknown field …`);
    /// nil when it is one.
    public static func problem(of name: String) -> String? {
        if name.hasPrefix("properties.") {
            return name.count > "properties.".count ? nil : "names no property: write properties.NAME"
        }
        if recordFields.contains(name) || addedFields.contains(name) { return nil }
        var text = "names an unknown field \(Quoting.quoted(name))"
        if let near = Suggestion.closest(to: name, in: recordFields + addedFields) {
            text += "; did you mean \(Quoting.quoted(near))?"
        }
        return text + " (fields: \(recordFields.joined(separator: ", ")), properties.NAME)"
    }

    /// What becomes of one top-level member.
    func choice(_ key: String) -> MemberChoice {
        if whole.contains(key) { return .keep }
        if key == "properties", !properties.isEmpty {
            let names = properties
            return .select { names.contains($0) }
        }
        return .drop
    }

    /// A parsed record cut to the selection.
    func apply(to record: JSONObject) -> JSONObject {
        var out = JSONObject()
        for (key, value) in record {
            switch choice(key) {
            case .drop: continue
            case .keep: out[key] = value
            case .select(let accepts):
                guard let inner = value.object else { continue }
                let kept = JSONObject(inner.pairs.filter { accepts($0.key) })
                if !kept.isEmpty { out[key] = .object(kept) }
            }
        }
        return out
    }
}

extension EntityResult {
    /// The result with only the selected fields of its record: a stored text is cut as text, its kept members copied
    /// as written.
    public func selecting(_ fields: FieldSelection?) -> EntityResult {
        guard let fields else { return self }
        var copy = self
        if let text = recordText, let cut = text.selectingMembers(fields.choice) {
            copy.replaceRecordText(cut)
        } else {
            copy.record = fields.apply(to: record)
        }
        return copy
    }
}

extension Array where Element == EntityResult {
    /// Each result cut to the selection.
    public func selecting(_ fields: FieldSelection?) -> [EntityResult] {
        guard let fields else { return self }
        return map { $0.selecting(fields) }
    }
}

extension EntityPage {
    /// The page with each entity cut to the selection.
    public func selecting(_ fields: FieldSelection?) -> EntityPage {
        var page = self
        page.entities = entities.selecting(fields)
        return page
    }
}
