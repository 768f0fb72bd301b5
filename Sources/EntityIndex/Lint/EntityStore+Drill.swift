import JSON
import System

/// The outcome of a reindex drill: how much of the index the app's reindex output would bring back.
public struct DrillReport: Sendable {
    /// An entity of the restore input, with where it is in that input.
    public struct Pushed: Sendable, Equatable {
        public var entity: EntityKey
        public var location: LintLocation
    }

    /// An entity that came back different, and the fields that differ (`title`, `properties.total`, …).
    public struct Changed: Sendable, Equatable {
        public var entity: EntityKey
        public var location: LintLocation
        public var fields: [String]
    }

    /// Entities the index holds (expired ones are gone already).
    public var indexed: Int
    /// Distinct entities of the restore input.
    public var pushed: Int
    /// Entities that came back exactly as indexed.
    public var restored: Int
    /// Indexed entities the restore input leaves out, by type and id.
    public var missing: [EntityKey]
    /// Entities that came back with other field values, in input order.
    public var changed: [Changed]
    /// Entities of the restore input that the index does not hold, in input order.
    public var new: [Pushed]
    /// Records of the restore input whose `expiresAt` has passed: an ingest drops them, so they restore nothing.
    public var expired: [Pushed]

    /// Whether the restore brings back exactly what the index holds.
    public var isComplete: Bool { missing.isEmpty && changed.isEmpty }
}

extension EntityStore {
    /// Simulates the system losing its index: compares what the index holds now with what the app's reindex
    /// (`reindexAllSearchableItems`, `IndexedEntityQuery`'s reindex) would push back. Reads only.
    ///
    /// The input is validated like an ingest: a bad record is an error naming every bad record, since an ingest of
    /// it would be rejected whole. A later record of the same entity replaces an earlier one.
    /// With `type`, only entities of that type count, on both sides (the system asked to reindex one type).
    public func drill(restore input: RecordSource, type: String? = nil) throws(EntityIndexError) -> DrillReport {
        // The first problems are kept and the others counted, as in an ingest: an input of endless bad records
        // takes the memory of those it lists.
        var problems: [RecordProblem] = []
        var problemCount = 0
        var pushed: [(record: EntityRecord, location: LintLocation)] = []
        var positions: [EntityKey: Int] = [:]
        func found(_ problem: RecordProblem) {
            problemCount += 1
            if problems.count < Ingestion.maxListedProblems { problems.append(problem) }
            // The drill is an error now: the records pushed so far are not needed any more.
            if !pushed.isEmpty {
                pushed = []
                positions = [:]
            }
        }
        var read = 0
        for item in input {
            read += 1
            try StopSignal.check("reading the restore input")
            if read % Self.checkedRecords == 0 {
                try MemoryRoom.require(0, for: "the \(read) records of the restore input read so far")
            }
            switch item {
            case .unreadable(let problem): found(problem)
            case .record(let value, let position, let line):
                switch RecordValidator.validate(value, position: position, line: line) {
                case .failure(let failure): failure.problems.forEach(found)
                case .success(let record):
                    if let type, record.type != type { continue }
                    if problemCount > 0 { continue }
                    let entry = (record, LintLocation.input(position, line: line, record.key))
                    if let earlier = positions[record.key] {
                        pushed[earlier] = entry
                    } else {
                        positions[record.key] = pushed.count
                        pushed.append(entry)
                    }
                }
            }
        }
        try StopSignal.check("reading the restore input")
        guard problemCount == 0 else {
            let listed = problems.prefix(Ingestion.maxListedProblems)
            var message = problemCount == 1 ? "1 problem" : "\(problemCount) problems"
            message +=
                " in the restore input (an ingest would reject all of it):\n"
                + listed.map { "  " + $0.description }.joined(separator: "\n")
            if problemCount > listed.count { message += "\n  … and \(problemCount - listed.count) more" }
            throw EntityIndexError(.invalidRecord, message, details: Array(listed))
        }

        var indexedByKey: [EntityKey: JSONObject] = [:]
        var indexedKeys: [EntityKey] = []
        try forEachIndexed(type: type) { record, _, _ in
            indexedByKey[record.key] = record.json
            indexedKeys.append(record.key)
        }
        var report = DrillReport(
            indexed: indexedKeys.count, pushed: pushed.count, restored: 0, missing: [], changed: [], new: [],
            expired: [])
        for (record, location) in pushed {
            if let expiresAt = record.expiresAt, expiresAt <= now {
                report.expired.append(.init(entity: record.key, location: location))
                continue
            }
            guard let stored = indexedByKey[record.key] else {
                report.new.append(.init(entity: record.key, location: location))
                continue
            }
            let fields = Self.differingFields(stored, record.json)
            if fields.isEmpty {
                report.restored += 1
            } else {
                report.changed.append(.init(entity: record.key, location: location, fields: fields))
            }
        }
        report.missing = indexedKeys.filter { positions[$0] == nil }
        return report
    }

    /// How often reading records for a lint or drill checks the memory left: every this many records (a chunk,
    /// as an ingest's).
    static let checkedRecords = 256

    /// The fields whose values differ between two records, in field order; properties name each property
    /// (`properties.total`). Key order does not count, nor how a number is written (`1.50` equals `1.5`).
    static func differingFields(_ a: JSONObject, _ b: JSONObject) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        for key in a.keys + b.keys where seen.insert(key).inserted { names.append(key) }
        var fields: [String] = []
        for name in names {
            if name == "properties", case .object(let pa)? = a[name], case .object(let pb)? = b[name] {
                fields += differingFields(pa, pb).map { "properties.\($0)" }
            } else if !sameValue(a[name], b[name]) {
                fields.append(name)
            }
        }
        return fields
    }

    static func sameValue(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (.number(let x)?, .number(let y)?): return x.text == y.text || x.double == y.double
        case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x)?, .object(let y)?):
            return x.count == y.count && x.allSatisfy { pair in sameValue(pair.value, y[pair.key]) }
        case let (x?, y?): return x == y
        default: return false
        }
    }
}
