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
