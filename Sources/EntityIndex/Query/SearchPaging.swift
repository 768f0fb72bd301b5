import JSON
import SQLite

/// A page of search results: the entities, how many match in all, and where the next page starts.
public struct SearchPage: Sendable {
    public var entities: [EntityResult]
    /// How many entities match: exact up to `EntityStore.maxExactTotal`; beyond it a lower bound
    /// (`totalIsLowerBound`).
    public var total: Int
    public var totalIsLowerBound: Bool
    /// The `cursor` of the next page; nil on the last page and at `EntityStore.maxResults` results.
    public var nextCursor: String?
    /// The facets asked for, counted among every match; nil when none was asked for.
    public var facets: FacetCounts?

    public init(entities: [EntityResult], total: Int, totalIsLowerBound: Bool = false, nextCursor: String? = nil) {
        self.entities = entities
        self.total = total
        self.totalIsLowerBound = totalIsLowerBound
        self.nextCursor = nextCursor
    }
}

/// Where a page of a search starts: the position of its first result in the search's order, and a fingerprint of
/// the search (query, type and filters), so that a cursor is never applied to another search.
///
/// Written as `OFFSET-FINGERPRINT` (`20-9f3ac0…`, 16 hexadecimal digits). The next page is the same search ranked to
/// `offset + limit` results, of which the first `offset` are left out: pages concatenated equal one request of
/// their combined size while the index does not change.
struct SearchCursor: Equatable {
    var offset: Int
    var fingerprint: UInt64

    var text: String {
        let hex = String(fingerprint, radix: 16)
        return "\(offset)-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The 64-bit FNV-1a of what decides a search's order and members (query, types, filters, matching).
    static func fingerprint(_ request: SearchRequest) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0xFF  // a byte no UTF-8 text holds ends each part
            hash = hash &* 0x0000_0100_0000_01b3
        }
        add(request.query)
        for type in request.types { add(type) }
        add("")
        for filter in request.filters {
            add(filter.property)
            add(filter.op.rawValue)
            add(JSONWriter.string(filter.value))
        }
        // Optional words change the order (a search of every word keeps the fingerprints it always had).
        if request.matching != .all { add("matching=" + request.matching.rawValue) }
        return hash
    }

    /// Reads a cursor given with `request`, checking that it was made for the same search.
    static func parse(_ text: String, for request: SearchRequest) throws(EntityIndexError) -> SearchCursor {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[0]), offset >= 0, String(offset) == parts[0],
            parts[1].count == 16, let fingerprint = UInt64(parts[1], radix: 16)
        else {
            throw EntityIndexError(
                .invalidParams,
                "search: parameter \"cursor\" must be the nextCursor of a previous page, got \(Quoting.quoted(text))")
        }
        guard fingerprint == Self.fingerprint(request) else {
            throw EntityIndexError(
                .invalidParams,
                "search: parameter \"cursor\" is the nextCursor of another search (its query, type, filters or matching differ); repeat the search without a cursor"
            )
        }
        guard offset < EntityStore.maxResults else {
            throw EntityIndexError(
                .invalidParams,
                "search: parameter \"cursor\" starts at result \(offset); a search pages through its first \(EntityStore.maxResults) results"
            )
        }
        return SearchCursor(offset: offset, fingerprint: fingerprint)
    }
}

extension EntityStore {
    /// A search's `total` is exact up to this many matches; beyond, it is a lower bound.
    public static let maxExactTotal = 100

    /// How many entities the search's phase that found its results matches, counting at most `maxExactTotal + 1`:
    /// the same candidates `TopK` ranks, under the same conditions.
    ///
    /// Matching words: the entities whose id is the query's (`id_key`) and every match of the query's expression;
    /// typos: the matches of the expression with its variants; fragments: the codes that hold the word.
    ///
    /// When every document of the full-text indexes is an entity the search may return (`everyDocumentVisible`),
    /// the matches are counted in the index alone; else each counted match's entity is read for its conditions.
    func countMatches(_ query: SearchQuery, phase: SearchPhase, conditions: SQLFragment, everyDocumentVisible: Bool)
        throws -> Int
    {
        let bound = Self.maxExactTotal + 1
        func count(_ table: String, _ expression: String) throws -> Int {
            if everyDocumentVisible {
                return Int(
                    try db.scalar(
                        "SELECT count(*) FROM (SELECT 1 FROM \(table) WHERE \(table) MATCH ? LIMIT \(bound))",
                        [.text(expression)])?.int ?? 0)
            }
            // The matches drive (CROSS JOIN fixes the order), so that the conditions are checked on each match up to
            // the bound; left to itself, SQLite (without statistics) reads every entity of the types and looks each
            // up in the full-text index, with the filters checked first: entities × filters instead of matches.
            let sql = """
                SELECT count(*) FROM (SELECT 1 FROM \(table) CROSS JOIN search_doc d ON d.doc = \(table).rowid
                CROSS JOIN entity e ON e.rowid = d.rowid WHERE \(table) MATCH ? AND \(conditions.sql) LIMIT \(bound))
                """
            return Int(try db.scalar(sql, [.text(expression)] + conditions.arguments)?.int ?? 0)
        }
        // The titles and ids alone first: their matches are matches of `search` too (the same columns, the same
        // terms), and a long prefix that FTS5 must merge costs a fraction there; when they reach the bound, the
        // total is known to be beyond it.
        func countTitlesFirst(_ table: String, _ expression: String) throws -> Int {
            guard table == "search" else { return try count(table, expression) }
            // (With the completions a prefix lists, not the bare prefix `forTitles` reads: that one also matches
            // terms with digits, which the search does not take for the prefix, and would count them.)
            let titles = try count("search_title", expression)
            return titles >= bound ? titles : try count("search", expression)
        }
        guard let (table, expression) = Self.candidateMatch(query, phase) else { return 0 }
        var total = try countTitlesFirst(table, expression)
        guard phase == .words, total < bound else { return total }
        let exactIDs = try db.rows(
            """
            SELECT d.doc FROM entity e JOIN search_doc d ON d.rowid = e.rowid WHERE e.id_key = ? AND \(conditions.sql)
            """, [.text(query.idKey)] + conditions.arguments
        ) { $0.int(0) }
        for docid in exactIDs
        where try db.scalar(
            "SELECT 1 FROM search WHERE search MATCH ? AND rowid = ?", [.text(expression), .integer(docid)]) == nil
        {
            total += 1
        }
        return total
    }

    /// The full-text table and expression whose matches are a pass's candidates in `phase` (with `.words`, beside
    /// the entities whose id is the query's): the words as typed in `search`, the words with their typo variants
    /// in `search`, or the single word inside the codes of `search_code`; nil when the phase has none.
    static func candidateMatch(_ query: SearchQuery, _ phase: SearchPhase) -> (table: String, expression: String)? {
        switch phase {
        case .words: ("search", query.terms.map { $0.expression(maxTypos: 0) }.joined(separator: " AND "))
        case .typos: ("search", query.terms.map { $0.expression() }.joined(separator: " AND "))
        case .rewrites: nil  // each rewrite's words, as typed (`rewriteCandidates`)
        case .fragments:
            query.terms.count == 1 && query.searchesCodes
                ? ("search_code", "\"" + query.idKey.replacingAll("\"", "\"\"") + "\"") : nil
        }
    }
}

extension EntityStore {
    /// Whether a search of `types` (empty: every type) without filters may return every entity: none is hidden
    /// (`entity_hidden`, a partial index), none has expired (`entity_expires`) and every entity is of one of the
    /// types (the smallest and largest type, from the index of (type, id)). Three index lookups.
    func everyEntityVisible(types: [String], filtered: Bool) throws -> Bool {
        guard !filtered,
            try db.scalar("SELECT 1 FROM entity WHERE hidden != 0 LIMIT 1") == nil,
            let soonest = try db.scalar("SELECT min(expires_at) FROM entity")?.int, soonest > now
        else { return false }
        guard !types.isEmpty else { return true }
        guard let first = try db.scalar("SELECT min(type) FROM entity")?.string,
            let last = try db.scalar("SELECT max(type) FROM entity")?.string
        else { return true }
        return first == last && types.contains(first)
    }
}

/// Which of a search's passes found its results: words as typed (or prefixes), a word split or two joined
/// (`WordRewrites`), words with typos, or a fragment inside a code. Each runs only when the one before found nothing.
enum SearchPhase {
    case words, rewrites, typos, fragments
}
