import EntityIndex
import JSON

/// The answer of `delete`: how many entities were deleted, or for a dry run what would have been.
public struct DeleteOutcome: Sendable, Equatable {
    public var deleted: Int
    /// A dry run's preview; nil when the delete ran.
    public var preview: DeletePreview?

    public init(deleted: Int) {
        self.deleted = deleted
        preview = nil
    }

    public init(preview: DeletePreview) {
        deleted = 0
        self.preview = preview
    }

    /// `{"deleted": n}`, or for a dry run `{"deleted": 0, "dryRun": true, "wouldDelete": n, "keys": [{"type", "id"}]}`
    /// with at most `DeletePreview.maxKeys` keys.
    public var json: JSONValue {
        var o = JSONObject([("deleted", JSONValue(deleted))])
        if let preview {
            o["dryRun"] = .bool(true)
            o["wouldDelete"] = JSONValue(preview.count)
            o["keys"] = .array(preview.keys.map(\.json))
        }
        return .object(o)
    }
}
