import JSON

/// What `lint` can find wrong with pushed records: each is a reason Siri, Shortcuts or Spotlight would lose or
/// mislead with an entity, without any API saying so.
///
/// The raw values are stable: scripts and CI match on them.
public enum LintCode: String, Sendable, CaseIterable, Comparable {
    /// A record that fails validation (the ingest would reject the whole push).
    case invalidRecord = "invalid-record"
    /// The same type and id twice in one push: an ingest keeps the last record and drops the others silently.
    case duplicateKey = "duplicate-key"
    /// A new id with the title, type and domain of an indexed entity that the push leaves out.
    case idChanged = "id-changed"
    /// A new type whose ids are those of an indexed type that the push leaves out.
    case typeRenamed = "type-renamed"
    /// An entity that will expire soon because nothing set `expiresAt` and nothing re-pushed it.
    case willExpire = "will-expire"
    /// Two entities with the same normalized title, subtitle and description.
    case duplicateContent = "duplicate-content"
    /// Searchable text over Core Spotlight's size limit for one item.
    case tooLarge = "too-large"
    /// A display that tells the entity apart badly: no subtitle or image where its type has them, a title of digits.
    case weakDisplay = "weak-display"
    /// A hidden entity that visible entities list in `related`.
    case unreachable = "unreachable"
    /// A `related` entry naming an entity that neither the index (after the push) nor the push holds.
    case brokenLink = "broken-link"
    /// A domain that is a dotted prefix of (or equal to) another type's domain.
    case domainOverlap = "domain-overlap"
    /// An undeclared property whose values are of more than one kind among the entities of a type (numbers and
    /// strings): the values of the other kind drop out of its filters and sort after.
    case mixedKinds = "mixed-kinds"

    /// How bad a finding of this code is.
    public var severity: LintSeverity {
        switch self {
        case .invalidRecord, .duplicateKey, .idChanged, .typeRenamed, .tooLarge: return .error
        case .willExpire, .duplicateContent, .weakDisplay, .unreachable, .brokenLink, .domainOverlap, .mixedKinds:
            return .warning
        }
    }

    public static func < (a: LintCode, b: LintCode) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// `error`: the entity will be lost or break what users saved; `warning`: it will be found badly or vanish.
public enum LintSeverity: String, Sendable, CaseIterable {
    case error, warning
}

/// Where a finding is: a record of the input (its position, the line it starts on for file input, and `type/id`
/// when they could be read) or an entity already in the index.
public struct LintLocation: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var position: Int?
    public var line: Int?
    public var entity: EntityKey?

    public static func input(_ position: Int, line: Int?, _ entity: EntityKey?) -> LintLocation {
        LintLocation(position: position, line: line, entity: entity)
    }

    public static func indexed(_ entity: EntityKey) -> LintLocation {
        LintLocation(position: nil, line: nil, entity: entity)
    }

    public var isIndexed: Bool { position == nil }

    /// `record 3 (line 7) order/1042`, or `indexed order/1042`.
    public var description: String {
        guard let position else { return "indexed \(entity?.description ?? "?")" }
        var text = "record \(position)"
        if let line { text += " (line \(line))" }
        if let entity { text += " \(entity)" }
        return text
    }

    /// Input records first, in input order; then indexed entities by type and id.
    public static func < (a: LintLocation, b: LintLocation) -> Bool {
        switch (a.position, b.position) {
        case let (x?, y?): return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil):
            let (x, y) = (a.entity ?? EntityKey(type: "", id: ""), b.entity ?? EntityKey(type: "", id: ""))
            return (x.type, x.id) < (y.type, y.id)
        }
    }
}

/// One finding: a stable code, its severity, where, and a message that says what to change.
public struct LintFinding: Sendable, Equatable {
    public var code: LintCode
    public var location: LintLocation
    public var message: String
    /// The other entities the finding is about (the indexed entity an id replaces, the first duplicate, the
    /// missing target of a link…).
    public var others: [EntityKey]
    /// The field of the record at fault, when it is one (`title`, `related[3]`).
    public var field: String?
    /// For `duplicate-key`: the first record of the input with the same type and id.
    public var first: LintLocation?

    public init(
        _ code: LintCode, _ location: LintLocation, _ message: String, others: [EntityKey] = [], field: String? = nil,
        first: LintLocation? = nil
    ) {
        self.code = code
        self.location = location
        self.message = message
        self.others = others
        self.field = field
        self.first = first
    }

    public var severity: LintSeverity { code.severity }
}

/// The outcome of `lint`: the findings, ordered by code and then location, and what was checked.
public struct LintReport: Sendable {
    /// Findings of one code kept from the input, at most (`invalid-record`, `duplicate-key`); the others are
    /// counted in `unlisted`, so that an endless input of bad records is checked in bounded memory.
    public static let maxListedPerCode = 1000

    public var findings: [LintFinding]
    /// Records read from the input (0 when the whole index is linted).
    public var records: Int
    /// Entities of the index the input was checked against (or that were linted).
    public var indexed: Int
    /// The `--within` window of `will-expire`, in days.
    public var withinDays: Int
    /// Findings found but not listed, by code (past `maxListedPerCode`, or past the request's `limit`).
    public var unlisted: [LintCode: Int]

    public init(findings: [LintFinding], records: Int, indexed: Int, withinDays: Int, unlisted: [LintCode: Int] = [:]) {
        self.findings = findings
        self.records = records
        self.indexed = indexed
        self.withinDays = withinDays
        self.unlisted = unlisted
    }

    /// Findings of a severity, the unlisted ones included.
    public func count(_ severity: LintSeverity) -> Int {
        counts.reduce(0) { $0 + ($1.code.severity == severity ? $1.count : 0) }
    }

    /// Findings not listed, of every code.
    public var unlistedCount: Int { unlisted.values.reduce(0, +) }

    /// Findings per code, the unlisted ones included, in code order, codes without findings left out.
    public var counts: [(code: LintCode, count: Int)] {
        var n = unlisted.filter { $0.value > 0 }
        for f in findings { n[f.code, default: 0] += 1 }
        return LintCode.allCases.compactMap { c in n[c].map { (c, $0) } }
    }
}
