import JSON
import System

/// What to lint: records the app is about to push (checked against themselves and the index), or, without records,
/// the whole index.
public struct LintRequest {
    public static let defaultWithinDays = 7
    public static let maxWithinDays = 3650
    /// nil: lint what the index holds.
    public var records: RecordSource?
    /// `will-expire` reports entities that expire within this many days.
    public var withinDays: Int
    /// At most this many findings are listed, the first in the report's order; the others are counted in
    /// `unlisted` (nil: all).
    public var limit: Int?

    public init(records: RecordSource?, withinDays: Int = defaultWithinDays, limit: Int? = nil) {
        self.records = records
        self.withinDays = withinDays
        self.limit = limit
    }
}

extension EntityStore {
    /// Checks records before they are pushed, or the whole index, for what would keep entities from Siri,
    /// Shortcuts and Spotlight (`LintCode`). Reads only: the index is not changed.
    ///
    /// The checks see the index as it would be after the push: the records of the input replace the indexed
    /// entities of the same type and id, the others stay. With records, only findings that involve a record of the
    /// input are reported, plus the indexed entities the push leaves to expire; `id-changed`, `type-renamed` and
    /// `duplicate-key` are about a push, so they need records.
    public func lint(_ request: LintRequest) throws(EntityIndexError) -> LintReport {
        var findings: [LintFinding] = []
        var subjects: [LintSubject] = []
        var inputKeys: [EntityKey: Int] = [:]
        // Records whose type and id an earlier record of the input has, and where that first record is.
        var repeats: [LintLocation] = []
        var firstOfKey: [EntityKey: LintLocation] = [:]
        let pushExpiry = Self.defaultExpiry(from: now)

        // The first invalid-record findings and repeated records are kept, the others counted: an input of endless
        // bad (or repeated) records takes the memory of those it lists.
        var unlisted: [LintCode: Int] = [:]
        func invalid(_ problem: RecordProblem) {
            if findings.count < LintReport.maxListedPerCode {
                findings.append(Self.invalidFinding(problem))
            } else {
                unlisted[.invalidRecord, default: 0] += 1
            }
        }
        var recordCount = 0
        let declarations: [String: [String: PropertyDeclaration]]
        do { declarations = try allDeclarations(type: nil) } catch {
            throw EntityIndexError.wrap(error, doing: "reading declarations")
        }
        if let records = request.records {
            for input in records {
                recordCount += 1
                try StopSignal.check("reading the records to lint")
                if recordCount % Self.checkedRecords == 0 {
                    try MemoryRoom.require(0, for: "the \(recordCount) records to lint read so far")
                }
                switch input {
                case .unreadable(let problem):
                    invalid(problem)
                case .record(let value, let position, let line):
                    switch RecordValidator.validate(value, position: position, line: line) {
                    case .failure(let failure):
                        failure.problems.forEach(invalid)
                    case .success(let record):
                        let kinds = PropertyDeclaration.problems(
                            in: record.properties, declarations: declarations[record.type] ?? [:])
                        guard kinds.isEmpty else {
                            for (field, problem) in kinds {
                                invalid(
                                    RecordProblem(
                                        position: position, line: line, entity: record.key.description, field: field,
                                        problem: problem))
                            }
                            continue
                        }
                        let subject = LintSubject(
                            record, location: .input(position, line: line, record.key),
                            expiresAt: pushExpiry, pushedAt: now)
                        // A later record of the same entity replaces the earlier one, as in an ingest.
                        if let earlier = inputKeys[record.key] {
                            if firstOfKey[record.key] == nil { firstOfKey[record.key] = subjects[earlier].location }
                            if repeats.count < LintReport.maxListedPerCode {
                                repeats.append(subject.location)
                            } else {
                                unlisted[.duplicateKey, default: 0] += 1
                            }
                            subjects[earlier] = subject
                        } else {
                            inputKeys[record.key] = subjects.count
                            subjects.append(subject)
                        }
                    }
                }
            }
        }
        if request.records != nil { try StopSignal.check("reading the records to lint") }
        let inputCount = subjects.count
        for location in repeats {
            let key = location.entity!
            findings.append(
                Self.duplicateKeyFinding(location, first: firstOfKey[key]!, last: subjects[inputKeys[key]!].location))
        }
        var indexedKeys = Set<EntityKey>()
        let indexed = try forEachIndexed { record, expiresAt, ingestedAt in
            indexedKeys.insert(record.key)
            guard inputKeys[record.key] == nil else { return }
            subjects.append(
                LintSubject(record, location: .indexed(record.key), expiresAt: expiresAt, pushedAt: ingestedAt))
        }

        var checks = LintChecks(
            subjects: subjects, inputCount: inputCount, wholeIndex: request.records == nil,
            indexedKeys: indexedKeys, now: now, withinDays: request.withinDays)
        checks.declarations = declarations
        try checks.run()
        findings += checks.findings
        // By code, then location; the broken links of one record keep the order of its related entries.
        findings = findings.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.code != y.code { return x.code < y.code }
            if x.location != y.location { return x.location < y.location }
            if x.code == .brokenLink || x.message == y.message { return a.offset < b.offset }
            return x.message < y.message
        }.map(\.element)
        if let limit = request.limit, findings.count > limit {
            for finding in findings[limit...] { unlisted[finding.code, default: 0] += 1 }
            findings.removeSubrange(limit...)
        }
        return LintReport(
            findings: findings, records: recordCount, indexed: indexed,
            withinDays: request.withinDays, unlisted: unlisted)
    }

    static func invalidFinding(_ problem: RecordProblem) -> LintFinding {
        let entity = problem.entity.flatMap { text -> EntityKey? in
            guard let slash = text.firstIndex(of: "/") else { return nil }
            return EntityKey(type: String(text[..<slash]), id: String(text[text.index(after: slash)...]))
        }
        let field = problem.field.map { "field \"\($0)\" " } ?? ""
        return LintFinding(
            .invalidRecord, .input(problem.position, line: problem.line, entity),
            "\(field)\(problem.problem) (an ingest would reject the whole push)", field: problem.field)
    }

    /// `duplicate-key`: a record of the input with the type and id of an earlier one. An ingest upserts each record
    /// in turn, so the last of them is what the index keeps, and the others are lost without an error.
    /// The message names records by position only, as a pipe request has no lines (`first` has the line).
    static func duplicateKeyFinding(_ location: LintLocation, first: LintLocation, last: LintLocation) -> LintFinding {
        func at(_ l: LintLocation) -> String { "record \(l.position!)" }
        let kept = location == last ? "this one" : at(last)
        return LintFinding(
            .duplicateKey, location,
            """
            has the type and id of \(at(first)) of this push: an ingest keeps only the last record of an entity \
            (\(kept)) and drops the others without an error; push each entity once (merge the records), or give \
            each entity an id of its own
            """, first: first)
    }
}
