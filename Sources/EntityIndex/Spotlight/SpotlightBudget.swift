import SQLite

/// The text one Core Spotlight query may compare: the bytes of every value a comparison reads, and the matcher's
/// steps beyond them (`SpotlightMatcher.matches(_:cost:)`).
///
/// Forms that no index narrows (a leading wildcard, `w`, `t` without a word to look up) read every value of their
/// attribute, and OR'd comparisons add up: the budget bounds their sum, whatever their number. Past it the query
/// fails with `resource_exhausted`, saying what to ask instead.
final class SpotlightBudget {
    private(set) var spent = 0
    private(set) var limit = 0
    /// Whether the running query went past its budget (its statement then failed).
    private(set) var exhausted = false

    func start(limit: Int) {
        self.limit = limit
        spent = 0
        exhausted = false
    }

    func charge(_ cost: Int) throws(PredicateFailure) {
        spent += cost
        guard spent > limit else { return }
        exhausted = true
        throw PredicateFailure("the Core Spotlight query compared more than its budget of text")
    }

    /// The error a query past its budget fails with.
    func error() -> EntityIndexError {
        EntityIndexError(
            .resourceExhausted,
            "the query compares more than \(limit >> 20) MiB of text (the most one Core Spotlight query may read); narrow it: compare whole values, prefixes (\"par*\") or words the full-text index finds (\"word\"t) rather than leading wildcards or w over long fields, OR fewer comparisons, or add a type or another && term"
        )
    }
}

extension EntityStore {
    /// The bytes of text the last Core Spotlight query (or user query) compared, since `resetSpotlightScan`.
    public var spotlightScannedBytes: Int { spotlightBudget.spent }

    /// Starts counting the text Core Spotlight queries compare from zero.
    public func resetSpotlightScan() { spotlightBudget.start(limit: maxSpotlightScanBytes) }

    /// The most text one Core Spotlight query compares by default: a full scan of the long descriptions of 64k
    /// entities (about 100 MB) fits, two or three do not.
    public static let defaultMaxSpotlightScanBytes = 256 << 20
}
