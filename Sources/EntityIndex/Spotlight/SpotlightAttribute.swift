/// What a Core Spotlight attribute name refers to in an entity record.
///
/// The alias table is the README's ("Core Spotlight queries"); any other name is the record property of that name.
/// Names are case-sensitive, as `CSSearchableItemAttributeSet` property names are.
public enum SpotlightAttribute: Sendable, Equatable {
    /// A text field, under this key in `spotlight_key` (`title`, `subtitle`, `description`, `keywords`, `synonyms`).
    case text(String)
    /// The entity type; `tree` also matches its dotted ancestors (`contentTypeTree`).
    case type(tree: Bool)
    /// `domainIdentifier`: the domain or any of its dotted ancestors.
    case domain
    /// `uniqueIdentifier`: the entity id.
    case id
    /// A date column of the entity (`lastUsedAt`, `expiresAt`).
    case date(column: String)
    /// `rankingHint`.
    case rankingHint
    /// A record property: strings in `spotlight_key` (key `@name`), numbers, booleans and dates in `property`.
    case property(String)

    public static let aliases: [(names: [String], attribute: SpotlightAttribute, field: String)] = [
        (["title", "displayName", "kMDItemTitle", "kMDItemDisplayName"], .text("title"), "title"),
        (["contentDescription", "textContent", "kMDItemTextContent"], .text("description"), "description"),
        (["subtitle"], .text("subtitle"), "subtitle"),
        (["keywords", "kMDItemKeywords"], .text("keywords"), "keywords"),
        (["alternateNames"], .text("synonyms"), "synonyms"),
        (["contentType", "kMDItemContentType"], .type(tree: false), "type"),
        (["contentTypeTree"], .type(tree: true), "type"),
        (["domainIdentifier"], .domain, "domain"),
        (["uniqueIdentifier"], .id, "id"),
        (["lastUsedDate"], .date(column: "last_used_at"), "lastUsedAt"),
        (["expirationDate"], .date(column: "expires_at"), "expiresAt"),
        (["rankingHint"], .rankingHint, "rankingHint"),
    ]

    private static let byName: [String: (SpotlightAttribute, String)] = {
        var table: [String: (SpotlightAttribute, String)] = [:]
        for entry in aliases { for name in entry.names { table[name] = (entry.attribute, entry.field) } }
        return table
    }()

    /// The attribute a query name refers to.
    public init(name: String) {
        self = Self.byName[name]?.0 ?? .property(name)
    }

    /// The record field a name reads (for `fetchAttributes`): a field of the record, or nil for a property.
    static func recordField(_ name: String) -> String? { byName[name]?.1 }

    /// The `spotlight_key` attribute of a property's strings.
    static func propertyKey(_ name: String) -> String { "@" + name }
}
