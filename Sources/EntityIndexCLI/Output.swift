import EntityIndex
import JSON

/// Human-readable output: aligned columns, nothing noisy.
enum Output {
    /// Prints entities as `type/id  title  subtitle` rows, with extra columns between title and subtitle.
    /// With a `header`, its cells head the columns (numbered rows get an empty cell before them).
    static func entities(
        _ items: [EntityResult], in context: CommandContext, numbered: Bool = false, header: [String]? = nil,
        extra: (EntityResult) -> [String] = { _ in [] }
    ) {
        if items.isEmpty {
            if context.stderrIsTerminal { context.printError("no entities") }
            return
        }
        var rows: [[String]] = header.map { [numbered ? [""] + $0 : $0] } ?? []
        for (i, e) in items.enumerated() {
            var row = numbered ? ["\(i + 1)."] : []
            row.append(e.key.description)
            row.append(clip(e.record["title"]?.string ?? "", 48))
            row += extra(e)
            row.append(clip(e.record["subtitle"]?.string ?? "", 40))
            rows.append(row)
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

    static func clip(_ s: String, _ n: Int) -> String {
        let flat = s.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > n ? String(flat.prefix(n - 1)) + "…" : flat
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

    /// A number as the pipe writes it (`12.5`, `3`).
    static func decimal(_ v: Double) -> String { JSONNumber(v).text }
}
