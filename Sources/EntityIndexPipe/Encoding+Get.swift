import EntityIndex
import JSON

extension GetResult {
    /// `{"entities": [...], "missing"?: [{"type", "id"}]}`: `missing` only when an id was not found, as `related`
    /// names the entities it lists and the index does not hold.
    public var json: JSONValue {
        var o = JSONObject([("entities", .array(entities.map(\.json)))])
        if !missing.isEmpty { o["missing"] = .array(missing.map(\.json)) }
        return .object(o)
    }
}
