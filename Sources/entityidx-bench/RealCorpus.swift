import JSON

/// Debian's package list (made by scripts/debian-corpus.py) and a query mix drawn from it.
///
/// The queries are what a person would type at a package search: one or two words of a description, the first one
/// to five letters of a name or a word, a whole package name, a word with two letters swapped. The words are drawn
/// from the long descriptions, or from the short ones (the subtitles) in the variant without long descriptions.
struct RealCorpus {
    let records: [JSONValue]

    /// Lower-cased ASCII words of three letters or more in a record's description.
    static func words(_ text: String) -> [String] {
        var out: [String] = [], current = ""
        for c in text.unicodeScalars {
            if c.isASCII, c.properties.isAlphabetic {
                current.unicodeScalars.append(c)
            } else {
                if current.count >= 3 { out.append(current.lowercased()) }
                current = ""
            }
        }
        if current.count >= 3 { out.append(current.lowercased()) }
        return out
    }

    /// Section values with at least `minimum` packages, most common first: the `eq` filters of the property class.
    func sections(minimum: Int) -> [String] {
        var counts: [String: Int] = [:]
        for r in records { if let s = r["properties"]?["section"]?.string { counts[s, default: 0] += 1 } }
        return counts.filter { $0.value >= minimum }.sorted {
            $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key)
        }.map(\.key)
    }

    func queries(perClass n: Int) -> [Corpus.QueryClass] {
        var rng = SeededRandom(seed: 64_000)
        let names = records.compactMap { $0["id"]?.string }
        func described(_ field: String) -> [[String]] {
            records.compactMap { $0[field]?.string }.map(RealCorpus.words).filter { $0.count >= 2 }
        }
        let long = described("description")
        let described = long.isEmpty ? described("subtitle") : long
        func descriptionWords() -> [String] { described.randomElement(using: &rng)! }
        func word(minLength: Int) -> String {
            while true {
                if let w = descriptionWords().filter({ $0.count >= minLength }).randomElement(using: &rng) { return w }
            }
        }
        func prefix(_ k: Int, _ i: Int) -> String {
            // Half the prefixes start a package name, half a description word.
            if i % 2 == 0 {
                while true {
                    let name = names.randomElement(using: &rng)!
                    if name.count > k { return String(name.prefix(k)) }
                }
            }
            return String(word(minLength: k + 1).prefix(k))
        }
        func typo(_ w: String) -> String {
            var chars = Array(w)
            for _ in 0..<8 {
                let k = Int.random(in: 1..<(chars.count - 2), using: &rng)
                if chars[k] != chars[k + 1] { chars.swapAt(k, k + 1); return String(chars) }
            }
            chars[chars.count / 2] = chars[chars.count / 2] == "x" ? "q" : "x"
            return String(chars)
        }
        var classes = [
            Corpus.QueryClass(
                name: "one word", queries: (0..<n).map { _ in descriptionWords().randomElement(using: &rng)! }),
            Corpus.QueryClass(
                name: "two words",
                queries: (0..<n).map { _ in
                    let ws = descriptionWords()
                    let k = Int.random(in: 0..<(ws.count - 1), using: &rng)
                    return ws[k] + " " + ws[k + 1]
                }),
        ]
        for k in 1...5 {
            classes.append(Corpus.QueryClass(name: "prefix \(k)", queries: (0..<n).map { prefix(k, $0) }))
        }
        classes.append(Corpus.QueryClass(name: "name", queries: (0..<n).map { _ in names.randomElement(using: &rng)! }))
        classes.append(Corpus.QueryClass(name: "misspelt", queries: (0..<n).map { _ in typo(word(minLength: 6)) }))
        return classes
    }
}
