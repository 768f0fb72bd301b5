/// How an entity ranks among entities that tie on every query-dependent tier, packed into the high bits of its
/// document id in the full-text indexes (`search_doc.doc`, the rowid of `search` and `search_code`).
///
/// FTS5 streams matches in rowid order and stops early under a limit, but it cannot order by anything else without
/// scoring and sorting every match. Keying documents by rank makes "the first k matches of a tier in descending id
/// order" exactly the tier's best k. From the high bits down:
///
/// | bits | what | higher ranks first |
/// |---|---|---|
/// | 10 | `rankingHint` in tenths (0–1000) | higher hint |
/// | 6 | `priority` clamped to −31…31 | higher priority |
/// | 15 | the day of `lastUsedAt`, counted from 2001-01-01 (0 when absent or earlier) | more recent use |
/// | 4 | 15 − the title's word count (titles of 15 words and more tie) | shorter title |
/// | 28 | the entity's rowid | newer entity |
///
/// An entity keeps its rowid for life; its document id changes when one of the ranked fields changes (its index
/// entries are rewritten then anyway).
struct DocumentRank: Sendable, Equatable {
    /// The packed bits above the rowid.
    let bits: Int64

    static let rowidBits = 28
    static let maxRowid: Int64 = 1 << rowidBits - 1
    /// 2001-01-01T00:00:00Z in milliseconds since 1970 (Core Data's and Spotlight's reference date).
    static let referenceDate: Int64 = 978_307_200_000
    static let dayMilliseconds: Int64 = 86_400_000

    init(rankingHint: Double?, priority: Int64?, lastUsedAt: Int64?, titleWords: Int) {
        let hint = Int64(((rankingHint ?? 0) * 10).rounded()).clamped(0, 1000)
        let priority = (priority ?? 0).clamped(-31, 31) + 31
        var day: Int64 = 0
        if let lastUsedAt, lastUsedAt >= Self.referenceDate {
            day = ((lastUsedAt - Self.referenceDate) / Self.dayMilliseconds + 1).clamped(1, 1 << 15 - 1)
        }
        let shortness = Int64(15 - min(titleWords, 15))
        bits = ((hint << 6 | priority) << 15 | day) << 4 | shortness
    }

    /// The document id of the entity with this rowid.
    func docid(rowid: Int64) throws(EntityIndexError) -> Int64 {
        guard rowid > 0, rowid <= Self.maxRowid else {
            throw EntityIndexError(
                .storage,
                "the index has used \(Self.maxRowid) entity rowids, the most it can rank; "
                    + "copy its records into a new index (entityidx all, then ingest)")
        }
        return bits << Int64(Self.rowidBits) | rowid
    }

    /// The key of a synonym's or keyword's normalized words (64-bit FNV-1a of their UTF-8), or nil when it has none.
    ///
    /// `name_key` stores only this hash; a match is confirmed against the record before it counts.
    static func nameKey(_ plainWords: String) -> Int64? {
        guard !plainWords.isEmpty else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in plainWords.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}

extension Int64 {
    func clamped(_ low: Int64, _ high: Int64) -> Int64 { Swift.min(Swift.max(self, low), high) }
}
