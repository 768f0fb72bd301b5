/// The checks of `lint` over the index as it would be after the push, each one pass with hash maps (no check
/// compares entities pairwise, so 100k records take about as long as reading them).
///
/// `subjects` holds the records of the input first (in input order), then the indexed entities the input leaves
/// as they are (by type and id).
struct LintChecks {
    let subjects: [LintSubject]
    let inputCount: Int
    let wholeIndex: Bool
    /// Every indexed entity, the ones the input replaces included.
    let indexedKeys: Set<EntityKey>
    let now: Int64
    let withinDays: Int
    /// The declared properties of each type: a declared property refuses other kinds, so `mixed-kinds` skips it.
    var declarations: [String: [String: PropertyDeclaration]] = [:]
    private(set) var findings: [LintFinding] = []
    /// Input records reported as `id-changed`: not reported again as duplicates of an indexed entity with their
    /// type, domain and title.
    private var changedIds = Set<EntityKey>()
    /// How many other entities a finding names at most.
    static let maxOthers = 20
    /// How many `broken-link` findings one record gets at most.
    static let maxBrokenLinksPerRecord = 5
    /// Where each entity of the index after the push is in `subjects`.
    let positions: [EntityKey: Int]

    /// Core Spotlight's size limit for one item: "There is a 16k limit on the size of an individual CSSI"
    /// (Apple Frameworks Engineer, https://developer.apple.com/forums/thread/832276). Counted as 16,384 bytes of
    /// UTF-8 searchable text.
    static let maxSearchableBytes = 16 * 1024

    init(
        subjects: [LintSubject], inputCount: Int, wholeIndex: Bool, indexedKeys: Set<EntityKey>, now: Int64,
        withinDays: Int
    ) {
        self.subjects = subjects
        self.inputCount = inputCount
        self.wholeIndex = wholeIndex
        self.indexedKeys = indexedKeys
        self.now = now
        self.withinDays = withinDays
        var positions: [EntityKey: Int] = [:]
        positions.reserveCapacity(subjects.count)
        for (i, s) in subjects.enumerated() { positions[s.key] = i }
        self.positions = positions
    }

    /// With records, a finding is reported only when it involves one of them.
    func reportable(_ involved: LintSubject...) -> Bool { wholeIndex || involved.contains(where: \.fromInput) }

    mutating func add(
        _ code: LintCode, _ subject: LintSubject, _ message: String, others: [EntityKey] = [], field: String? = nil
    ) {
        findings.append(LintFinding(code, subject.location, message, others: others, field: field))
    }

    mutating func run() throws(EntityIndexError) {
        if !wholeIndex {
            idChanged()
            typeRenamed()
        }
        willExpire()
        duplicateContent()
        tooLarge()
        weakDisplay()
        unreachable()
        try brokenLink()
        domainOverlap()
        mixedKinds()
    }

    /// How a subject is named in a message about another: `order/1042 (record 3)` or `indexed order/1042`.
    static func name(_ s: LintSubject) -> String {
        s.fromInput ? "\(s.key) (record \(s.location.position!))" : "indexed \(s.key)"
    }

    /// The first keys, and how many more of `total` there are.
    static func list(_ keys: [EntityKey], total: Int? = nil, max: Int = 3) -> String {
        let total = total ?? keys.count
        let shown = keys.prefix(max).map(\.description).joined(separator: ", ")
        return total > max ? "\(shown) and \(total - max) more" : shown
    }

    /// Whether `s` was reported as an id change of `indexed` (the same type, domain and title).
    func isIdChange(_ s: LintSubject, of indexed: LintSubject) -> Bool {
        changedIds.contains(s.key) && !indexed.fromInput && indexed.key.type == s.key.type
            && indexed.domain == s.domain && indexed.normalizedTitle == s.normalizedTitle
    }

    static func day(_ ms: Int64) -> String { String(Timestamp.format(ms).prefix(10)) }

    static func number(_ n: Int) -> String {
        var out = ""
        for (i, c) in String(n).reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    // MARK: - Identity

    /// `id-changed`: a new id whose type, domain and normalized title are those of an indexed entity the push leaves
    /// out. Saved shortcuts, widgets and Siri keep the id; a new one breaks them.
    private mutating func idChanged() {
        struct TitleKey: Hashable { var type: String, domain: String?, title: ByteString }
        var byTitle: [TitleKey: [Int]] = [:]
        for i in inputCount..<subjects.count {
            let s = subjects[i]
            byTitle[TitleKey(type: s.key.type, domain: s.domain, title: ByteString(s.normalizedTitle)), default: []]
                .append(i)
        }
        guard !byTitle.isEmpty else { return }
        for s in subjects[..<inputCount] where !indexedKeys.contains(s.key) {
            guard
                let matches = byTitle[
                    TitleKey(type: s.key.type, domain: s.domain, title: ByteString(s.normalizedTitle))]
            else { continue }
            let old = matches.prefix(Self.maxOthers).map { subjects[$0].key }
            changedIds.insert(s.key)
            var message =
                "is a new id with the type, domain and title of indexed \(old[0]) (\"\(subjects[matches[0]].title)\")"
            if matches.count > 1 {
                message += " (\(matches.count) indexed entities match: \(Self.list(old, total: matches.count)))"
            }
            message +=
                ", which this push leaves out: if it is the same entity, keep its id \"\(old[0].id)\" (saved"
                + " shortcuts, widgets and Siri store the id and break when it changes); if it is another entity, give it"
                + " a title of its own"
            add(.idChanged, s, message, others: old)
        }
    }

    /// `type-renamed`: a type new to the index whose ids are, for at least half of them, the ids of an indexed type
    /// that the push leaves out.
    private mutating func typeRenamed() {
        let inputTypes = Set(subjects[..<inputCount].map(\.key.type))
        let indexedTypes = Set(indexedKeys.map(\.type))
        let oldTypes = indexedTypes.subtracting(inputTypes)
        guard !oldTypes.isEmpty, !inputTypes.isSubset(of: indexedTypes) else { return }
        var oldTypesById: [String: [String]] = [:]
        for s in subjects[inputCount...] where oldTypes.contains(s.key.type) {
            oldTypesById[s.key.id, default: []].append(s.key.type)
        }
        var byNewType: [String: [Int]] = [:]
        var order: [String] = []
        for i in 0..<inputCount where !indexedTypes.contains(subjects[i].key.type) {
            let type = subjects[i].key.type
            if byNewType[type] == nil { order.append(type) }
            byNewType[type, default: []].append(i)
        }
        for type in order {
            let members = byNewType[type]!
            var shared: [String: [Int]] = [:]
            for i in members {
                for old in oldTypesById[subjects[i].key.id] ?? [] { shared[old, default: []].append(i) }
            }
            guard let (old, hits) = shared.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
                hits.count * 2 >= members.count
            else { continue }
            let examples = hits.prefix(3).map { "\"\(subjects[$0].key.id)\"" }.joined(separator: ", ")
            add(
                .typeRenamed, subjects[hits[0]],
                """
                type "\(type)" is new, and \(Self.number(hits.count)) of its \(Self.number(members.count)) ids \
                (\(examples)\(hits.count > 3 ? ", …" : "")) are ids of indexed type "\(old)", which this push leaves out: \
                if \(old) was renamed, keep the type identifier "\(old)" (Siri and Shortcuts find an entity by type and \
                id; saved shortcuts fail with "action not found" after a rename); if \(old) is still in use, push it too
                """, others: hits.prefix(3).map { EntityKey(type: old, id: subjects[$0].key.id) })
        }
    }

    // MARK: - Freshness and content

    /// `will-expire`: no `expiresAt`, so Core Spotlight's month since the last push applies, and it ends within the
    /// window.
    private mutating func willExpire() {
        let limit = now + Int64(withinDays) * Timestamp.day
        for s in subjects where !s.explicitExpiry && s.expiresAt > now && s.expiresAt <= limit {
            let when = Self.day(s.expiresAt)
            if s.fromInput {
                add(
                    .willExpire, s,
                    """
                    will expire on \(when), a month after this push, because it sets no expiresAt: push it again before \
                    then (Core Spotlight renews an item each time it is indexed), or set expiresAt
                    """)
            } else {
                add(
                    .willExpire, s,
                    """
                    expires on \(when), a month after its last push on \(Self.day(s.pushedAt)), because nothing set \
                    expiresAt and nothing pushed it again\(wholeIndex ? "" : " (this push leaves it out)"): re-push it, \
                    for example at every launch, or set expiresAt
                    """)
            }
        }
    }

    /// `duplicate-content`: the same normalized title, subtitle and description under another type or id. Each is
    /// compared with the first indexed entity of its group (else the first record).
    private mutating func duplicateContent() {
        var groups: [ByteString: [Int]] = [:]
        for (i, s) in subjects.enumerated() { groups[s.contentKey, default: []].append(i) }
        for members in groups.values where members.count > 1 {
            let anchorIndex = members.first(where: { $0 >= inputCount }) ?? members[0]
            let anchor = subjects[anchorIndex]
            let what =
                anchor.contentKey.text.hasSuffix("\u{1F}") ? "title and subtitle" : "title, subtitle and description"
            for i in members where i != anchorIndex {
                let s = subjects[i]
                guard reportable(anchor, s), !isIdChange(s, of: anchor) else { continue }
                add(
                    .duplicateContent, s,
                    """
                    has the same \(what) as \(Self.name(anchor)): Spotlight would show two results nobody can tell \
                    apart, and Siri would ask which one; if they are the same content (an IndexedEntity and a \
                    CSSearchableItem, say), index it once and link the item to the entity (associateAppEntity); if \
                    not, make the subtitle tell them apart
                    """, others: [anchor.key])
            }
        }
    }

    /// `too-large`: more searchable text than Core Spotlight takes for one item.
    private mutating func tooLarge() {
        for s in subjects where s.searchableBytes > Self.maxSearchableBytes && reportable(s) {
            add(
                .tooLarge, s,
                """
                has \(Self.number(s.searchableBytes)) bytes of searchable text (\(s.largestField.name) alone \
                \(Self.number(s.largestField.bytes))), over Core Spotlight's limit of 16 KB for one item \
                (\(Self.number(Self.maxSearchableBytes)) bytes): shorten \(s.largestField.name), or keep long text out \
                of the indexed fields (people search for names and key words, not whole documents)
                """)
        }
    }
}
