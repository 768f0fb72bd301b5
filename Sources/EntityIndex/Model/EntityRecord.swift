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
///
/// Resources are bounded by bytes: a record is at most `maxRecordBytes` of JSON, which bounds how many synonyms,
/// keywords, array elements and related ids it can list (real records list thousands: Debian's librust-winapi-dev
/// provides 1604 names). The one count that remains, `maxProperties`, is far above anything real: each distinct
/// property name of a type is remembered with its kind (`property_kind`), so a generator bug that invents a name
/// per record must not grow that table by thousands per record.
public enum RecordLimits {
    public static let maxTypeLength = 128
    public static let maxIdLength = 4096
    public static let maxRecordBytes = 1 << 20
    public static let maxProperties = 10_000
    public static let maxPropertyNameLength = 128
}
