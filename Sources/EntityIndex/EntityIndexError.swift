/// An error from the engine: a stable code, a message a person can act on, and the cause.
///
/// `code.rawValue` is what the pipe puts in `error.data.code`; the message is what it puts in `error.message`.
public struct EntityIndexError: Error, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case invalidRecord = "invalid_record"
        case invalidParams = "invalid_params"
        /// A Core Spotlight query string that does not parse (`CSSearchQueryError.invalidQuery`, −2002).
        case invalidQuery = "invalid_query"
        case notFound = "not_found"
        case mismatchedClientState = "mismatched_client_state"
        case batchState = "batch_state"
        case storage = "storage"
        case busy = "busy"
        case diskFull = "disk_full"
        case readOnly = "read_only"
        case notADatabase = "not_a_database"
        case schemaTooNew = "schema_too_new"
        case limitExceeded = "limit_exceeded"
        case io = "io_error"
        /// A stop signal (SIGINT/SIGTERM) ended the request; nothing of it was applied.
        case interrupted = "interrupted"
        /// The request ran past its time budget (`serve --request-timeout`); nothing of it was applied.
        case timedOut = "timed_out"
        /// The request's client went away before its answer; nothing of it was applied.
        case cancelled = "cancelled"
        /// The request needed more memory or output than a request may take.
        case resourceExhausted = "resource_exhausted"
        /// The database file was replaced or removed since it was opened; nothing was written.
        case databaseReplaced = "database_replaced"
        /// A reading command found no database file where it looked.
        case noIndex = "no_index"
    }

    public var code: Code
    public var message: String
    public var cause: (any Error)?
    /// For invalid records: one entry per bad record.
    public var details: [RecordProblem]
    /// For invalid queries: the 1-based character where the problem is.
    public var position: Int?

    public init(
        _ code: Code, _ message: String, cause: (any Error)? = nil, details: [RecordProblem] = [],
        position: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.details = details
        self.position = position
    }

    /// True for errors the caller caused (bad input), as opposed to storage failures.
    public var isInvalidInput: Bool {
        code == .invalidRecord || code == .invalidParams || code == .invalidQuery || code == .limitExceeded
    }

    public var description: String { message }
}

/// What is wrong with one record: where it is, which entity (when known), which field and why.
public struct RecordProblem: Sendable, Equatable, CustomStringConvertible {
    /// 1-based position of the record in its input.
    public var position: Int
    /// The line it starts on, for file input.
    public var line: Int?
    /// `type/id` when both could be read.
    public var entity: String?
    /// The field at fault, nil when the record itself is (not an object, not JSON).
    public var field: String?
    public var problem: String

    public init(position: Int, line: Int? = nil, entity: String? = nil, field: String? = nil, problem: String) {
        self.position = position
        self.line = line
        self.entity = entity
        self.field = field
        self.problem = problem
    }

    /// `record 3 (line 7) (order/1042): field "title" must be a string`.
    public var description: String { location + ": " + what }

    /// Where: `record 3 (line 7) (order/1042)`.
    public var location: String {
        var text = "record \(position)"
        if let line { text += " (line \(line))" }
        if let entity { text += " (\(entity))" }
        return text
    }

    /// What: `field "title" must be a string`.
    public var what: String {
        (field.map { "field \"\($0)\" " } ?? "") + problem
    }
}
