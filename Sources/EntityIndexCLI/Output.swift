import EntityIndex
import JSON

/// Human-readable output: aligned columns, nothing noisy.
enum Output {
    /// Prints entities as `type/id  title  subtitle` rows, with extra columns between title and subtitle.
    /// With a `header`, its cells head the columns (numbered rows get an empty cell before them).
    ///
    /// Into a pipe or a file nothing is cut; on a terminal a long title is cut at 48 columns and the subtitle where
    /// the line would pass the terminal's width. With `fields` (`--fields`), the columns are the entity and each
    /// field asked for, under a header of their names.
    static func entities(
        _ items: [EntityResult], in context: CommandContext, numbered: Bool = false, from first: Int = 1,
        header: [String]? = nil, fields: FieldSelection? = nil, extra: (EntityResult) -> [String] = { _ in [] }
    ) {
        if items.isEmpty {
            if context.stderrIsTerminal { context.printError("no entities") }
            return
        }
        if let fields {
            let names = fields.names.filter { !["type", "id"].contains($0) }
            var rows = [(numbered ? [""] : []) + ["entity"] + names]
            for (i, item) in items.enumerated() {
                let e = item.parsed
                rows.append(
                    (numbered ? ["\(i + first)."] : []) + [e.key.description]
                        + names.map { name in
                            let value =
                                name.hasPrefix("properties.")
                                ? e.record["properties"]?[String(name.dropFirst("properties.".count))]
                                : name == "score"
                                    ? e.score.map { .number(JSONNumber($0)) }
                                    : name == "engagement"
                                        ? e.engagement.map { .number(JSONNumber($0)) } : e.record[name]
                            return value.map { cell(display($0), 40, in: context) } ?? ""
                        })
            }
            return table(rows, in: context)
        }
        var rows: [[String]] = header.map { [numbered ? [""] + $0 : $0] } ?? []
        for (i, item) in items.enumerated() {
            let e = item.parsed
            var row = numbered ? ["\(i + first)."] : []
            row.append(e.key.description)
            row.append(cell(e.record["title"]?.string ?? "", 48, in: context))
            row += extra(e)
            row.append(flat(e.record["subtitle"]?.string ?? ""))
            rows.append(row)
        }
        if let columns = context.columns, let last = rows.first.map({ $0.count - 1 }), last > 0 {
            var widths = [Int](repeating: 0, count: last)
            for row in rows { for i in 0..<last { widths[i] = max(widths[i], width(row[i])) } }
            let room = columns - widths.reduce(0, +) - 2 * last
            for i in rows.indices { rows[i][last] = clip(rows[i][last], max(room, 1)) }
        }
        table(rows, in: context)
    }

    static func table(_ rows: [[String]], in context: CommandContext) {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], width(cell)) } }
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += cell
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - width(cell) + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            context.print(line)
        }
    }

    /// Display width: East Asian wide characters take two cells.
    static func width(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { n, u in
            let v = u.value
            let wide =
                (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x20000...0x3FFFD).contains(v)
            if u.properties.generalCategory == .nonspacingMark { return n }
            return n + (wide ? 2 : 1)
        }
    }

    /// A cell's text on one line, cut to `n` columns on a terminal and whole elsewhere.
    static func cell(_ s: String, _ n: Int, in context: CommandContext) -> String {
        context.columns == nil ? flat(s) : clip(s, n)
    }

    /// The text on one line: line breaks become spaces.
    static func flat(_ s: String) -> String { s.split(whereSeparator: \.isNewline).joined(separator: " ") }

    /// The text on one line, cut to at most `n` display columns with an ellipsis.
    static func clip(_ s: String, _ n: Int) -> String {
        let text = flat(s)
        guard width(text) > n else { return text }
        var out = ""
        var used = 0
        for c in text {
            let w = width(String(c))
            if used + w > n - 1 { break }
            out.append(c)
            used += w
        }
        return out + "…"
    }

    static func display(_ v: JSONValue) -> String {
        if let s = v.string { return s }
        return JSONWriter.string(v)
    }

    static func number(_ n: Int) -> String {
        let s = String(n)
        var out = ""
        for (i, c) in s.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return String(out.reversed())
    }

    /// A count and its noun, agreeing: `1 record`, `2 records`, `1,000 entities`.
    static func count(_ n: Int, _ singular: String, _ plural: String) -> String {
        "\(number(n)) \(n == 1 ? singular : plural)"
    }

    /// The facets of a result after its entities: per facet, each value and its count, most held first, then how
    /// many other values and how many matches without a value.
    static func facets(_ counts: FacetCounts?, in context: CommandContext) {
        guard let counts else { return }
        context.print("")
        let counted = (counts.isLowerBound ? "the first " : "") + count(counts.counted, "match", "matches")
        context.print("facets of \(counted)\(counts.isLowerBound ? " (counts are lower bounds)" : ""):")
        for facet in counts.facets {
            var line = facet.values.map { "\(flat(display($0.value))) \(number($0.count))" }.joined(separator: ", ")
            if line.isEmpty { line = "(no values)" }
            var notes: [String] = []
            if facet.otherValues > 0 { notes.append(Self.count(facet.otherValues, "more value", "more values")) }
            if facet.missing > 0 { notes.append("\(number(facet.missing)) without") }
            if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
            context.print("  \(facet.name): \(line)")
        }
    }

    /// A number as the pipe writes it (`12.5`, `3`).
    static func decimal(_ v: Double) -> String { JSONNumber(v).text }
}
