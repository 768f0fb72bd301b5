import Testing

@testable import EntityIndex

/// "Did you mean": the same suggestions as a full edit-distance table, for work bounded by the known names.
@Suite struct SuggestionTests {
    static let fields = FieldSelection.recordFields + FieldSelection.addedFields

    @Test(
        arguments: [
            ("titel", "title"), ("subtitel", "subtitle"), ("TITLE", "title"), ("hiden", "hidden"),
            ("descr", "description"), ("ranknigHint", "rankingHint"), ("x", nil), ("propertiesX", "properties"),
            ("titlexyz", nil), ("", nil),
        ] as [(String, String?)])
    func suggests(_ name: String, _ expected: String?) {
        #expect(Suggestion.closest(to: name, in: Self.fields) == expected)
    }

    /// Optimal string alignment distance, the whole table: what the banded one must agree with.
    static func fullDistance(_ a: [Character], _ b: [Character]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    @Test func theBandedDistanceAgreesWithTheWholeTable() {
        let words = [
            "", "a", "ab", "ba", "abc", "acb", "bca", "title", "titel", "tilte", "subtitle", "subtitel", "hidden",
            "hiden", "hdiden", "domain", "doamin", "url", "uri", "image", "imgae", "keywords", "keyword", "keywrods",
            "abcdef", "badcfe", "aaaa", "aaaaaa", "abab", "baba",
        ]
        for a in words {
            for b in words {
                let full = Self.fullDistance(Array(a), Array(b))
                for bound in 0...3 {
                    var cells = 0
                    let banded = Suggestion.distance(Array(a), Array(b), bound: bound, cells: &cells)
                    #expect(banded == (full <= bound ? full : nil), "\(a) \(b) \(bound)")
                    #expect(cells <= (2 * bound + 1) * a.count, "\(a) \(b) \(bound): \(cells) cells")
                }
            }
        }
    }

    @Test func aNameFarLongerThanEveryCandidateFillsNoCell() {
        var cells = 0
        let name = String(repeating: "t", count: 1 << 20)
        #expect(Suggestion.closest(to: name, in: Self.fields, cells: &cells) == nil)
        #expect(cells == 0)
        // Just longer than the longest candidate by more than two edits: no table either.
        let longest = Self.fields.map(\.count).max()!
        #expect(
            Suggestion.closest(to: String(repeating: "t", count: longest + 3), in: Self.fields, cells: &cells) == nil)
        #expect(cells == 0)
    }

    @Test func theCellsFilledAreBoundedByTheCandidates() {
        for name in ["titel", "descriptoin", "rankingHnit", "zzzzzzzzzzzz", "lastUsedAtt"] {
            var cells = 0
            _ = Suggestion.closest(to: name, in: Self.fields, cells: &cells)
            let band = 2 * Suggestion.maxEdits + 1
            #expect(cells <= Self.fields.count * band * name.count, "\(name): \(cells) cells")
        }
    }
}
