import EntityIndex
import JSON
import SQLite
import TestSupport
import Testing

@Suite struct SchemaTests {
    /// The SQL embedded in the binary is what schema/*.sql says (run `make schema` after editing them).
    @Test func embeddedSQLMatchesSchemaFiles() throws {
        let migrations = Schema.migrator.migrations
        #expect(migrations.map(\.version) == Array(1...migrations.count))
        for m in migrations {
            let file = String(format3(m.version)) + "_" + m.name + ".sql"
            let text = TestSupport.read(TestSupport.repository + "/schema/" + file)
            #expect(
                text == m.sql + "\n" || text == m.sql, "schema/\(file) differs from the embedded SQL: run make schema")
        }
    }

    func format3(_ n: Int) -> String { String(repeating: "0", count: max(0, 3 - String(n).count)) + String(n) }

    static let recordSchema = TestSupport.json(
        TestSupport.read(TestSupport.repository + "/schema/record.schema.json") ?? "{}")

    /// Every sample record is valid for both the validator and the JSON Schema.
    @Test func samplesAgreeWithTheSchema() throws {
        let checker = SchemaChecker(Self.recordSchema)
        var count = 0
        for file in ["orders.json", "products.json"] {
            for (i, record)
                in (TestSupport.json(TestSupport.read(TestSupport.repository + "/data/" + file) ?? "[]").array ?? [])
                .enumerated()
            {
                #expect(
                    checker.problems(record, Self.recordSchema).isEmpty,
                    "\(file) #\(i): \(checker.problems(record, Self.recordSchema))")
                if case .failure(let f) = RecordValidator.validate(record, position: i + 1) {
                    Issue.record("\(f.problems)")
                }
                count += 1
            }
        }
        #expect(count > 300)
    }

    /// Valid and invalid records: the schema and the validator give the same verdict.
    @Test(
        "schema and validator agree",
        arguments: [
            #"{"type":"t","id":"1","title":"x"}"#, #"{"type":"t","id":7,"title":"x","subtitle":null}"#,
            #"{"type":"t","id":"1","title":"x","colour":"red"}"#, #"{"type":"t","id":"1","title":""}"#,
            #"{"type":"t","id":"1","title":"   "}"#, #"{"type":"9t","id":"1","title":"x"}"#,
            #"{"type":"t","id":1.5,"title":"x"}"#,
            #"{"type":"t","id":"","title":"x"}"#, #"{"type":"t","id":"1","title":"x","rankingHint":100.5}"#,
            #"{"type":"t","id":"1","title":"x","rankingHint":0}"#, #"{"type":"t","id":"1","title":"x","priority":1.5}"#,
            #"{"type":"t","id":"1","title":"x","lastUsedAt":"2026-03-02T09:00:00+01:00"}"#,
            #"{"type":"t","id":"1","title":"x","lastUsedAt":"2026-03-02T09:00:00"}"#,
            #"{"type":"t","id":"1","title":"x","domain":"a.b"}"#, #"{"type":"t","id":"1","title":"x","domain":"a."}"#,
            #"{"type":"t","id":"1","title":"x","related":[{"type":"u","id":2}]}"#,
            #"{"type":"t","id":"1","title":"x","related":[{"type":"u","id":"2","extra":1}]}"#,
            #"{"type":"t","id":"1","title":"x","properties":{"a":[1,"b"],"b":null,"c":true}}"#,
            #"{"type":"t","id":"1","title":"x","properties":{"a":[true]}}"#,
            #"{"type":"t","id":"1","title":"x","keywords":["a",1]}"#, #"{"type":"t","id":"1","title":"x","hidden":1}"#,
            #"{"id":"1","title":"x"}"#, #"[1]"#,
        ])
    func agree(_ text: String) {
        let value = TestSupport.json(text)
        let schemaValid = SchemaChecker(Self.recordSchema).problems(value, Self.recordSchema).isEmpty
        let validatorValid: Bool
        if case .success = RecordValidator.validate(value, position: 1) {
            validatorValid = true
        } else {
            validatorValid = false
        }
        #expect(schemaValid == validatorValid, "\(text): schema \(schemaValid), validator \(validatorValid)")
    }
}
