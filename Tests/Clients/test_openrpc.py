"""schema/openrpc.json is a valid OpenRPC 1.x document, it is what `rpc.discover` answers, and it matches the
method list and schema/pipe.schema.json."""
import re
import unittest

import jsonschema
import openrpc

import support


class OpenRPCTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.document = support.load("schema/openrpc.json")

    def test_the_openrpc_document_model_accepts_it(self):
        model = openrpc.OpenRPC.model_validate(self.document)
        self.assertRegex(model.openrpc, r"^1\.\d+\.\d+$")
        self.assertEqual(len(model.methods), len(support.PIPE_SCHEMA["methods"]))
        for method in model.methods:
            self.assertEqual(method.param_structure, openrpc.ParamStructure.BY_NAME, method.name)
            self.assertTrue(method.description, method.name)
        # The model ignores unknown keys; a round trip shows nothing of ours was dropped.
        dumped = model.model_dump(by_alias=True, exclude_unset=True, mode="json")
        self.assertEqual([m["name"] for m in dumped["methods"]], [m["name"] for m in self.document["methods"]])
        self.assertEqual(dumped["components"]["schemas"].keys(), self.document["components"]["schemas"].keys())

    def test_rpc_discover_answers_the_file(self):
        client = support.LineClient(support.fresh_db(), "pipe")
        try:
            result, error = client.call("rpc.discover")
        finally:
            client.close()
        self.assertIsNone(error)
        self.assertEqual(result, self.document, "schema/openrpc.json is stale: run `make schema`")

    def test_methods_and_params_match_the_pipe_schema(self):
        methods = support.PIPE_SCHEMA["methods"]
        self.assertEqual(sorted(m["name"] for m in self.document["methods"]), sorted(methods))
        defs = support.PIPE_SCHEMA["$defs"]
        for method in self.document["methods"]:
            params = methods[method["name"]]["params"]
            if "$ref" in params:
                params = defs[params["$ref"].split("/")[-1]]
            required = set(params.get("required", []))
            self.assertEqual([p["name"] for p in method["params"]], list(params.get("properties", {})), method["name"])
            for p in method["params"]:
                self.assertEqual(p["required"], p["name"] in required, f'{method["name"]}.{p["name"]}')

    def test_every_schema_is_valid_and_every_reference_resolves(self):
        schemas = self.document["components"]["schemas"]
        found = []

        def walk(value):
            if isinstance(value, dict):
                for key, v in value.items():
                    if key == "$ref":
                        found.append(v)
                    else:
                        walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)

        walk(self.document)
        self.assertTrue(found)
        for ref in found:
            match = re.fullmatch(r"#/components/schemas/(.+)", ref)
            self.assertTrue(match and match.group(1) in schemas, ref)
        for name, schema in schemas.items():
            jsonschema.Draft202012Validator.check_schema(schema)
        for method in self.document["methods"]:
            for descriptor in method["params"] + [method["result"]]:
                jsonschema.Draft202012Validator.check_schema(descriptor["schema"])


if __name__ == "__main__":
    unittest.main()
