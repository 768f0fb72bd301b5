internal import CEntityIdx
import JSON
import SQLite

#if canImport(Glibc)
    import Glibc
#endif

/// A record as `entity.record` holds it: its JSON text, and the value stored for it.
///
/// The column holds one of three forms, told apart by the first byte (JSON text never starts with a byte below a
/// space):
/// - the JSON text itself (TEXT), when it is short or does not shrink;
/// - a BLOB of the byte 2 and one zstd frame compressed with a dictionary of `record_dictionary` (schema 17), whose
///   id the frame names: the form of every record written once the database has a dictionary;
/// - a BLOB of the byte 1, the text's length in bytes (4 bytes, little-endian) and the text compressed with raw
///   deflate (zlib, level 1): records written without a dictionary (a database's first small ingests, and
///   databases of earlier releases), which read as before.
///
/// Records of one application share most of their bytes (member names, types, enumerations), which a record of a
/// kilobyte cannot exploit alone: on Debian's package list (46 MB of records) deflate leaves 22 MB and a dictionary
/// of 64 KiB trained on the first records 10.7 MB, and a record decompresses in about 1 µs instead of 8.
struct StoredRecord: Sendable {
    /// The record's JSON text.
    let text: [UInt8]
    /// What `entity.record` holds for it.
    let value: SQLValue

    /// Below this many bytes a record is stored as text unless a dictionary compresses it.
    static let minimumDeflated = 160
    static let deflateMarker: UInt8 = 1
    static let dictionaryMarker: UInt8 = 2

    /// The stored form of a record's JSON text: compressed with `dictionary` when there is one, else with deflate;
    /// as text when that does not make it smaller.
    init(text: String, dictionary: RecordDictionary?) {
        self.init(text: Array(text.utf8), dictionary: dictionary)
    }

    init(text: [UInt8], value: SQLValue) {
        self.text = text
        self.value = value
    }

    init(text: [UInt8], dictionary: RecordDictionary?) {
        self.text = text
        value = Self.encode(text, dictionary) ?? .text(String(decoding: text, as: UTF8.self))
    }

    private static func encode(_ text: [UInt8], _ dictionary: RecordDictionary?) -> SQLValue? {
        guard text.count <= Int(UInt32.max) else { return nil }
        return text.withUnsafeBufferPointer { source -> SQLValue? in
            if let dictionary {
                var out = [UInt8](repeating: 0, count: 1 + eidx_zstd_bound(source.count))
                let length = out.withUnsafeMutableBufferPointer { buffer in
                    eidx_zstd_compress(
                        dictionary.handle, source.baseAddress, source.count, buffer.baseAddress! + 1, buffer.count - 1)
                }
                guard length > 0, 1 + length < source.count else { return nil }
                out[0] = dictionaryMarker
                out.removeLast(out.count - 1 - length)
                return .blob(out)
            }
            guard source.count >= minimumDeflated else { return nil }
            var out = [UInt8](repeating: 0, count: 5 + eidx_deflate_bound(source.count))
            let length = out.withUnsafeMutableBufferPointer { buffer in
                eidx_deflate(source.baseAddress, source.count, buffer.baseAddress! + 5, buffer.count - 5)
            }
            guard length > 0, 5 + length < source.count else { return nil }
            let n = UInt32(source.count)
            out[0] = deflateMarker
            for i in 0..<4 { out[1 + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt32(i))) }
            out.removeLast(out.count - 5 - length)
            return .blob(out)
        }
    }

    /// The JSON text of a stored record (bytes of any form); nil when a compressed value is damaged or names a
    /// dictionary the database does not hold.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ dictionaries: RecordDictionaries) -> [UInt8]? {
        guard let first = bytes.first, first < 0x20 else { return Array(bytes) }
        if first == dictionaryMarker {
            let frame = UnsafeBufferPointer(rebasing: bytes[1...])
            var size: UInt64 = 0, id: UInt32 = 0
            guard eidx_zstd_frame(frame.baseAddress, frame.count, &size, &id) == 0,
                size <= UInt64(RecordLimits.maxRecordBytes),
                let dictionary = dictionaries.dictionary(id)
            else { return nil }
            let n = Int(size)
            var out = [UInt8](repeating: 0, count: n)
            let written = out.withUnsafeMutableBufferPointer { buffer in
                eidx_zstd_decompress(dictionary.handle, frame.baseAddress, frame.count, buffer.baseAddress, n)
            }
            return written == n ? out : nil
        }
        guard bytes.count >= 5, first == deflateMarker else { return nil }
        var n = 0
        for i in 0..<4 { n |= Int(bytes[1 + i]) << (8 * i) }
        var out = [UInt8](repeating: 0, count: n)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            eidx_inflate(bytes.baseAddress! + 5, bytes.count - 5, buffer.baseAddress, n)
        }
        return written == n ? out : nil
    }

    /// Whether stored bytes are in the form a record is written in with `dictionary`: a frame of that dictionary;
    /// without one, text or deflate.
    static func isCurrentForm(_ bytes: UnsafeBufferPointer<UInt8>, _ dictionary: RecordDictionary?) -> Bool {
        guard let first = bytes.first else { return false }
        guard let dictionary else { return first != dictionaryMarker }
        guard first == dictionaryMarker else { return false }
        var size: UInt64 = 0, id: UInt32 = 0
        let frame = UnsafeBufferPointer(rebasing: bytes[1...])
        return eidx_zstd_frame(frame.baseAddress, frame.count, &size, &id) == 0 && id == dictionary.id
    }

    /// Frees the calling thread's compression and decompression contexts (a thread that ends: the reading thread
    /// of an ingest), which would otherwise stay allocated until the process ends.
    static func releaseThreadCodecs() { eidx_record_codec_thread_end() }
}

/// A dictionary of stored records (a row of `record_dictionary`), ready to compress and decompress with.
final class RecordDictionary: @unchecked Sendable {
    /// The id every frame compressed with it names (the row's id).
    let id: UInt32
    let bytes: [UInt8]
    /// zstd's prepared forms of the dictionary; immutable, shared by threads (each compresses with its own context).
    let handle: UnsafeMutableRawPointer

    init?(bytes: [UInt8]) {
        guard let handle = bytes.withUnsafeBufferPointer({ eidx_zstd_dictionary($0.baseAddress, $0.count) }) else {
            return nil
        }
        self.handle = handle
        self.bytes = bytes
        id = bytes.withUnsafeBufferPointer { eidx_zstd_dictionary_id($0.baseAddress, $0.count) }
    }

    deinit { eidx_zstd_dictionary_free(handle) }

    /// Fewer samples than this, or fewer bytes, are not worth a dictionary (it would outweigh what it saves).
    static let minimumSamples = 256
    static let minimumSampleBytes = 64 << 10
    /// The samples a dictionary is trained on: the first records of an ingest, up to these.
    static let maximumSamples = 4_000
    static let maximumSampleBytes = 4 << 20
    /// The most bytes of a dictionary: a tenth of its samples, at most 64 KiB.
    static func capacity(forSampleBytes bytes: Int) -> Int { min(64 << 10, max(4 << 10, bytes / 10)) }

    /// Trains a dictionary on records' JSON texts; nil when they are too few or too small. Its id is a hash of the
    /// samples, so that the same records give the same dictionary.
    static func train(_ samples: [[UInt8]]) -> RecordDictionary? {
        let total = samples.reduce(0) { $0 + $1.count }
        guard samples.count >= minimumSamples, total >= minimumSampleBytes else { return nil }
        var joined: [UInt8] = []
        joined.reserveCapacity(total)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for sample in samples {
            joined += sample
            for byte in sample { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        // zstd reserves ids below 32,768 and from 2^31.
        let id = UInt32(32_768 + hash % UInt64((1 << 31) - 32_768))
        let sizes = samples.map(\.count)
        var dictionary = [UInt8](repeating: 0, count: capacity(forSampleBytes: total))
        let size = dictionary.withUnsafeMutableBufferPointer { out in
            joined.withUnsafeBufferPointer { data in
                sizes.withUnsafeBufferPointer { sizes in
                    eidx_zstd_train(
                        data.baseAddress, sizes.baseAddress, UInt32(sizes.count), id, out.baseAddress, out.count)
                }
            }
        }
        guard size > 0 else { return nil }
        dictionary.removeLast(dictionary.count - size)
        return RecordDictionary(bytes: dictionary)
    }
}

/// The record dictionaries of one connection's database, read from `record_dictionary` as records name them
/// (attached to the connection: `Connection.attachment`). Rows of `record_dictionary` are never changed nor
/// deleted, so what is read once stays true.
final class RecordDictionaries {
    private unowned let connection: Connection
    private var byID: [UInt32: RecordDictionary] = [:]

    init(_ connection: Connection) { self.connection = connection }

    func dictionary(_ id: UInt32) -> RecordDictionary? {
        if let found = byID[id] { return found }
        // Not a cached statement: this may run while a cached one steps (a record read inside a query).
        guard let read = try? connection.prepare("SELECT dict FROM record_dictionary WHERE id = ?"),
            (try? read.bind([.integer(Int64(id))])) != nil, (try? read.step()) == true,
            let dictionary = RecordDictionary(bytes: Array(read.borrowedBytes(0))), dictionary.id == id
        else { return nil }
        byID[id] = dictionary
        return dictionary
    }

    /// The dictionary new records are compressed with: the newest, if the database has one.
    func newest() throws -> RecordDictionary? {
        guard
            let id = try connection.scalar(
                "SELECT id FROM record_dictionary ORDER BY created_at DESC, id DESC LIMIT 1")?
                .int
        else { return nil }
        return dictionary(UInt32(truncatingIfNeeded: id))
    }

    /// Stores a dictionary trained by this ingest (in its transaction) before records compressed with it.
    func add(_ dictionary: RecordDictionary, now: Int64) throws {
        if let stored = try connection.scalar(
            "SELECT dict FROM record_dictionary WHERE id = ?", [.integer(Int64(dictionary.id))])
        {
            guard stored == .blob(dictionary.bytes) else {
                throw EntityIndexError(
                    .storage,
                    "the database holds another record dictionary with the id \(dictionary.id); nothing was ingested (ingest again)"
                )
            }
            return
        }
        try connection.run(
            "INSERT INTO record_dictionary(id, dict, created_at) VALUES (?, ?, ?)",
            [.integer(Int64(dictionary.id)), .blob(dictionary.bytes), .integer(now)])
        byID[dictionary.id] = dictionary
    }
}

extension Connection {
    /// The dictionaries of the stored records of this connection's database.
    var recordDictionaries: RecordDictionaries { attachment(RecordDictionaries.init) }
}

extension Statement {
    /// Whether a column of `entity.record` holds this record: the same stored bytes, or another form of the same
    /// text (written without a dictionary, or with another one).
    func holds(_ column: Int32, _ record: StoredRecord) -> Bool {
        let bytes = borrowedBytes(column)
        func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
            a.count == b.count
                && (a.isEmpty || b.withUnsafeBufferPointer { memcmp(a.baseAddress!, $0.baseAddress!, a.count) == 0 })
        }
        if case .blob(let b) = record.value, equal(bytes, b) { return true }
        if let first = bytes.first, first >= 0x20 { return equal(bytes, record.text) }
        guard let text = StoredRecord.decode(bytes, connection.recordDictionaries) else { return false }
        return text == record.text
    }

    /// The record stored in a column of `entity.record`, parsed (an empty object if it cannot be read, which only a
    /// damaged file gives: every stored record was valid JSON when written).
    public func record(_ column: Int32) -> JSONObject {
        JSONValue.encoded(recordText(column)).object ?? JSONObject()
    }

    /// The JSON text of the record stored in a column of `entity.record` (`{}` if it cannot be read).
    func recordText(_ column: Int32) -> JSONText {
        JSONText(
            writerOutput: StoredRecord.decode(borrowedBytes(column), connection.recordDictionaries)
                ?? Array("{}".utf8))
    }
}
