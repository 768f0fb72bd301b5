import EntityIndex

/// One mistake in many records, printed once: `150 records: field "title" must be a string`, the first three
/// records below it and how many more. The `--json` outputs list every problem and finding as they are.
extension Output {
    /// How many records of a repeated problem or finding are named.
    static let shownPerGroup = ProblemGroups.keptPerGroup

    /// The lines of record problems: a problem (field and text) of more than `shownPerGroup` records as one group
    /// at the place of its first record, the others one line each (`PREFIX record 3 (line 3) (order/7): …`), in
    /// input order.
    static func problemLines(_ groups: ProblemGroups, indent: String = "", prefix: String = "") -> [String] {
        var entries: [(ordinal: Int, lines: [String])] = []
        for g in groups.groups {
            if g.count <= shownPerGroup {
                for (p, ordinal) in zip(g.first, g.ordinals) {
                    entries.append((ordinal, [indent + prefix + p.description]))
                }
            } else {
                let lines = group(
                    count: g.count, g.first[0].what, locations: g.first.map(\.location), indent: indent, prefix: prefix)
                entries.append((g.ordinals[0], lines))
            }
        }
        var lines = entries.sorted { $0.ordinal < $1.ordinal }.flatMap(\.lines)
        if groups.ungrouped > 0 {
            lines.append(indent + "… and \(count(groups.ungrouped, "more problem", "more problems")) of other kinds")
        }
        return lines
    }

    /// `PREFIX 150 records: WHAT`, then the first locations, two spaces further in, and `… and 147 more`.
    static func group(count n: Int, _ what: String, locations: [String], indent: String, prefix: String = "")
        -> [String]
    {
        var lines = [indent + prefix + "\(number(n)) records: \(what)"]
        lines += locations.prefix(shownPerGroup).map { indent + "  " + $0 }
        if n > shownPerGroup { lines.append(indent + "  … and \(number(n - shownPerGroup)) more") }
        return lines
    }

    /// The items in order, except that the items of a key more than `shownPerGroup` of them share are gathered
    /// at the place of the first one.
    static func gathered<Item, Key: Hashable>(_ items: [Item], by key: (Item) -> Key) -> [[Item]] {
        var counts: [Key: Int] = [:]
        for item in items { counts[key(item), default: 0] += 1 }
        var places: [Key: Int] = [:]
        var result: [[Item]] = []
        for item in items {
            let k = key(item)
            if counts[k]! <= shownPerGroup {
                result.append([item])
            } else if let i = places[k] {
                result[i].append(item)
            } else {
                places[k] = result.count
                result.append([item])
            }
        }
        return result
    }
}
