import EntityIndex
import JSON

extension Params {
    /// Refuses a key of a nested object (`filters[0]`, `sort[1]`, …) that is not one of `allowed`: the error names
    /// the key's path (`filters[0].opp`), lists the allowed keys and suggests the nearest one.
    ///
    /// A misspelt key inside a filter must not be ignored: `{"property": "status", "op": "ne", "vaule": "x"}` would
    /// otherwise be a different question answered without a word.
    func onlyKeys(_ object: JSONObject, at path: String, allowed: [String]) throws(EntityIndexError) {
        for key in object.keys where !allowed.contains(key) {
            var problem = "is not allowed (allowed: \(allowed.joined(separator: ", "))"
            if let near = Suggestion.closest(to: key, in: allowed) {
                problem += "; did you mean \(Quoting.quoted(near))?"
            }
            throw fail("\(path).\(key)", problem + ")")
        }
    }
}
