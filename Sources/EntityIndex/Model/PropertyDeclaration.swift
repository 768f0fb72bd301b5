import JSON

/// A declared property type for one entity type, like `@Property` / `EntityQueryProperties` on the device.
///
/// Declaring is optional: an undeclared property takes the type of its JSON values (and a string that is an
/// ISO-8601 date-time with a zone compares as a date). A declaration fixes the type, says whether the property
/// may be sorted on, and may name the Spotlight attribute it is indexed as (`indexingKey`), which decides its search
/// weight.
public struct PropertyDeclaration: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case string, number, integer, boolean, date, strings
    }

    public var name: String
    public var kind: Kind
    public var sortable: Bool
    public var indexingKey: String?

    public init(name: String, kind: Kind, sortable: Bool = true, indexingKey: String? = nil) {
        self.name = name
        self.kind = kind
        self.sortable = sortable
        self.indexingKey = indexingKey
    }

    /// Spotlight attributes and the search column they weigh like.
    public static let indexingKeys: [String: Int] = [
        "displayName": 0, "title": 0, "alternateNames": 1, "keywords": 1, "subject": 2, "contentDescription": 3,
        "textContent": 3, "comment": 3,
    ]

    /// The search column for this property: by its indexing key, else the low-weight properties column.
    var column: Int? { indexingKey.flatMap { PropertyDeclaration.indexingKeys[$0] } }
}

// MARK: - Kinds

extension PropertyDeclaration {
    /// Why `value` cannot be a value of this property, or nil when it can: a declared property keeps its kind, and a
    /// value of another kind is refused rather than converted (`"12,50"` is not a number, and neither is `"12.5"`).
    ///
    /// Null stands for no value and is always accepted; an array's elements are checked one by one
    /// (`problems(in:field:)`).
    func problem(with value: JSONValue) -> String? {
        let fits: Bool
        switch (kind, value) {
        case (_, .null): fits = true
        case (.string, .string), (.strings, .string), (.number, .number), (.boolean, .bool): fits = true
        case (.integer, .number(let n)): fits = n.double.isFinite && n.double == n.double.rounded()
        case (.date, .string(let s)): fits = Timestamp.parse(s) != nil
        default: fits = false
        }
        guard !fits else { return nil }
        let wanted =
            switch kind {
            case .string: "a string"
            case .strings: "a string or an array of strings"
            case .number: "a number"
            case .integer: "an integer"
            case .boolean: "true or false"
            case .date: "an ISO-8601 date-time with a zone, such as 2026-03-02T09:00:00Z,"
            }
        return "is declared \(kind.rawValue), so its value must be \(wanted) (got \(Self.describe(value)))"
    }

    /// A value as a problem names it: `the string "12,50"`, `the number 12.5`, `true`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): "the string \(Quoting.quoted(s))"
        case .number(let n): "the number \(n.text)"
        case .bool(let b): b ? "true" : "false"
        default: value.typeName
        }
    }

    /// The problems of a record's properties with the declarations of its type, as (field, problem): the field is
    /// `properties.total`, or `properties.tags[2]` for an element of an array.
    static func problems(in properties: JSONObject, declarations: [String: PropertyDeclaration]) -> [(
        field: String, problem: String
    )] {
        guard !declarations.isEmpty else { return [] }
        var result: [(field: String, problem: String)] = []
        for (name, value) in properties {
            guard let declared = declarations[name] else { continue }
            let field = "properties.\(Quoting.prefix(name))"
            if case .array(let items) = value {
                for (i, item) in items.enumerated() {
                    if let problem = declared.problem(with: item) { result.append(("\(field)[\(i)]", problem)) }
                }
            } else if let problem = declared.problem(with: value) {
                result.append((field, problem))
            }
        }
        return result
    }
}
