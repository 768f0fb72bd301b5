import EntityIndex
import JSON

/// What one case gave: its status, the results it got, and each expectation that did not hold.
public struct CaseOutcome: Sendable {
    public enum Status: String, Sendable {
        case passed, failed
        /// The request is wrong (invalid params, an invalid query): a problem of the file, not of the index.
        case wrong
    }

    /// One expectation that did not hold.
    public struct Failure: Sendable {
        /// `top`, `contains`, `excludes`, `rankAtMost`, `count`, `total`, `empty`, or `request` when it failed.
        public var expectation: String
        public var message: String
    }

    public var file: String
    public var testCase: ExpectationCase
    public var status: Status
    /// The results in order: `type/id`, or words for `complete`.
    public var got: [String] = []
    /// The result's `total`, when it has one.
    public var total: Int?
    public var failures: [Failure] = []
    /// The ranking tiers of each result (`type/id` → tier and value, in the engine's order) for a failed search
    /// or user query.
    public var tiers: [String: [Tier]] = [:]

    public struct Tier: Sendable {
        public var name: String
        public var value: String
    }
    /// The error the request ended with, if it did.
    public var error: EntityIndexError?
    public var seconds: Double = 0
}

/// Runs the cases of expectations files on a store through the pipe's own dispatch.
public struct ExpectationRunner {
    public let store: EntityStore
    /// The clock of a case without `now`.
    public let now: () -> Int64
    /// The seconds one case may take (nil: no bound of its own, only the caller's); past it the case fails, the run
    /// goes on.
    public let timeout: Double?

    public init(store: EntityStore, now: @escaping () -> Int64, timeout: Double?) {
        self.store = store
        self.now = now
        self.timeout = timeout
    }

    /// Runs one case: its request as the pipe runs it, then each expectation on the answer.
    public func run(_ testCase: ExpectationCase, file: String) -> CaseOutcome {
        let start = ContinuousClock.now
        var outcome = check(testCase, file: file)
        let elapsed = ContinuousClock.now - start
        outcome.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return outcome
    }

    private func check(_ testCase: ExpectationCase, file: String) -> CaseOutcome {
        var outcome = CaseOutcome(file: file, testCase: testCase, status: .passed)
        let result: JSONValue
        do {
            result = try call(testCase.method, testCase.params, now: testCase.now)
        } catch {
            outcome.error = error
            let wrong = error.code == .invalidParams || error.code == .invalidQuery
            outcome.status = wrong ? .wrong : .failed
            outcome.failures = [.init(expectation: "request", message: "\(error.code.rawValue): \(error.message)")]
            return outcome
        }
        outcome.got = Self.keys(of: result, method: testCase.method)
        outcome.total = result["total"]?.number?.int.map { Int($0) }
        outcome.failures = Self.check(testCase.expect, got: outcome.got, total: outcome.total)
        if !outcome.failures.isEmpty {
            outcome.status = .failed
            outcome.tiers = tiers(of: testCase)
        }
        return outcome
    }

    /// Runs a request under the case's clock and the run's time bound.
    private func call(_ method: Method, _ params: JSONValue, now caseNow: Int64?) throws(EntityIndexError)
        -> JSONValue
    {
        let clock = caseNow ?? now()
        let handler = RequestHandler(store: store, clock: { clock })
        // Without a bound of its own, a case runs under the request's (serve's time budget, a stop signal).
        guard let timeout else { return try handler.call(method, params) }
        return try RequestBudget(seconds: timeout).run { () throws(EntityIndexError) -> JSONValue in
            try handler.call(method, params)
        }
    }

    /// The results of an answer as `type/id` (the words of `complete`).
    static func keys(of result: JSONValue, method: Method) -> [String] {
        switch method {
        case .complete:
            return (result["completions"]?.array ?? []).compactMap { $0["term"]?.string }
        case .userQuery:
            return (result["items"]?.array ?? []).map(key(of:))
        default:
            return (result["entities"]?.array ?? []).map(key(of:))
        }
    }

    static func key(of entity: JSONValue) -> String {
        let o = entity.decoded
        let id = o["id"]?.string ?? o["id"]?.number?.text ?? ""
        return "\(o["type"]?.string ?? "")/\(id)"
    }

    /// The ranking tiers of a failed search's results (a user query's items are a search's): the same request
    /// again with `explain`.
    private func tiers(of testCase: ExpectationCase) -> [String: [CaseOutcome.Tier]] {
        guard var params = testCase.params.object else { return [:] }
        switch testCase.method {
        case .search: params["explain"] = true
        case .userQuery:
            var search = JSONObject([("query", params["query"] ?? "")])
            search["matching"] = params["matching"] ?? "frequency"
            search["limit"] = params["maxItems"] ?? JSONValue(UserQueryRequest.defaultMaxItems)
            search["explain"] = true
            params = search
        default: return [:]
        }
        guard let result = try? call(.search, .object(params), now: testCase.now) else { return [:] }
        var tiers: [String: [CaseOutcome.Tier]] = [:]
        for entity in result["entities"]?.array ?? [] {
            let explain = entity.decoded["explain"]?.object ?? JSONObject()
            tiers[Self.key(of: entity)] = explain.map { CaseOutcome.Tier(name: $0.key, value: Self.text($0.value)) }
        }
        return tiers
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): b ? "true" : "false"
        default: JSONWriter.string(value)
        }
    }
}
