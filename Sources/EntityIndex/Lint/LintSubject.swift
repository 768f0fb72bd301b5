import JSON
import SQLite
import System

/// One record to lint or drill: parsed JSON with where it came from, or a problem found before parsing (a line
/// that is not JSON).
public enum RecordInput: Sendable {
    case record(JSONValue, position: Int, line: Int?)
    case unreadable(RecordProblem)

}

/// Records read one at a time, so that a large input is checked without holding all of it as JSON.
public struct RecordSource: Sequence, IteratorProtocol {
    private let nextInput: () -> RecordInput?

    public init(_ next: @escaping () -> RecordInput?) { nextInput = next }

    public mutating func next() -> RecordInput? { nextInput() }

    /// Records of a pipe request: positions 1, 2, … and no lines.
    public static func numbered(_ values: [JSONValue]) -> RecordSource {
        var iterator = values.enumerated().makeIterator()
        return RecordSource { iterator.next().map { .record($1, position: $0 + 1, line: nil) } }
    }
}

/// What the checks read of one entity, normalized once: a record of the input or an entity of the index.
final class LintSubject {
    var key: EntityKey
    var location: LintLocation
    var fromInput: Bool { location.position != nil }
    var title: String
    /// The title's tokens as the engine normalizes them (`Crème Brûlée` → `creme brulee`).
    var normalizedTitle: String
    /// Normalized title, subtitle and description: equal for entities a person cannot tell apart.
    var contentKey: ByteString
    var hasSubtitle: Bool
    var hasImage: Bool
    var domain: String?
    var hidden: Bool
    var related: [EntityKey]
    /// Whether the record sets `expiresAt` (else Core Spotlight's month applies).
    var explicitExpiry: Bool
    var expiresAt: Int64
    /// When the entity was (or, for the input, would be) last pushed.
    var pushedAt: Int64
    /// UTF-8 bytes of the searchable text, and its largest field.
    var searchableBytes: Int
    var largestField: (name: String, bytes: Int)
    /// The title is only digits (`1042`, `#1042-7`) or only an id (the entity's own id, a UUID).
    var titleProblem: String?
    /// The kinds of the values of each property (`string`, `number`, `boolean`, `date`; null is none), in the
    /// record's order: what `mixed-kinds` compares.
    var propertyKinds: [(name: String, kinds: Set<String>)]

    init(_ record: EntityRecord, location: LintLocation, expiresAt: Int64, pushedAt: Int64) {
        key = record.key
        self.location = location
        title = record.title
        let titleTokens = TextAnalyzer.tokens(record.title)
        normalizedTitle = titleTokens.map(\.text).joined(separator: " ")
        let subtitle = record.subtitle.map(Self.normalize) ?? ""
        let description = record.description.map(Self.normalize) ?? ""
        contentKey = ByteString(normalizedTitle + "\u{1F}" + subtitle + "\u{1F}" + description)
        hasSubtitle = !(record.subtitle ?? "").allSatisfy(\.isWhitespace)
        if case .string(let image)? = record.json["image"] { hasImage = !image.isEmpty } else { hasImage = false }
        domain = record.domain
        hidden = record.hidden
        related = record.related
        explicitExpiry = record.expiresAt != nil
        self.expiresAt = record.expiresAt ?? expiresAt
        self.pushedAt = pushedAt
        (searchableBytes, largestField) = Self.searchableSize(record)
        titleProblem = Self.titleProblem(record, tokens: titleTokens)
        propertyKinds = record.properties.map { ($0.key, Self.kinds($0.value)) }
    }

    /// The kinds of a property's values as an undeclared property stores them (`EntityStore.propertyRow`): a string
    /// that is an ISO-8601 date-time with a zone is a date.
    static func kinds(_ value: JSONValue) -> Set<String> {
        switch value {
        case .array(let items): return items.reduce(into: []) { $0.formUnion(kinds($1)) }
        case .string(let s): return [Timestamp.parse(s) == nil ? "string" : "date"]
        case .number: return ["number"]
        case .bool: return ["boolean"]
        default: return []
        }
    }

    /// The engine's normalization of a field: its search tokens (case, width, accents folded), space-separated.
    static func normalize(_ text: String) -> String {
        EntityStore.comparisonText(text)
    }

    /// The size of what Spotlight would index for the record: every field entityidx searches.
    static func searchableSize(_ record: EntityRecord) -> (Int, (name: String, bytes: Int)) {
        var total = 0
        var largest = (name: "title", bytes: 0)
        func add(_ name: String, _ bytes: Int) {
            total += bytes
            if bytes > largest.bytes { largest = (name, bytes) }
        }
        add("title", record.title.utf8.count)
        add("id", record.id.utf8.count)
        if let s = record.subtitle { add("subtitle", s.utf8.count) }
        if let d = record.description { add("description", d.utf8.count) }
        add("synonyms", record.synonyms.reduce(0) { $0 + $1.utf8.count })
        add("keywords", record.keywords.reduce(0) { $0 + $1.utf8.count })
        for (name, value) in record.properties {
            let bytes = SearchDocument.strings(value).reduce(0) { $0 + $1.utf8.count }
            if bytes > 0 { add("properties.\(name)", bytes) }
        }
        return (total, largest)
    }

    /// Why the title tells a person nothing, given its tokens: only digits, nothing at all, or only an id.
    static func titleProblem(_ record: EntityRecord, tokens: [Token]) -> String? {
        if tokens.isEmpty { return "has no letters or digits" }
        if !tokens.contains(where: \.hasLetter) { return "is only digits" }
        let key = tokens.map(\.text).joined()
        // An id key is never longer than the id's UTF-8 (folding only shortens ids of letters and digits).
        if key.utf8.count <= record.id.utf8.count * 3, key == TextAnalyzer.idKey(record.id) {
            return "is only the entity's id"
        }
        if isUUID(record.title) { return "is only an id (a UUID)" }
        return nil
    }

    /// Whether the text is a UUID (8-4-4-4-12 hex digits), ignoring spaces around it.
    static func isUUID(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count >= 36, utf8.count <= 44 else { return false }
        let bytes = Array(utf8).drop(while: { $0 == 0x20 }).reversed().drop(while: { $0 == 0x20 }).reversed()
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) { if b != 0x2D { return false }; continue }
            let hex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
            if !hex { return false }
        }
        return true
    }
}

/// A string hashed and compared by its UTF-8 bytes: normalized text needs no Unicode-aware hashing, which costs
/// several times more for text that is not ASCII.
struct ByteString: Hashable {
    let text: String
    init(_ text: String) { self.text = text }
    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
    static func == (a: ByteString, b: ByteString) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
}

extension EntityStore {
    /// Visits every entity the index holds and returns (expired ones are gone), or those of one type, by type and
    /// id, as a validated record with its expiry and last ingest; returns how many there were.
    @discardableResult
    func forEachIndexed(type: String? = nil, _ body: (EntityRecord, _ expiresAt: Int64, _ ingestedAt: Int64) -> Void)
        throws(EntityIndexError) -> Int
    {
        do {
            let statement = try db.cached(
                """
                SELECT record, expires_at, ingested_at FROM entity WHERE expires_at > ?1 AND (?2 IS NULL OR type = ?2)
                ORDER BY type, id
                """)
            try statement.bind([.integer(now), type.map { .text($0) } ?? .null])
            defer { statement.reset() }
            var count = 0
            while try statement.step() {
                let value = JSONValue.object(statement.record(0))
                guard case .success(let record) = RecordValidator.validate(value, position: 0) else { continue }
                body(record, statement.int(1), statement.int(2))
                count += 1
                // The whole index is held while it is checked: it must fit in the memory left.
                if count & 1023 == 0 { try MemoryRoom.require(0, for: "checking the \(count) entities read so far") }
            }
            return count
        } catch {
            throw EntityIndexError.wrap(error, doing: "reading the index")
        }
    }
}
