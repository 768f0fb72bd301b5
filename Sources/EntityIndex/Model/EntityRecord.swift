import JSON

/// The identity of an entity: its type and id (`EntityIdentifier`).
public struct EntityKey: Hashable, Sendable, CustomStringConvertible {
    public var type: String
    public var id: String
    public init(type: String, id: String) {
        self.type = type
        self.id = id
    }
    public var description: String { "\(type)/\(id)" }
}

/// A validated entity record (contract §1), with the record as ingested kept for output.
public struct EntityRecord: Sendable {
    public var key: EntityKey
    public var title: String
    public var subtitle: String?
    public var synonyms: [String]
    public var keywords: [String]
    public var description: String?
    public var properties: JSONObject
    public var domain: String?
    public var related: [EntityKey]
    public var rankingHint: Double?
    public var priority: Int64?
    public var lastUsedAt: Int64?
    public var expiresAt: Int64?
    public var hidden: Bool
    /// The record as pushed: null fields dropped, an integer id turned into its string, everything else as given.
    public var json: JSONObject

    public var type: String { key.type }
    public var id: String { key.id }
}

/// Limits that keep one record from exhausting memory or the index. Documented in the README.
public enum RecordLimits {
    public static let maxTypeLength = 128
    public static let maxIdLength = 4096
    public static let maxRecordBytes = 1 << 20
    public static let maxListItems = 1000
    public static let maxProperties = 256
    public static let maxPropertyNameLength = 128
    public static let maxRelated = 1000
}
