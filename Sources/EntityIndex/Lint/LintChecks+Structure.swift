import System

extension LintChecks {
    // MARK: - Display

    /// `weak-display`: no subtitle (or no image) while most entities of the type have one, or a title that is only
    /// digits or only an id. Spotlight and Siri tell entities apart by their title, subtitle and image.
    mutating func weakDisplay() {
        var types: [String: (count: Int, subtitles: Int, images: Int)] = [:]
        for s in subjects {
            var t = types[s.key.type] ?? (0, 0, 0)
            t.count += 1
            if s.hasSubtitle { t.subtitles += 1 }
            if s.hasImage { t.images += 1 }
            types[s.key.type] = t
        }
        for s in subjects where reportable(s) {
            let t = types[s.key.type]!
            var problems: [String] = [], fixes: [String] = []
            if !s.hasSubtitle, t.subtitles * 2 > t.count {
                problems.append(
                    "no subtitle, while \(Self.number(t.subtitles)) of the \(Self.number(t.count)) \(s.key.type) entities have one"
                )
                fixes.append("add a subtitle")
            }
            if !s.hasImage, t.images * 2 > t.count {
                problems.append(
                    "no image, while \(Self.number(t.images)) of the \(Self.number(t.count)) \(s.key.type) entities have one"
                )
                fixes.append("add an image")
            }
            if let titleProblem = s.titleProblem {
                problems.append("a title that \(titleProblem) (\"\(s.title.prefix(64))\")")
                fixes.append(
                    "give it a title a person would say or type (a name, \"Order #1042\" rather than \"1042\")")
            }
            guard !problems.isEmpty else { continue }
            add(
                .weakDisplay, s,
                """
                has \(problems.joined(separator: "; and ")): Spotlight and Siri show the title, subtitle and image to \
                tell entities apart; \(fixes.joined(separator: "; "))
                """)
        }
    }

    // MARK: - Links and domains

    /// `unreachable`: a hidden entity that visible ones list in `related`: found through those links, never by
    /// search or suggestions.
    mutating func unreachable() {
        var referrers: [Int: [Int]] = [:]
        for (i, s) in subjects.enumerated() where !s.hidden {
            for key in s.related {
                guard let j = positions[key], subjects[j].hidden else { continue }
                if referrers[j]?.last != i { referrers[j, default: []].append(i) }
            }
        }
        for (j, refs) in referrers.sorted(by: { $0.key < $1.key }) {
            let hidden = subjects[j]
            guard reportable(hidden) || refs.contains(where: { subjects[$0].fromInput }) else { continue }
            let keys = refs.prefix(Self.maxOthers).map { subjects[$0].key }
            add(
                .unreachable, hidden,
                """
                is hidden (hideInSpotlight), yet \(Self.list(keys, total: refs.count)) \(refs.count == 1 ? "lists" : "list") it in related: \
                people reach it only through those links, never by search or suggestions; if it should be found, drop \
                hidden; if not, remove it from their related
                """, others: keys)
        }
    }

    /// `broken-link`: a `related` entry naming an entity that neither the index after the push nor the push holds
    /// (deleted, expired, never pushed, or a typo). Core Spotlight keeps such a `relatedAppEntityIdentifier`
    /// without a word, and Siri and Spotlight show nothing for it.
    ///
    /// One hash lookup per entry in the entities already read; at most `maxBrokenLinksPerRecord` findings per
    /// record (the last one says how many more), so a record that lists thousands of missing ids stays one screen.
    mutating func brokenLink() throws(EntityIndexError) {
        for s in subjects where reportable(s) {
            var broken: [(index: Int, key: EntityKey)] = []
            var missing = 0
            for (k, key) in s.related.enumerated() where positions[key] == nil {
                missing += 1
                if broken.count < Self.maxBrokenLinksPerRecord { broken.append((k, key)) }
            }
            for (n, entry) in broken.enumerated() {
                let whereNot =
                    wholeIndex ? "which is not in the index" : "which is neither in the index nor in this push"
                var message = """
                    names \(entry.key) in related[\(entry.index)], \(whereNot) (deleted, expired or never pushed): \
                    Siri and Spotlight show nothing for a link to a missing entity; push \(entry.key), or drop it from \
                    related
                    """
                if n == broken.count - 1, missing > broken.count {
                    message += " (\(Self.number(missing - broken.count)) more related entries of it are missing too)"
                }
                add(.brokenLink, s, message, others: [entry.key], field: "related[\(entry.index)]")
            }
            // The findings of the whole index are held until they are sorted: they must fit in the memory left.
            if !broken.isEmpty, findings.count & 1023 < broken.count {
                try MemoryRoom.require(0, for: "the \(findings.count) findings of lint so far")
            }
        }
    }

    /// `domain-overlap`: one type's domain is a dotted prefix of (or equal to) another type's: deleting the one
    /// domain deletes both types' entities, as `deleteSearchableItems(withDomainIdentifiers:)` does. One finding per
    /// outer domain and pair of types.
    mutating func domainOverlap() {
        struct DomainType: Hashable { var domain: String, type: String }
        struct Overlap: Hashable { var outer: DomainType, innerType: String }
        var first: [DomainType: Int] = [:]
        var typesByDomain: [String: [String]] = [:]
        var domains: [String] = []
        for (i, s) in subjects.enumerated() {
            guard let domain = s.domain, first[DomainType(domain: domain, type: s.key.type)] == nil else { continue }
            first[DomainType(domain: domain, type: s.key.type)] = i
            if typesByDomain[domain] == nil { domains.append(domain) }
            typesByDomain[domain, default: []].append(s.key.type)
        }
        guard Set(first.keys.map(\.type)).count > 1 else { return }
        var inner: [Overlap: [Int]] = [:]
        var order: [Overlap] = []
        for domain in domains {
            let parts = domain.split(separator: ".")
            for k in 1...parts.count {
                let prefix = parts[..<k].joined(separator: ".")
                guard let outerTypes = typesByDomain[prefix] else { continue }
                for outerType in outerTypes {
                    for innerType in typesByDomain[domain]! where innerType != outerType {
                        if prefix == domain && outerType > innerType { continue }  // an equal pair once
                        let overlap = Overlap(outer: DomainType(domain: prefix, type: outerType), innerType: innerType)
                        if inner[overlap] == nil { order.append(overlap) }
                        inner[overlap, default: []].append(first[DomainType(domain: domain, type: innerType)]!)
                    }
                }
            }
        }
        for overlap in order {
            let outer = subjects[first[overlap.outer]!]
            let members = inner[overlap]!.map { subjects[$0] }
            let at = outer.fromInput ? outer : members.first(where: \.fromInput) ?? outer
            guard reportable(outer) || members.contains(where: \.fromInput) else { continue }
            let (prefix, outerType, innerType) = (overlap.outer.domain, overlap.outer.type, overlap.innerType)
            let shown =
                members.map(\.domain!).sorted().prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
                + (members.count > 3 ? " and \(members.count - 3) more" : "")
            let delete = "(deleteSearchableItems(withDomainIdentifiers:), entityidx delete --domain)"
            let message =
                members.count == 1 && members[0].domain == prefix
                ? """
                shares domain "\(prefix)" between \(outerType) and \(innerType) entities (\(outer.key) and \
                \(members[0].key)): deleting the domain \(delete) deletes both types; give each type a domain of its \
                own, such as "\(prefix).\(outerType)" and "\(prefix).\(innerType)"
                """
                : """
                domain "\(prefix)" of \(outerType) entities (\(outer.key)) contains the domains of \(innerType) entities \
                (\(shown)): deleting domain "\(prefix)" \(delete) also deletes those \(innerType) entities; move the \
                \(outerType) entities to a domain that is no prefix of another type's, such as "\(prefix).\(outerType)"
                """
            add(.domainOverlap, at, message, others: [at.key == outer.key ? members[0].key : outer.key])
        }
    }
}
