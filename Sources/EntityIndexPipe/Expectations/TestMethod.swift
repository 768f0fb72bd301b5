import EntityIndex
import JSON

/// `test`: `{"cases": [...], "now"?: T}`, the cases of an expectations file run on the index as `entityidx test`
/// runs them; the result is its JSON report, without `file` and `line` (the cases come in the request).
///
/// A case that is wrong as written (what makes `entityidx test` exit 2 before running anything) is an
/// invalid-params error naming every such case, its index, its name and the field; a request the engine refuses
/// while running (a Spotlight query that does not parse) is a `wrong` case of the report, as it is there.
public struct TestMethod: PipeMethod {
    public static let method = Method.test
    public static let parameters = ["cases", "now"]
    public var cases: [ExpectationCase]
    /// The clock of a case without its own `now` (milliseconds since 1970), else the request's.
    public var now: Int64?

    public init(cases: [ExpectationCase], now: Int64? = nil) {
        self.cases = cases
        self.now = now
    }

    public init(params p: Params) throws(EntityIndexError) {
        guard let items = try p.array("cases") else {
            throw p.fail("cases", "is required (an array of cases, as in an expectations file)")
        }
        var now: Int64?
        if let text = try p.string("now") {
            guard let ms = Timestamp.parse(text) else {
                throw p.fail("now", "must be an ISO-8601 date-time with a zone, such as \"2026-03-02T09:00:00Z\"")
            }
            now = ms
        }
        do {
            self.init(cases: try ExpectationFile.cases(items, file: "", line: { _ in 1 }), now: now)
        } catch {
            let problems = error.errors.map(\.parameterDescription)
            let n = problems.count
            throw EntityIndexError(
                .invalidParams,
                "test: \(n) problem\(n == 1 ? "" : "s") in \"cases\", nothing ran: " + problems.joined(separator: "; "))
        }
    }

    public func run(on store: EntityStore) throws(EntityIndexError) -> ExpectationReport {
        let clock = now ?? store.now
        let runner = ExpectationRunner(store: store, now: { clock }, timeout: nil)
        return ExpectationReport(cases.map { runner.run($0, file: "") })
    }

    public static func encode(_ result: ExpectationReport) -> JSONValue { result.json(located: false) }
}
