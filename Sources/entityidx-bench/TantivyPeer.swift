import Foundation
import JSON

/// Tantivy on the real corpus: scripts/tantivy-peer.py run by a Python that has the `tantivy` package, on the same
/// NDJSON file and the same queries, in the same run.
///
/// The queries go to the script as JSON lines with their class; the script builds its index in process, runs them
/// and prints its build time, its bytes on disk and every query's milliseconds as one JSON object. It is also asked
/// to run the searches with the regex prefix it once used (`--compare-regex`): whether its matches equal the prefix
/// automaton's, and what each costs.
struct TantivyPeer {
    let python: String
    let script: String

    func run(records file: String, classes: [Corpus.QueryClass], sections: [String], sectionClass: String, work: String)
        throws -> PeerReport
    {
        let queries = "\(work)/tantivy-queries.ndjson"
        var lines = ""
        for qc in classes {
            for q in qc.queries { lines += JSONWriter.string(["class": .string(qc.name), "query": .string(q)]) + "\n" }
        }
        for s in sections {
            lines += JSONWriter.string(["class": .string(sectionClass), "section": .string(s)]) + "\n"
        }
        try lines.write(toFile: queries, atomically: true, encoding: .utf8)
        let index = "\(work)/tantivy-index"
        defer { try? FileManager.default.removeItem(atPath: index) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--records", file, "--queries", queries, "--index", index, "--compare-regex"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(script) failed with status \(process.terminationStatus)")
        }
        let reply = try JSONParser().parse([UInt8](data))
        guard let seconds = reply["ingestSeconds"]?.number?.double, let bytes = reply["bytes"]?.number?.int,
            let perClass = reply["classes"]?.object
        else { throw BenchError("\(script) printed no report") }
        var latencies: [String: Latency] = [:]
        for (name, samples) in perClass {
            latencies[name] = Latency(samples: (samples.array ?? []).compactMap { $0.number?.double })
        }
        let files = (reply["files"]?.object.map(Array.init) ?? []).map {
            (kind: $0.key, bytes: $0.value.number?.int ?? 0)
        }
        return PeerReport(
            version: reply["version"]?.string ?? "tantivy", ingestSeconds: seconds, bytes: bytes,
            files: files.sorted { $0.bytes > $1.bytes }, segments: Int(reply["segments"]?.number?.int ?? 0),
            classes: latencies, regex: reply["regex"].flatMap(RegexCheck.init))
    }
}

/// The regex prefix beside the prefix automaton, on the same index and queries: how many of the queries that end in
/// a one-token word match the same documents both ways, and each way's milliseconds by class (the whole search).
struct RegexCheck {
    var checked: Int
    var identical: Int
    /// The documents those queries' prefixes match, summed.
    var matches: Int
    /// Queries whose matches differ (the first few).
    var different: [String]
    var classes: [String: (regex: Latency, automaton: Latency)]

    init?(_ json: JSONValue) {
        guard let checked = json["checked"]?.number?.int, let identical = json["identical"]?.number?.int else {
            return nil
        }
        self.checked = Int(checked)
        self.identical = Int(identical)
        matches = Int(json["matches"]?.number?.int ?? 0)
        different = (json["different"]?.array ?? []).compactMap(\.string)
        func latency(_ v: JSONValue?) -> Latency { Latency(samples: (v?.array ?? []).compactMap { $0.number?.double }) }
        classes = [:]
        for (name, pair) in json["classes"]?.object ?? JSONObject() {
            classes[name] = (regex: latency(pair["regex"]), automaton: latency(pair["automaton"]))
        }
    }
}

/// What the peer measured: its build, its bytes by kind of file, and its latency by query class.
struct PeerReport {
    var version: String
    var ingestSeconds: Double
    var bytes: Int64
    var files: [(kind: String, bytes: Int64)]
    var segments: Int
    var classes: [String: Latency]
    /// The regex prefix beside the automaton, when the script ran it.
    var regex: RegexCheck?

    /// What each of tantivy's files holds, by extension.
    static let kinds = [
        "store": "stored records (compressed)", "idx": "postings (document ids, frequencies)", "pos": "positions",
        "term": "term dictionary", "fieldnorm": "field lengths", "fast": "fast fields (installed size)",
        "meta": "index metadata",
    ]
}
