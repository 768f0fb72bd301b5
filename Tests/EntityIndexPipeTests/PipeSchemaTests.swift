import EntityIndexPipe
import JSON
import TestSupport
import Testing

/// The embedded schemas, the method list and schema/openrpc.json agree.
@Suite struct PipeSchemaTests {
    func file(_ name: String) -> JSONValue {
        TestSupport.json(TestSupport.read(TestSupport.repository + "/schema/" + name) ?? "null")
    }

    @Test func embeddedSchemasMatchTheFiles() {
        #expect(PipeSchema.pipe == file("pipe.schema.json"), "schema/pipe.schema.json changed: run `make schema`")
        var record = file("record.schema.json").object ?? JSONObject()
        record["$schema"] = nil
        record["$id"] = nil
        #expect(PipeSchema.record == .object(record), "schema/record.schema.json changed: run `make schema`")
    }

    @Test func everyMethodHasItsSchemaAndNoOther() {
        let methods = PipeSchema.pipe["methods"]?.object?.keys ?? []
        #expect(
            Set(methods) == Set(RequestHandler.methods),
            "methods in schema/pipe.schema.json and RequestHandler.methods differ")
        let requestEnum =
            PipeSchema.pipe["$defs"]?["request"]?["properties"]?["method"]?["enum"]?.array?.compactMap(\.string) ?? []
        #expect(
            Set(requestEnum) == Set(RequestHandler.methods),
            "$defs.request.method.enum and RequestHandler.methods differ")
        for name in RequestHandler.methods {
            let entry = PipeSchema.method(name)
            #expect(entry?["description"]?.string?.isEmpty == false, "\(name): no description")
            #expect(entry?["params"] != nil && entry?["result"] != nil, "\(name): no params or result schema")
        }
    }

    @Test func openRPCFileIsTheDiscoverDocument() {
        #expect(file("openrpc.json") == OpenRPC.document, "schema/openrpc.json is stale: run `make schema`")
        let names = OpenRPC.document["methods"]?.array?.compactMap { $0["name"]?.string } ?? []
        #expect(names == RequestHandler.methods)
    }

    @Test func openRPCReferencesResolve() {
        let schemas = OpenRPC.document["components"]?["schemas"]?.object ?? JSONObject()
        var refs: [String] = []
        func walk(_ v: JSONValue) {
            switch v {
            case .object(let o):
                for (k, x) in o { if k == "$ref", let r = x.string { refs.append(r) } else { walk(x) } }
            case .array(let a): a.forEach(walk)
            default: break
            }
        }
        walk(OpenRPC.document)
        #expect(!refs.isEmpty)
        for ref in refs {
            #expect(
                ref.hasPrefix("#/components/schemas/") && schemas[String(ref.dropFirst(21))] != nil, "unresolved \(ref)"
            )
        }
    }

    @Test func inliningLeavesNoReferences() {
        for name in RequestHandler.methods {
            for part in ["params", "result"] {
                let text = JSONWriter.string(PipeSchema.inlined(PipeSchema.method(name)?[part] ?? .null))
                #expect(!text.contains("$ref"), "\(name).\(part) keeps a $ref")
            }
        }
        #expect(
            PipeSchema.inlined(PipeSchema.method("ingest")?["params"] ?? .null)["properties"]?["records"]?["items"]
                == PipeSchema.record)
    }
}
