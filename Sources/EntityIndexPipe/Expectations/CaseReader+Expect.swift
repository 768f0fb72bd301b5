import EntityIndex
import JSON

// MARK: - The `expect` object

extension CaseReader {
    /// Reads `expect`; `words` for `complete`, whose results are words, not `type/id`.
    mutating func read(expect value: JSONValue, words: Bool, method: Method) -> Expectation {
        var expect = Expectation()
        guard let object = value.object else {
            fail("expect", "must be an object with any of \(Expectation.keys.joined(separator: ", "))")
            return expect
        }
        if object.isEmpty {
            fail("expect", "expects nothing: give any of \(Expectation.keys.joined(separator: ", "))")
        }
        for (key, value) in object {
            let field = "expect.\(key)"
            switch key {
            case "top": expect.top = keys(value, field: field, words: words)
            case "contains": expect.contains = keys(value, field: field, words: words)
            case "excludes": expect.excludes = keys(value, field: field, words: words)
            case "rankAtMost":
                guard let ranks = value.object else {
                    fail(field, "must be an object {\"type/id\": rank}, got \(value.typeName)")
                    continue
                }
                for (key, rank) in ranks {
                    let name = "\(field)[\(Quoting.quoted(key))]"
                    guard check(key: key, field: name, words: words) else { continue }
                    guard let n = rank.number?.int, n >= 1 else {
                        fail(name, "must be a rank from 1, got \(rank.number?.text ?? rank.typeName)")
                        continue
                    }
                    expect.rankAtMost.append((key, Int(n)))
                }
            case "count", "total":
                guard let n = value.number?.int, n >= 0 else {
                    fail(field, "must be an integer from 0, got \(value.number?.text ?? value.typeName)")
                    continue
                }
                if key == "total" {
                    guard method == .search else {
                        fail(field, "only a search answers with a total; use count for the results returned")
                        continue
                    }
                    expect.total = Int(n)
                } else {
                    expect.count = Int(n)
                }
            case "empty":
                guard let b = value.bool else {
                    fail(field, "must be true or false, got \(value.typeName)")
                    continue
                }
                expect.empty = b
            default:
                var message = "unknown expectation (known: \(Expectation.keys.joined(separator: ", ")))"
                if let near = Suggestion.closest(to: key, in: Expectation.keys) {
                    message += "; did you mean \(Quoting.quoted(near))?"
                }
                fail(field, message)
            }
        }
        return expect
    }

    /// An array of `type/id` keys (or words).
    private mutating func keys(_ value: JSONValue, field: String, words: Bool) -> [String]? {
        guard let items = value.array else {
            fail(field, "must be an array of \(words ? "words" : "\"type/id\" strings"), got \(value.typeName)")
            return nil
        }
        var result: [String] = []
        for (i, item) in items.enumerated() {
            guard let key = item.string else {
                fail("\(field)[\(i)]", "must be a string, got \(item.typeName)")
                continue
            }
            if check(key: key, field: "\(field)[\(i)]", words: words) { result.append(key) }
        }
        return result
    }

    /// Checks a `type/id` key: a type as a record's, a slash, a non-empty id.
    private mutating func check(key: String, field: String, words: Bool) -> Bool {
        if words {
            guard !key.isEmpty else {
                fail(field, "must be a non-empty word")
                return false
            }
            return true
        }
        guard let slash = key.firstIndex(of: "/") else {
            fail(field, "malformed id \(Quoting.quoted(key)): write it as \"type/id\", such as \"order/1042\"")
            return false
        }
        let type = String(key[..<slash])
        let id = key[key.index(after: slash)...]
        if let problem = RecordValidator.typeProblem(type) {
            fail(field, "malformed id \(Quoting.quoted(key)): its type \(problem)")
            return false
        }
        guard !id.isEmpty else {
            fail(field, "malformed id \(Quoting.quoted(key)): the id after the slash is empty")
            return false
        }
        return true
    }
}
