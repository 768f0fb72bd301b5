/// Record problems gathered by field and text: a systematic mistake (every record with the same bad field) is one
/// group with its count and its first records, however many records repeat it.
///
/// Memory stays bounded while an ingest streams: a group keeps its first `keptPerGroup` problems, and at most
/// `maxGroups` groups are kept (the problems of kinds after those are only counted, in `ungrouped`).
public struct ProblemGroups: Sendable {
    /// The problems of one field and text.
    public struct Group: Sendable {
        public var field: String?
        public var problem: String
        /// How many problems have this field and text.
        public var count: Int
        /// The first of them, at most `keptPerGroup`, in input order.
        public var first: [RecordProblem]
        /// Where each of `first` is among all the problems added (0 for the first problem).
        public var ordinals: [Int]
    }

    /// How many problems of a group are kept to be shown.
    public static let keptPerGroup = 3
    /// How many groups are kept.
    public static let maxGroups = 100

    /// In the order each kind first appears.
    public private(set) var groups: [Group] = []
    /// Problems of kinds beyond the first `maxGroups`.
    public private(set) var ungrouped = 0
    /// Every problem added.
    public private(set) var count = 0
    private var index: [Key: Int] = [:]

    private struct Key: Hashable {
        var field: String?
        var problem: String
    }

    public init() {}

    public init(_ problems: some Sequence<RecordProblem>) {
        for problem in problems { add(problem) }
    }

    public mutating func add(_ problem: RecordProblem) {
        let key = Key(field: problem.field, problem: problem.problem)
        defer { count += 1 }
        if let i = index[key] {
            groups[i].count += 1
            if groups[i].first.count < Self.keptPerGroup {
                groups[i].first.append(problem)
                groups[i].ordinals.append(count)
            }
        } else if groups.count < Self.maxGroups {
            index[key] = groups.count
            groups.append(
                Group(field: problem.field, problem: problem.problem, count: 1, first: [problem], ordinals: [count]))
        } else {
            ungrouped += 1
        }
    }

    /// Whether a group holds more problems than it keeps: only then is the grouping shorter than the list.
    public var repeats: Bool { groups.contains { $0.count > Self.keptPerGroup } }
}
