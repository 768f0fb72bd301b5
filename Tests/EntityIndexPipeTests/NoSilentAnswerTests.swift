import EntityIndex
import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// Answers that must say what they left out or would do, rather than be silently wrong.
@Suite struct NoSilentAnswerTests {
    func handler() throws -> RequestHandler {
        let store = try TestSupport.store()
        _ = try store.ingest([
            TestSupport.record("order", "1", "First", [("domain", "shop.a")]),
            TestSupport.record("order", "2", "Second", [("domain", "shop.b")]),
            TestSupport.record("order", "3", "Third", [("domain", "shop.a.x")]),
            TestSupport.record("customer", "1", "Ada"),
        ])
        return RequestHandler(store: store, clock: { Timestamp.parse("2026-03-02T09:00:00Z")! })
    }

    // MARK: - filters on an empty array

    @Test func negatedFiltersKeepAnEmptyArrayAndNothingWithoutAValue() throws {
        let h = RequestHandler(store: try TestSupport.store(), clock: { Timestamp.parse("2026-03-02T09:00:00Z")! })
        _ = try h.call(
            .ingest,
            TestSupport.json(
                #"{"records": [{"type": "t", "id": "absent", "title": "a"}, {"type": "t", "id": "null", "title": "a", "properties": {"tags": null}}, {"type": "t", "id": "empty", "title": "a", "properties": {"tags": []}}, {"type": "t", "id": "x", "title": "a", "properties": {"tags": ["x"]}}, {"type": "t", "id": "y", "title": "a", "properties": {"tags": ["y"]}}]}"#
            ))
        func ids(_ op: String) throws -> [String] {
            let params: JSONValue = ["type": "t", "filters": [["property": "tags", "op": .string(op), "value": "x"]]]
            return try h.call(.query, params)["entities"]?.array?.compactMap { $0["id"]?.string }.sorted() ?? []
        }
        #expect(try ids("notContains") == ["empty", "y"])
        #expect(try ids("ne") == ["empty", "y"])
        #expect(try ids("contains") == ["x"])
        #expect(try ids("eq") == ["x"])
    }

    // MARK: - get

    @Test func getNamesTheIdsItDidNotFind() throws {
        let h = try handler()
        let result = try h.call(.get, ["type": "order", "ids": ["2", "nope", "1", "nope", 7]])
        #expect(result["entities"]?.array?.compactMap { $0["id"]?.string } == ["2", "1"])
        #expect(result["missing"] == [["type": "order", "id": "nope"], ["type": "order", "id": "7"]])
        // Every id found: no missing member, the result as before.
        let all = try h.call(.get, ["type": "order", "ids": ["1"]])
        #expect(all["missing"] == nil)
        #expect(all.object?.keys.sorted() == ["entities"])
    }

    // MARK: - delete dry run

    @Test func aDryRunSaysWhatWouldBeDeletedAndDeletesNothing() throws {
        let h = try handler()
        let before = try h.call(.stats, [:])
        let byDomain = try h.call(.delete, ["domains": ["shop.a"], "dryRun": true])
        #expect(byDomain["deleted"] == 0 && byDomain["dryRun"] == true && byDomain["wouldDelete"] == 2)
        #expect(byDomain["keys"] == [["type": "order", "id": "1"], ["type": "order", "id": "3"]])
        let byIds = try h.call(.delete, ["type": "order", "ids": ["3", "9", "1", "3"], "dryRun": true])
        #expect(byIds["wouldDelete"] == 2)
        #expect(byIds["keys"] == [["type": "order", "id": "3"], ["type": "order", "id": "1"]])
        let all = try h.call(.delete, ["all": true, "dryRun": true])
        #expect(all["wouldDelete"] == 4 && all["keys"]?.array?.count == 4)
        #expect(try h.call(.delete, ["type": "order", "dryRun": true])["wouldDelete"] == 3)
        // Nothing changed.
        #expect(try h.call(.stats, [:])["entities"] == before["entities"])
        #expect(try h.call(.get, ["type": "order", "ids": ["1", "2", "3"]])["entities"]?.array?.count == 3)
        // The same request without dryRun deletes what the dry run counted.
        #expect(try h.call(.delete, ["domains": ["shop.a"]]) == ["deleted": 2])
    }

    @Test func aDryRunChecksItsSelectorsAsTheDeleteDoes() throws {
        let h = try handler()
        #expect(throws: EntityIndexError.self) { try h.call(.delete, ["dryRun": true]) }
        #expect(throws: EntityIndexError.self) { try h.call(.delete, ["ids": ["1"], "dryRun": true]) }
        #expect(throws: EntityIndexError.self) { try h.call(.delete, ["all": true, "type": "order", "dryRun": true]) }
    }

    @Test func aDryRunListsAtMostItsBound() throws {
        let store = try TestSupport.store()
        _ = try store.ingest((0..<150).map { TestSupport.record("order", "o\($0)", "Order \($0)") })
        let preview = try store.preview(DeleteRequest(type: "order"))
        #expect(preview.count == 150 && preview.keys.count == DeletePreview.maxKeys && !preview.complete)
        #expect(try store.get(type: "order", ids: ["o0", "o149"]).count == 2)
    }

    // MARK: - ingest of the pipe's params

    @Test func recordsWrappedAsThePipesParamsGetAHint() throws {
        let wrapped = TestSupport.json(#"{"records": [{"type": "order", "id": 1, "title": "x"}]}"#)
        guard case .failure(let failure) = RecordValidator.validate(wrapped, position: 1) else {
            Issue.record("a wrapped input must not validate")
            return
        }
        let text = failure.problems.map(\.problem).joined()
        #expect(text.contains("pipe's ingest params") && text.contains("jq '.records'"))
        #expect(failure.problems.count == 1)
    }

    // MARK: - nested parameters

    @Test(arguments: [
        (
            #"{"type": "order", "filters": [{"property": "p", "opp": "eq", "value": 1}]}"#, "filters[0].opp",
            "allowed: property, op, value; did you mean \"op\"?"
        ),
        (
            #"{"type": "order", "sort": [{"property": "p", "ordr": "asc"}]}"#, "sort[0].ordr",
            "allowed: property, order; did you mean \"order\"?"
        ),
        (#"{"type": "order", "sort": [{"prop": "p"}]}"#, "sort[0].prop", "did you mean \"property\"?"),
    ])
    func aNestedUnknownKeyNamesItsPathAndTheAllowedKeys(params: String, path: String, hint: String) throws {
        let h = try handler()
        let error = #expect(throws: EntityIndexError.self) { try h.call(.query, TestSupport.json(params)) }
        #expect(error?.code == .invalidParams)
        #expect(error?.message.contains("parameter \"\(path)\" is not allowed") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(hint) == true, "\(error?.message ?? "")")
    }

    @Test func aDeclarationsUnknownKeyNamesItsPath() throws {
        let h = try handler()
        let error = #expect(throws: EntityIndexError.self) {
            try h.call(
                .declare, TestSupport.json(#"{"type": "order", "properties": [{"name": "p", "knd": "number"}]}"#))
        }
        #expect(error?.message.contains("\"properties[0].knd\" is not allowed") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("did you mean \"kind\"?") == true)
    }
}
