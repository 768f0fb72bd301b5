import Foundation
import TestSupport
import Testing

@testable import EntityIndex

/// The English (Porter2) stemmer gives Snowball's stem for every word of Snowball's published sample vocabulary
/// (Tests/Fixtures/porter2-english.tsv.gz, made by scripts/porter2-fixture.py), and leaves other words alone.
@Suite struct EnglishStemmerTests {
    /// The fixture's words and their stems, in its order (empty when it cannot be read).
    static let pairs: [(word: String, stem: String)] = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", TestSupport.repository + "/Tests/Fixtures/porter2-english.tsv.gz"]
        let out = Pipe()
        process.standardOutput = out
        guard (try? process.run()) != nil else { return [] }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return (String(fields[0]), fields.count > 1 ? String(fields[1]) : "")
        }
    }()

    @Test func givesSnowballsStemForEveryWordOfTheVocabulary() {
        #expect(Self.pairs.count > 40_000, "the fixture is read whole")
        var mismatches: [String] = []
        var count = 0
        for (word, stem) in Self.pairs {
            let actual = EnglishStemmer.stem(word)
            guard actual != stem else { continue }
            count += 1
            if mismatches.count < 20 { mismatches.append("\(word): expected \(stem), got \(actual)") }
        }
        #expect(count == 0, "\(count) of \(Self.pairs.count) words differ:\n\(mismatches.joined(separator: "\n"))")
        print("EnglishStemmer: \(Self.pairs.count - count) of \(Self.pairs.count) words give Snowball's stem")
    }

    @Test func inflectionsShareAStem() {
        let cases = [
            ("candies", "candi"), ("candy", "candi"), ("candied", "candi"), ("boxes", "box"), ("box", "box"),
            ("running", "run"), ("run", "run"), ("runs", "run"),
        ]
        for (word, stem) in cases { #expect(EnglishStemmer.stem(word) == stem, "\(word)") }
    }

    /// The exceptional words, the kept `-ing` and `-eed` words, the special starts of R1, apostrophes, a consonant
    /// `y` and the mending of the end after `-ed` and `-ing`.
    @Test func exceptionsAndSpecialRegions() {
        let cases = [
            ("skies", "sky"), ("news", "news"), ("inning", "inning"), ("herrings", "herring"), ("dying", "die"),
            ("succeeded", "succeed"), ("generously", "generous"), ("generate", "generat"), ("past", "past"),
            ("pasting", "paste"), ("universe", "univers"), ("universal", "universal"), ("geologist", "geolog"),
            ("'tis", "tis"), ("john's", "john"), ("youth", "youth"), ("sayings", "say"), ("hopping", "hop"),
            ("hoping", "hope"), ("added", "add"),
        ]
        for (word, stem) in cases { #expect(EnglishStemmer.stem(word) == stem, "\(word)") }
    }

    /// Words of one or two letters, and words with anything but lowercase ASCII letters and apostrophes.
    @Test func otherWordsAreReturnedAsTheyAre() {
        let words = [
            "", "a", "is", "as", "abc123", "2026", "mp3s", "café", "naïve", "Running", "CANDIES", "e-mails", "foo_bars",
            "東京", "runnings\u{E000}",
        ]
        for word in words {
            #expect(EnglishStemmer.stem(word) == word, "\(word)")
        }
    }

    /// Not a check: the time to stem the whole vocabulary, per word (a debug build unless tests are built for
    /// release).
    @Test func timing() {
        let words = Self.pairs.map(\.word)
        guard !words.isEmpty else { return }
        var best = Duration.seconds(1000)
        var length = 0
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for word in words { length &+= EnglishStemmer.stem(word).utf8.count }
            best = min(best, ContinuousClock.now - start)
        }
        let nanoseconds = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
        print("EnglishStemmer: \(Int(nanoseconds / Double(words.count))) ns per word (\(words.count) words)")
        #expect(length > 0)
    }
}
