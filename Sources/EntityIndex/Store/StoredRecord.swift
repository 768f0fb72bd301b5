internal import CEntityIdx
import JSON
import SQLite

/// How `entity.record` holds the record as ingested: the JSON text itself (TEXT) when it is short or does not shrink,
/// else a BLOB of the byte 1, the text's length in bytes (4 bytes, little-endian) and the text compressed with raw
/// deflate (zlib, level 1).
///
/// Records are a third to a half of a database without compression (Debian's package list: 70 MB of 331 MB); level
/// 1 halves them, costs the reading thread of an ingest about 10 µs a kilobyte and a read about 3 µs. JSON text
/// never starts with the byte 1, so both forms can share the column and rows written before compression still read.
/// The same text always compresses to the same bytes (one zlib, one level), so unchanged records are found by
/// comparing stored values.
enum StoredRecord {
    /// Below this many bytes a record is stored as text: compression would save little and cost a read.
    static let minimumCompressed = 160
    static let compressedMarker: UInt8 = 1

    /// The value to store for a record's JSON text.
    static func encode(_ text: String) -> SQLValue {
        var utf8 = text
        return utf8.withUTF8 { source -> SQLValue in
            guard source.count >= minimumCompressed, source.count <= Int(UInt32.max) else { return .text(text) }
            var out = [UInt8](repeating: 0, count: 5 + eidx_deflate_bound(source.count))
            let length = out.withUnsafeMutableBufferPointer { buffer in
                eidx_deflate(source.baseAddress, source.count, buffer.baseAddress! + 5, buffer.count - 5)
            }
            guard length > 0, 5 + length < source.count else { return .text(text) }
            let n = UInt32(source.count)
            out[0] = compressedMarker
            for i in 0..<4 { out[1 + i] = UInt8(truncatingIfNeeded: n >> (8 * UInt32(i))) }
            out.removeLast(out.count - 5 - length)
            return .blob(out)
        }
    }

    /// The length of the JSON text a stored value holds.
    static func size(_ stored: SQLValue) -> Int {
        switch stored {
        case .blob(let b) where b.count >= 5 && b[0] == compressedMarker:
            return (0..<4).reduce(0) { $0 | Int(b[1 + $1]) << (8 * $1) }
        case .blob(let b): return b.count
        case .text(let t): return t.utf8.count
        default: return 0
        }
    }

    /// The JSON text of a stored record (bytes of either form); nil when a compressed value is damaged.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard bytes.count >= 5, bytes[0] == compressedMarker else { return Array(bytes) }
        var n = 0
        for i in 0..<4 { n |= Int(bytes[1 + i]) << (8 * i) }
        var out = [UInt8](repeating: 0, count: n)
        let written = out.withUnsafeMutableBufferPointer { buffer in
            eidx_inflate(bytes.baseAddress! + 5, bytes.count - 5, buffer.baseAddress, n)
        }
        return written == n ? out : nil
    }
}

extension Statement {
    /// Whether a column holds exactly this stored value (compared byte for byte, without copying).
    ///
    /// A record written as text before records were compressed holds the same record as its compressed form.
    func holds(_ column: Int32, _ stored: SQLValue) -> Bool {
        let bytes = borrowedBytes(column)
        switch stored {
        case .blob(let b):
            if bytes.elementsEqual(b) { return true }
            guard isText(column), let text = b.withUnsafeBufferPointer(StoredRecord.decode)
            else { return false }
            return bytes.elementsEqual(text)
        case .text(let t): return bytes.elementsEqual(t.utf8)
        default: return false
        }
    }

    /// The record stored in a column of `entity.record`, parsed (an empty object if it cannot be read, which only a
    /// damaged file gives: every stored record was valid JSON when written).
    public func record(_ column: Int32) -> JSONObject {
        JSONValue.encoded(recordText(column)).object ?? JSONObject()
    }

    /// The JSON text of the record stored in a column of `entity.record` (`{}` if it cannot be read).
    func recordText(_ column: Int32) -> JSONText {
        JSONText(writerOutput: StoredRecord.decode(borrowedBytes(column)) ?? Array("{}".utf8))
    }
}
