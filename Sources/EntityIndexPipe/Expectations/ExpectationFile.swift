import EntityIndex
import JSON

/// An expectations file: a JSON array of cases, read and checked before anything runs.
///
/// Every problem is collected (not only the first), each naming its case and field, so that one run of
/// `entityidx test` lists all that is wrong with a file.
public struct ExpectationFile: Sendable {
    public var path: String
    /// The file as read, for `--update`, which changes only the bytes of `top` values.
    public var bytes: [UInt8]
    public var cases: [ExpectationCase]
    /// The bytes of each case's `expect.top` value, by case index.
    var topSpans: [Int: Range<Int>]

    /// Reads `bytes` (the text of the file at `path`); throws every problem found.
    public init(path: String, bytes: [UInt8]) throws(ExpectationFileErrors) {
        self.path = path
        self.bytes = bytes
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            let line = bytes.prefix(error.offset).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw ExpectationFileErrors([
                ExpectationFileError(file: path, line: line, message: "is not valid JSON: \(error.message)")
            ])
        }
        guard let items = value.array else {
            throw ExpectationFileErrors([
                ExpectationFileError(file: path, message: "must be a JSON array of cases, got \(value.typeName)")
            ])
        }
        let spans = CaseSpans.scan(bytes)
        var tops: [Int: Range<Int>] = [:]
        for (index, span) in spans.enumerated() { if let top = span.top { tops[index] = top } }
        cases = try Self.cases(items, file: path) { index in index < spans.count ? spans[index].line : 1 }
        topSpans = tops
    }

    /// Reads the cases of `items` (an expectations file's array, or the `cases` of the pipe's `test`), each at the
    /// line `line(index)` of `file`; throws every problem found.
    public static func cases(_ items: [JSONValue], file: String, line: (Int) -> Int) throws(ExpectationFileErrors)
        -> [ExpectationCase]
    {
        var cases: [ExpectationCase] = []
        var problems: [ExpectationFileError] = []
        for (index, item) in items.enumerated() {
            var reader = CaseReader(file: file, index: index, line: line(index))
            if let parsed = reader.read(item) { cases.append(parsed) }
            problems += reader.problems
        }
        if !problems.isEmpty { throw ExpectationFileErrors(problems) }
        return cases
    }
}

/// Every problem of a file.
public struct ExpectationFileErrors: Error, Sendable {
    public var errors: [ExpectationFileError]
    public init(_ errors: [ExpectationFileError]) { self.errors = errors }
}

/// Reads one case, collecting its problems.
struct CaseReader {
    let file: String
    let index: Int
    let line: Int
    var name: String?
    var problems: [ExpectationFileError] = []

    init(file: String, index: Int, line: Int) {
        self.file = file
        self.index = index
        self.line = line
    }

    mutating func fail(_ field: String?, _ message: String) {
        problems.append(
            ExpectationFileError(
                file: file, caseIndex: index, caseName: name, line: line, field: field, message: message))
    }

    mutating func read(_ item: JSONValue) -> ExpectationCase? {
        guard let object = item.object else {
            fail(nil, "must be an object {name, METHOD: params, now?, expect}, got \(item.typeName)")
            return nil
        }
        name = object["name"]?.string
        if object["name"] == nil {
            fail("name", "is required (a string that names the case)")
        } else if name?.isEmpty ?? true {
            fail("name", "must be a non-empty string")
        }
        let methodNames = ExpectationCase.methods.map(\.rawValue)
        var requests: [(Method, JSONValue)] = []
        var unknownKey = false
        for (key, value) in object where !["name", "now", "expect"].contains(key) {
            if let method = Method(rawValue: key), ExpectationCase.methods.contains(method) {
                requests.append((method, value))
            } else {
                var message = "unknown method or key (a case has name, now, expect and one of: "
                message += methodNames.joined(separator: ", ") + ")"
                if let near = Suggestion.closest(to: key, in: methodNames + ["name", "now", "expect"]) {
                    message += "; did you mean \(Quoting.quoted(near))?"
                }
                fail(key, message)
                unknownKey = true
            }
        }
        if requests.count > 1 {
            fail(requests[1].0.rawValue, "a case makes one request; this one also has \(requests[0].0.rawValue)")
        }
        var now: Int64?
        if let value = object["now"] {
            if let text = value.string, let ms = Timestamp.parse(text) {
                now = ms
            } else {
                fail("now", "must be an ISO-8601 date-time with a zone, such as \"2026-03-02T09:00:00Z\"")
            }
        }
        guard let request = requests.first else {
            if !unknownKey {
                fail(nil, "has no request: give one of \(methodNames.joined(separator: ", ")) with its params")
            }
            return nil
        }
        let (method, params) = request
        checkParams(method, params)
        var expect = Expectation()
        if let value = object["expect"] {
            expect = read(expect: value, words: method == .complete, method: method)
        } else {
            fail("expect", "is required: an object with any of \(Expectation.keys.joined(separator: ", "))")
        }
        guard problems.isEmpty else { return nil }
        return ExpectationCase(
            index: index, name: name ?? "", line: line, method: method, params: params, now: now, expect: expect)
    }

    /// Decodes the params as the pipe would, and checks what the pipe checks before running.
    mutating func checkParams(_ method: Method, _ params: JSONValue) {
        do {
            let request = try method.request.init(
                params: try Params(params, method: method.rawValue, allowed: method.parameters))
            try request.validate()
        } catch {
            let prefix = method.rawValue + ": "
            fail(
                method.rawValue,
                error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }
}
