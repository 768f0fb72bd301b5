import EntityIndex
import JSON

/// One case of an expectations file: a pipe request and what its answer must hold.
///
/// The request is written as the pipe's params under the method's name (`{"search": {"query": "ada"}}`), so it
/// means exactly what it means on the pipe.
public struct ExpectationCase: Sendable {
    /// The 0-based position of the case in its file's array.
    public var index: Int
    public var name: String
    /// The 1-based line of the case's opening brace.
    public var line: Int
    public var method: Method
    public var params: JSONValue
    /// The clock for this case (milliseconds since 1970), else the run's.
    public var now: Int64?
    public var expect: Expectation

    /// The methods a case may ask: those that read entities (or words, for `complete`).
    public static let methods: [Method] = [
        .search, .suggest, .spotlight, .userQuery, .query, .all, .get, .related, .complete,
    ]

    /// `search "ada"`, `related order/1042`: the method and what it asks, for a line of output.
    public var summary: String {
        if let text = params["query"]?.string ?? params["prefix"]?.string {
            return method.rawValue + " " + JSONWriter.string(.string(text))
        }
        let type = params["type"]?.string ?? params["type"]?.array?.compactMap(\.string).joined(separator: "+")
        if let id = params["id"] { return method.rawValue + " " + (type ?? "") + "/" + Self.idText(id) }
        return method.rawValue + (type.map { " " + $0 } ?? "")
    }

    private static func idText(_ value: JSONValue) -> String {
        value.string ?? value.number?.text ?? ""
    }
}

/// What a case's answer must hold; each part is checked on its own.
public struct Expectation: Sendable {
    /// The first results exactly, in order (`type/id`, or words for `complete`).
    public var top: [String]?
    /// Each among the results.
    public var contains: [String]?
    /// None among the results.
    public var excludes: [String]?
    /// Each at this 1-based rank or better, in the order written.
    public var rankAtMost: [(key: String, rank: Int)] = []
    /// The number of results returned.
    public var count: Int?
    /// The result's `total` (search).
    public var total: Int?
    /// Whether the answer is empty.
    public var empty: Bool?

    /// Every key an `expect` object may have.
    public static let keys = ["top", "contains", "excludes", "rankAtMost", "count", "total", "empty"]

    public init() {}
}

/// A file, or a request in it, that is wrong: it names the file, the case (index and name) and the field.
public struct ExpectationFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var caseIndex: Int?
    public var caseName: String?
    public var line: Int?
    public var field: String?
    public var message: String

    public init(
        file: String, caseIndex: Int? = nil, caseName: String? = nil, line: Int? = nil, field: String? = nil,
        message: String
    ) {
        self.file = file
        self.caseIndex = caseIndex
        self.caseName = caseName
        self.line = line
        self.field = field
        self.message = message
    }

    /// `data/expectations.json:12: case 3 ("ada by voice"): expect.top[0]: malformed id "order"; …`
    public var description: String {
        var text = file + (line.map { ":\($0)" } ?? "") + ": "
        if let caseIndex {
            text += "case \(caseIndex)" + (caseName.map { " (\(Quoting.quoted($0)))" } ?? "") + ": "
        }
        if let field { text += field + ": " }
        return text + message
    }

    /// The problem of a case given to the pipe's `test`, which has no file: `cases[3] ("ada by voice"):
    /// expect.top[0]: malformed id "order"; …`.
    public var parameterDescription: String {
        var text = caseIndex.map { "cases[\($0)]" + (caseName.map { " (\(Quoting.quoted($0)))" } ?? "") + ": " } ?? ""
        if let field { text += field + ": " }
        return text + message
    }
}
