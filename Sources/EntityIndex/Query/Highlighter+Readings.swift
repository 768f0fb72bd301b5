/// Marks for the Japanese words a search found by their readings (`Readings`): the morphemes whose reading in kana
/// or whose Latin letters a term matched, when the run as written did not match that term.
extension Highlighter {
    /// The byte spans of `utf8` (the piece a CJK run is in) that the terms matched through the run's readings.
    func readingRanges(_ chars: [Token], _ utf8: [UInt8], written: [String], tracker: inout MatchTracker)
        -> [(Int, Int)]
    {
        let offset = chars[0].start
        let run = String(decoding: utf8[offset..<chars[chars.count - 1].end], as: UTF8.self)
        let wanted = query.terms.indices.filter { t in
            let term = query.terms[t]
            guard term.latin != nil || term.isCJK else { return false }
            return TermList.with(written, { term.match($0) }) == nil
        }
        guard !wanted.isEmpty, Readings.isRead(run), let morphemes = Readings.morphemes(run) else { return [] }
        var marked: [Range<Int>] = []
        let runs = Readings.readingRuns(morphemes)
        for t in wanted {
            let term = query.terms[t]
            var found: [Range<Int>] = []
            if case .cjk(let q) = term.kind {
                for reading in runs { found += Self.kanaMatches(q, prefix: term.prefix, in: reading) }
            } else {
                for m in morphemes where TermList.with(Readings.latinTerms(m), { term.match($0) }) == 0 {
                    found.append(m.range)
                }
            }
            if !found.isEmpty { tracker.matched(t, .reading) }
            marked += found
        }
        return marked.map { ($0.lowerBound + offset, $0.upperBound + offset) }
    }

    /// The morphemes (their byte ranges in the run) under each place where the CJK term `q` matches a reading.
    static func kanaMatches(_ q: [String], prefix: Bool, in reading: Readings.ReadingRun) -> [Range<Int>] {
        let chars = TextAnalyzer.tokens(reading.reading, document: true)
        var found: [Range<Int>] = []
        for i in cjkMatches(q, prefix: prefix, in: chars.map(\.text)) {
            let span = chars[i].start..<chars[i + q.count - 1].end
            for (k, (m, start)) in reading.morphemes.enumerated() {
                let end = k + 1 < reading.morphemes.count ? reading.morphemes[k + 1].1 : reading.reading.utf8.count
                if start < span.upperBound && span.lowerBound < end { found.append(m.range) }
            }
        }
        return found
    }
}
