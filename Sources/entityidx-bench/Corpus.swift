import JSON

/// A deterministic pseudo-random generator (SplitMix64), so every run builds the same corpus.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Realistic multilingual entity records and a fixed mix of queries over them.
///
/// Titles, subtitles, keywords and descriptions mix Latin with accents, Cyrillic, CJK and Hangul; orders carry ids
/// like `#1042-A`; records link to each other; properties hold strings, numbers, dates and arrays.
struct Corpus {
    static let latin = """
        alpha amber anchor apple arctic atlas autumn bakery balcony bamboo banner basket beacon birch blossom border
        bridge bright bronze cabin cactus canvas carbon castle cedar chalk charm cherry cinder circle citrus clover
        cobalt comet copper coral cotton crystal dawn delta desert diamond ember falcon feather fern forest fossil
        garden garnet ginger glacier granite harbor hazel horizon indigo island ivory jasmine jungle lantern lavender
        lemon linen lotus maple marble meadow meteor mint mirror mosaic nectar nova oasis ocean olive onyx orchid
        panda pebble pepper pine planet plaza prairie quartz radar raven river saffron sapphire shadow silver spruce
        summit sunset thunder timber topaz tulip valley velvet violet willow winter zephyr café crème brûlée château
        façade naïve résumé déjà élan garçon über straße müller größe fräulein köln zürich señor niño año mañana
        łódź kraków ærøskøbing øresund söder
        """.split(whereSeparator: \.isWhitespace).map(String.init)
    static let cyrillic = "москва книга город река дорога солнце ветер зима весна лето осень море".split(separator: " ")
        .map(String.init)
    static let cjk = "东京 北京 上海 大阪 京都 株式会社 電工 安装 简单 配置 东京塔 서울 특별시 부산 카페 コーヒー 抹茶 ラーメン 寿司".split(separator: " ").map(
        String.init)
    static let statuses = ["open", "paid", "shipped", "delivered", "cancelled"]
    static let types = ["order", "product", "contact", "note"]

    let count: Int

    /// Record `i`: the same for a given index, whatever the corpus size.
    func record(_ i: Int) -> JSONValue {
        var rng = SeededRandom(seed: UInt64(i) &* 2_654_435_761 &+ 17)
        func word() -> String {
            let r = Int.random(in: 0..<100, using: &rng)
            if r < 78 { return Corpus.latin.randomElement(using: &rng)! }
            if r < 88 { return Corpus.cjk.randomElement(using: &rng)! }
            return Corpus.cyrillic.randomElement(using: &rng)!
        }
        func words(_ n: ClosedRange<Int>) -> String {
            (0..<Int.random(in: n, using: &rng)).map { _ in word() }.joined(separator: " ")
        }
        let type = Corpus.types[i % 4]
        let id: String
        var title: String
        switch type {
        case "order":
            id = String(1000 + i)
            title = "Order #\(1000 + i)\(i % 3 == 0 ? "-A" : "") " + words(1...2)
        case "product":
            id = "SKU-\(i)-\(["A", "B", "C"][i % 3])"
            title = words(2...4).capitalizedFirst
        default:
            id = "\(type.prefix(1))\(i)"
            title = words(2...3).capitalizedFirst
        }
        var o = JSONObject([("type", .string(type)), ("id", .string(id)), ("title", .string(title))])
        o["subtitle"] = .string(words(2...3))
        o["keywords"] = .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in .string(word()) })
        if i % 2 == 0 { o["description"] = .string(words(6...12)) }
        let month = Int.random(in: 1...12, using: &rng), day = Int.random(in: 1...28, using: &rng)
        o["properties"] = .object(
            JSONObject([
                ("status", .string(Corpus.statuses.randomElement(using: &rng)!)),
                ("total", .number(JSONNumber(Double(Int.random(in: 100...50_000, using: &rng)) / 100))),
                ("placedAt", .string("2026-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T10:00:00Z")),
                (
                    "tags",
                    .array(
                        (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                            .string(Corpus.latin.randomElement(using: &rng)!)
                        })
                ),
            ]))
        if i > 0 {
            let j = Int.random(in: 0..<i, using: &rng)
            o["related"] = .array([["type": .string(Corpus.types[j % 4]), "id": .string(Corpus(count: count).id(j))]])
        }
        o["rankingHint"] = JSONValue(Int.random(in: 0...100, using: &rng))
        return .object(o)
    }

    func id(_ i: Int) -> String {
        switch Corpus.types[i % 4] {
        case "order": return String(1000 + i)
        case "product": return "SKU-\(i)-\(["A", "B", "C"][i % 3])"
        case let t: return "\(t.prefix(1))\(i)"
        }
    }

    /// A query class and its queries.
    struct QueryClass {
        var name: String
        var queries: [String]
    }

    /// The fixed query mix: one word, two words, one- to three-letter prefixes, ids, CJK, misspellings.
    func queries(perClass n: Int) -> [QueryClass] {
        var rng = SeededRandom(seed: 42)
        let long = Corpus.latin.filter { $0.count >= 6 && $0.allSatisfy(\.isASCII) }
        func typo(_ w: String) -> String {
            var chars = Array(w)
            let k = Int.random(in: 1..<(chars.count - 1), using: &rng)
            chars.swapAt(k, k + 1)
            return String(chars)
        }
        return [
            QueryClass(name: "one word", queries: (0..<n).map { _ in Corpus.latin.randomElement(using: &rng)! }),
            QueryClass(
                name: "two words",
                queries: (0..<n).map { _ in
                    Corpus.latin.randomElement(using: &rng)! + " " + Corpus.latin.randomElement(using: &rng)!
                }),
            QueryClass(
                name: "prefix 1",
                queries: (0..<n).map { _ in String(Corpus.latin.randomElement(using: &rng)!.prefix(1)) }),
            QueryClass(
                name: "prefix 2",
                queries: (0..<n).map { _ in String(Corpus.latin.randomElement(using: &rng)!.prefix(2)) }),
            QueryClass(
                name: "prefix 3",
                queries: (0..<n).map { _ in String(Corpus.latin.randomElement(using: &rng)!.prefix(3)) }),
            QueryClass(
                name: "id",
                queries: (0..<n).map { _ in
                    let i = Int.random(in: 0..<count, using: &rng)
                    return i % 4 == 0 ? "#\(1000 + i)" : id(i)
                }),
            QueryClass(name: "CJK", queries: (0..<n).map { _ in Corpus.cjk.randomElement(using: &rng)! }),
            QueryClass(name: "misspelt", queries: (0..<n).map { _ in typo(long.randomElement(using: &rng)!) }),
        ]
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
