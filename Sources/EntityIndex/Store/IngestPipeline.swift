import JSON
import SQLite
import System

extension Ingestion {
    /// Reads every record of `reader` and adds it, on two threads: a reading thread parses, validates and analyzes
    /// records (the JSON and ICU work) while this thread writes them to SQLite. Records are added in input order, and
    /// the outcome is the same as adding them one by one; at most a few thousand prepared records wait in between.
    ///
    /// `progress` is called on this thread with the records read so far and the bytes read.
    public func addAll(from reader: JSONStreamReader, progress: (_ records: Int, _ bytes: Int) -> Void)
        throws(EntityIndexError)
    {
        try addAll(.stream(reader), progress: progress)
    }

    /// Adds parsed records, validating and analyzing them on a second thread while this one writes.
    public func addAll(_ values: [JSONValue]) throws(EntityIndexError) {
        try addAll(.values(values, firstPosition: position + 1)) { _, _ in }
    }

    private func addAll(_ source: Producer.Source, progress: (_ records: Int, _ bytes: Int) -> Void)
        throws(EntityIndexError)
    {
        let queue = HandoffQueue<Chunk>(capacity: 8)
        let producer = Producer(
            source: source, preparer: preparer, queue: queue,
            databasePath: store.path == ":memory:" || store.path.isEmpty ? nil : store.path)
        guard let thread = WorkerThread.start({ producer.run() }) else {
            throw EntityIndexError(
                .resourceExhausted,
                "cannot start the thread that reads records (out of memory or threads); nothing was ingested")
        }
        defer {
            queue.close()
            thread.join()
        }
        while let chunk = queue.pop() {
            // A chunk's records, and what writing them takes beside them, must fit in the memory left; else the
            // ingest stops here with resource_exhausted and its transaction rolls back.
            try MemoryRoom.require(2 * chunk.recordBytes, for: "ingesting records \(position + 1) and on")
            if let dictionary = chunk.dictionary { try add(dictionary) }
            for record in chunk.records { try add(record) }
            progress(position, chunk.bytesRead)
        }
    }

    /// Prepared records, handed over in chunks so that the threads meet rarely.
    ///
    /// A chunk closes at `Producer.chunkSize` records or `Producer.chunkBytes` bytes of record text, whichever comes
    /// first, so that the queue holds at most `capacity × (chunkBytes + one record)` of records however large they are.
    struct Chunk: Sendable {
        var records: [PreparedRecord] = []
        /// A dictionary trained on the first records (`Producer`), which the records from this chunk on are
        /// compressed with: stored before them.
        var dictionary: RecordDictionary?
        var bytesRead = 0
        var recordBytes = 0
    }

    /// The reading side. It owns its source once started.
    ///
    /// When the database has no record dictionary yet, the first records (up to `RecordDictionary.maximumSamples`,
    /// valid or not, or `maximumSampleBytes` of valid ones) are held while they are prepared, a dictionary is
    /// trained on their text, and they are compressed with it before they are handed over: about 0.1 to 0.5 s once,
    /// for records half the size of deflate's. Too few records train none (they are deflated as before).
    final class Producer: @unchecked Sendable {
        enum Source {
            case stream(JSONStreamReader)
            case values([JSONValue], firstPosition: Int)
        }
        let source: Source
        var preparer: RecordPreparer
        let queue: HandoffQueue<Chunk>
        let databasePath: String?
        static let chunkSize = 256
        static let chunkBytes = 4 << 20

        init(source: Source, preparer: RecordPreparer, queue: HandoffQueue<Chunk>, databasePath: String?) {
            self.source = source
            self.preparer = preparer
            self.queue = queue
            self.databasePath = databasePath
        }

        /// A read-only connection of this thread, to skip analyzing records that are stored unchanged (pushing the
        /// same data again is common). Only a hint: the writer compares again inside its transaction and analyzes
        /// what it finds changed.
        private var stored: Connection?

        /// Whether the record is stored with the same text: nil when it is not (or is not stored), else whether in
        /// the form this ingest writes (then it is not compressed again, and the writer leaves the column as is).
        private func storedUnchanged(_ record: EntityRecord, _ text: StoredRecord) -> Bool? {
            guard let stored, let statement = try? stored.cached("SELECT record FROM entity WHERE type = ? AND id = ?"),
                (try? statement.bind([.text(record.type), .text(record.id)])) != nil
            else { return nil }
            defer { statement.reset() }
            guard (try? statement.step()) == true, statement.holds(0, text) else { return nil }
            return StoredRecord.isCurrentForm(statement.borrowedBytes(0), preparer.dictionary)
        }

        /// Validates a record and, unless it is stored unchanged, analyzes and compresses it. Records are prepared
        /// as text (`defersCompression`), compared with the stored ones by their text, and compressed only when
        /// they changed or are stored in an older form (while the first records are held to train a dictionary,
        /// `train` compresses them).
        private func prepare(_ value: JSONValue, position: Int, line: Int?) -> PreparedRecord {
            let prepared = preparer.prepare(value, position: position, line: line)
            guard case .valid(let record, let text, nil) = prepared.outcome else { return prepared }
            func compressed() -> StoredRecord {
                isTraining ? text : StoredRecord(text: text.text, dictionary: preparer.dictionary)
            }
            if let current = storedUnchanged(record, text) {
                let stored = current ? StoredRecord(text: text.text, value: .null) : compressed()
                return PreparedRecord(
                    position: position, line: line, outcome: .valid(record, stored: stored, analyzed: nil))
            }
            return PreparedRecord(
                position: position, line: line,
                outcome: .valid(record, stored: compressed(), analyzed: preparer.analyze(record)))
        }

        /// Whether the first records are held to train a dictionary on (`run`).
        private var isTraining = false

        /// Words already handed over: the writer adds each to `vocabulary` once (the ingest commits or rolls back whole).
        /// The writer can skip a record handed over with words only when an earlier record of the input stored the same
        /// text for it; that one carried the words, or was itself stored unchanged, so its words are already there.
        private var handedTerms = Set<String>()

        private func keepingNewTerms(_ prepared: PreparedRecord) -> PreparedRecord {
            guard case .valid(_, _, let analyzed?) = prepared.outcome else { return prepared }
            analyzed.terms = analyzed.terms.filter { handedTerms.insert($0).inserted }
            analyzed.newTermsOnly = true
            return prepared
        }

        func run() {
            stored = databasePath.flatMap { try? Connection(path: $0, mode: .readOnly) }
            defer {
                stored = nil
                StoredRecord.releaseThreadCodecs()
            }
            var chunk = Chunk()
            isTraining = preparer.dictionary == nil
            preparer.defersCompression = true
            var held: [PreparedRecord] = [], samples: [[UInt8]] = [], sampleBytes = 0
            func add(_ record: PreparedRecord, bytesRead: Int) -> Bool {
                // The writer gave up (an error, a stop signal): stop within a record, not a chunk.
                if queue.isClosed { return false }
                if isTraining {
                    held.append(record)
                    if case .valid(_, let stored, _) = record.outcome {
                        samples.append(stored.text)
                        sampleBytes += stored.text.count
                    }
                    // Invalid records count too, so that an input of bad records is not held whole.
                    guard
                        held.count >= RecordDictionary.maximumSamples
                            || sampleBytes >= RecordDictionary.maximumSampleBytes
                    else { return true }
                    return train(bytesRead: bytesRead)
                }
                chunk.records.append(record)
                if case .valid(_, let stored, _) = record.outcome { chunk.recordBytes += stored.text.count }
                guard chunk.records.count == Self.chunkSize || chunk.recordBytes >= Self.chunkBytes else { return true }
                return hand(bytesRead: bytesRead)
            }
            // Trains the dictionary on the records held, compresses them with it and hands them over.
            func train(bytesRead: Int) -> Bool {
                isTraining = false
                let dictionary = RecordDictionary.train(samples)
                samples = []
                preparer.dictionary = dictionary
                chunk.dictionary = dictionary
                defer { held = [] }
                for record in held {
                    guard case .valid(let entity, let stored, let analyzed) = record.outcome else {
                        if !add(record, bytesRead: bytesRead) { return false }
                        continue
                    }
                    let compressed = PreparedRecord(
                        position: record.position, line: record.line,
                        outcome: .valid(
                            entity, stored: StoredRecord(text: stored.text, dictionary: dictionary), analyzed: analyzed)
                    )
                    if !add(compressed, bytesRead: bytesRead) { return false }
                }
                return true
            }
            func hand(bytesRead: Int) -> Bool {
                chunk.bytesRead = bytesRead
                defer { chunk = Chunk() }
                return queue.push(chunk)
            }
            switch source {
            case .values(let values, let first):
                for (i, value) in values.enumerated() {
                    if !add(keepingNewTerms(prepare(value, position: first + i, line: nil)), bytesRead: 0) { return }
                }
                if isTraining, !train(bytesRead: 0) { return }
                if !chunk.records.isEmpty { _ = hand(bytesRead: 0) }
            case .stream(let reader):
                let parser = JSONParser()
                var position = 0
                do {
                    while let element = try reader.next() {
                        position = element.position
                        let record: PreparedRecord
                        do {
                            record = keepingNewTerms(
                                prepare(try parser.parse(element.bytes), position: element.position, line: element.line)
                            )
                        } catch {
                            record = preparer.rejected(
                                RecordProblem(
                                    position: element.position, line: element.line,
                                    problem: "is not valid JSON: \(error)"))
                        }
                        if !add(record, bytesRead: reader.bytesConsumed) { return }
                    }
                } catch {
                    let problem = RecordProblem(position: position + 1, line: error.line, problem: error.message)
                    if !add(preparer.rejected(problem), bytesRead: reader.bytesConsumed) { return }
                }
                if isTraining, !train(bytesRead: reader.bytesConsumed) { return }
                if !chunk.records.isEmpty { _ = hand(bytesRead: reader.bytesConsumed) }
            }
            queue.close()
        }
    }
}
