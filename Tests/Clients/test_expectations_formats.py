"""`entityidx test`'s four CI formats, each read by what reads it: the JUnit XML against the JUnit XML schema of
Jenkins (junit-10.xsd beside this file), TAP through tap.py's parser, the GitHub workflow commands against the syntax
GitHub documents, and the JSON report against schema/test-report.schema.json (the pipe's `test` result against
pipe.schema.json's `methods.test.result`, the same report without `file` and `line`).

Each runs on data/expectations.json and its records (all pass), on a copy where one case expects another id (that
case fails) and on a copy where one case's Spotlight query does not parse (that case is wrong)."""
import copy
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import urllib.parse

import jsonschema
import referencing
import xmlschema
from tap.parser import Parser

import support

HERE = os.path.dirname(os.path.abspath(__file__))
NOW = "2026-11-20T10:00:00Z"
RECORDS = ["customers.ndjson", "products.json", "orders.json"]
SAMPLE = os.path.join(support.REPO, "data", "expectations.json")
# The failing copy: the spoken case expects another customer first, and its name holds what a workflow command's
# property must escape (`:` is already there; `,` and `%` are added).
FAILING_NAME = "spoken: show me ada, 100% sure"
# GitHub's syntax of a workflow command with properties (docs: "Setting an error message").
COMMAND = re.compile(r"^::(error|warning|notice)( [a-z]+=[^,:]*(,[a-z]+=[^,:]*)*)?::.*$")
SUMMARY = re.compile(r"^\d+ cases?: \d+ passed, \d+ failed(, \d+ wrong)?$")


def load_schema(name):
    return support.load(os.path.join("schema", name))


REPORT_SCHEMA = load_schema("test-report.schema.json")
REGISTRY = referencing.Registry().with_resources(
    (s["$id"], referencing.Resource.from_contents(s)) for s in (support.PIPE_SCHEMA, REPORT_SCHEMA))


def validator(uri):
    return jsonschema.Draft202012Validator({"$ref": uri}, registry=REGISTRY)


class ExpectationFormatTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="entityidx-formats-")
        with open(SAMPLE, encoding="utf-8") as f:
            text = f.read()
        cls.cases = json.loads(text)
        cls.failing_index = next(i for i, c in enumerate(cls.cases) if c["name"] == "spoken: show me ada")
        failing_text = text.replace('"top": ["customer/c1"]', '"top": ["customer/c2"]', 1).replace(
            '"name": "spoken: show me ada"', '"name": ' + json.dumps(FAILING_NAME), 1)
        assert failing_text.count("customer/c2") == text.count("customer/c2") + 1, "the sample changed"
        cls.wrong_index = next(i for i, c in enumerate(cls.cases) if "spotlight" in c)
        wrong_query = json.dumps(cls.cases[cls.wrong_index]["spotlight"]["query"])
        wrong_text = text.replace(wrong_query, json.dumps("tags == (("), 1)
        assert wrong_text != text, "the sample changed"
        cls.files = {"passing": SAMPLE, "failing": cls.write("failing.json", failing_text),
                     "wrong": cls.write("wrong.json", wrong_text)}
        cls.report_cache = {}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.directory, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def run_test(self, which, fmt):
        """(exit status, stdout) of `entityidx test` on one of the files, in a format."""
        records = [a for name in RECORDS for a in ("--records", os.path.join(support.REPO, "data", name))]
        done = subprocess.run([support.BINARY, "--now", NOW, "test", self.files[which], *records, "--format", fmt],
                              capture_output=True, text=True, timeout=support.HANG)
        self.assertEqual(done.returncode, {"passing": 0, "failing": 1, "wrong": 2}[which], done.stdout + done.stderr)
        return done.stdout

    def report(self, which):
        """The JSON report of a run (each run once)."""
        if which not in self.report_cache:
            self.report_cache[which] = json.loads(self.run_test(which, "json"))
        return self.report_cache[which]

    # JUnit XML

    def test_junit_is_valid_against_the_jenkins_schema(self):
        schema = xmlschema.XMLSchema(os.path.join(HERE, "junit-10.xsd"))
        for which in ("passing", "failing", "wrong"):
            with self.subTest(which):
                xml = self.run_test(which, "junit")
                errors = list(schema.iter_errors(xml))
                self.assertEqual(errors, [], f"{which}: {errors[:1]}")
                suites = schema.to_dict(xml)
                suite, = suites["testsuite"]
                self.assertEqual(suite["@file"], self.files[which])
                self.assertEqual(len(suite["testcase"]), len(self.cases))
                counts = {"passing": ("0", "0"), "failing": ("1", "0"), "wrong": ("0", "1")}[which]
                self.assertEqual((suite["@failures"], suite["@errors"]), counts)
                self.assertEqual((suites["@failures"], suites["@errors"]), counts)
                self.assertEqual((suite["@tests"], suites["@tests"]), (str(len(self.cases)),) * 2)

    def test_junit_has_the_failure_and_the_error(self):
        schema = xmlschema.XMLSchema(os.path.join(HERE, "junit-10.xsd"))
        for which, element, index in (("failing", "failure", self.failing_index), ("wrong", "error", self.wrong_index)):
            with self.subTest(which):
                suite, = schema.to_dict(self.run_test(which, "junit"))["testsuite"]
                bad = [(i, t) for i, t in enumerate(suite["testcase"]) if "failure" in t or "error" in t]
                self.assertEqual([i for i, _ in bad], [index])
                testcase = bad[0][1]
                detail, = testcase[element]
                line = self.report(which)["cases"][index]["line"]
                self.assertTrue(detail["$"].startswith(f"{self.files[which]}:{line}\n"), detail["$"])
                self.assertTrue(detail["@message"])
                if which == "failing":
                    self.assertEqual(testcase["@name"], FAILING_NAME)
                    self.assertEqual(detail["@type"], "top")
                    self.assertIn('top: expected first "customer/c2"', detail["$"])

    # TAP

    def parse_tap(self, which):
        lines = list(Parser().parse_text(self.run_test(which, "tap")))
        self.assertEqual([line.category for line in lines[:2]], ["version", "plan"])
        self.assertEqual(lines[0].version, 14)
        self.assertEqual(lines[1].expected_tests, len(self.cases))
        self.assertEqual({line.category for line in lines[2:]}, {"test"}, "nothing tap.py cannot place")
        results = lines[2:]
        self.assertEqual([r.number for r in results], list(range(1, len(self.cases) + 1)))
        return results

    def test_tap_passing(self):
        results = self.parse_tap("passing")
        self.assertTrue(all(r.ok for r in results))
        self.assertEqual([r.description for r in results], [f"- {c['name']}" for c in self.cases])

    def test_tap_failing_and_wrong(self):
        for which, index, severity in (("failing", self.failing_index, "fail"), ("wrong", self.wrong_index, "error")):
            with self.subTest(which):
                results = self.parse_tap(which)
                self.assertEqual([r.number for r in results if not r.ok], [index + 1])
                block = results[index].yaml_block
                self.assertEqual(block["severity"], severity)
                self.assertEqual(block["at"], {"file": self.files[which],
                                               "line": self.report(which)["cases"][index]["line"]})
                self.assertTrue(block["message"])
                if which == "failing":
                    self.assertEqual(results[index].description, f"- {FAILING_NAME}")
                    self.assertEqual(block["expected"], ["customer/c2"])
                    self.assertEqual(block["got"][:1], ["customer/c1"])

    # GitHub workflow commands

    def commands(self, which):
        """Each workflow command of a run as (command, properties decoded, message decoded); the last line is the
        summary, a plain log line."""
        lines = self.run_test(which, "github").split("\n")
        self.assertEqual(lines[-1], "", "the output ends with a line end")
        *commands, summary = lines[:-1]
        self.assertRegex(summary, SUMMARY)
        parsed = []
        for line in commands:
            self.assertRegex(line, COMMAND)
            self.assertNotIn("\r", line)
            head, message = line[2:].split("::", 1)
            name, _, props = head.partition(" ")
            properties = dict(p.split("=", 1) for p in props.split(","))
            parsed.append((name, {k: urllib.parse.unquote(v) for k, v in properties.items()},
                           urllib.parse.unquote(message)))
        return parsed

    def test_github_passing_is_the_summary_alone(self):
        self.assertEqual(self.commands("passing"), [])

    def test_github_annotates_the_failing_and_the_wrong_case(self):
        for which, index in (("failing", self.failing_index), ("wrong", self.wrong_index)):
            with self.subTest(which):
                (name, properties, message), = self.commands(which)
                case = self.report(which)["cases"][index]
                self.assertEqual(name, "error")
                self.assertEqual(properties, {"file": self.files[which], "line": str(case["line"]),
                                              "title": f"entityidx test: {case['name']}"})
                self.assertTrue(message.startswith(f"{case['failures'][0]['expectation']}: "), message)
                if which == "failing":
                    self.assertEqual(case["name"], FAILING_NAME)
                    self.assertIn("\n", message, "the side-by-side rows, as lines once decoded")

    def test_github_escapes_properties_and_message(self):
        (_, _, _), = self.commands("failing")
        raw = next(line for line in self.run_test("failing", "github").split("\n") if line.startswith("::"))
        self.assertIn(",title=entityidx test%3A spoken%3A show me ada%2C 100%25 sure::", raw)
        self.assertIn("%0A", raw.split("::", 2)[2])

    def test_github_a_wrong_file(self):
        path = self.write("malformed.json", '[\n {"name": "n, at: 100%",\n  "serch": {}, "expect": {"empty": true}}]')
        records = [a for name in RECORDS for a in ("--records", os.path.join(support.REPO, "data", name))]
        done = subprocess.run([support.BINARY, "test", path, *records, "--format", "github"],
                              capture_output=True, text=True, timeout=support.HANG)
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        lines = done.stdout.splitlines()
        self.assertTrue(lines)
        for line in lines:
            self.assertRegex(line, COMMAND)
        self.assertTrue(lines[0].startswith(f"::error file={path},line=2,title=entityidx test::"), lines[0])

    # JSON

    def test_json_report_is_valid_against_its_schema(self):
        jsonschema.Draft202012Validator.check_schema(REPORT_SCHEMA)
        check = validator(REPORT_SCHEMA["$id"])
        for which in ("passing", "failing", "wrong"):
            with self.subTest(which):
                report = self.report(which)
                check.validate(report)
                counts = {"passing": (len(self.cases), 0, 0), "failing": (len(self.cases) - 1, 1, 0),
                          "wrong": (len(self.cases) - 1, 0, 1)}[which]
                self.assertEqual((report["passed"], report["failed"], report["wrong"]), counts)
                self.assertEqual([c["index"] for c in report["cases"]], list(range(len(self.cases))))
                self.assertEqual({c["file"] for c in report["cases"]}, {self.files[which]})
        wrong = self.report("wrong")["cases"][self.wrong_index]
        self.assertEqual((wrong["status"], wrong["error"]["data"]["code"]), ("wrong", "invalid_query"))
        self.assertEqual(self.report("failing")["cases"][self.failing_index]["failures"][0]["expectation"], "top")

    def test_the_pipes_result_is_the_report_without_file_and_line(self):
        db = support.fresh_db()
        client = support.LineClient(db, "pipe", now=NOW)
        try:
            _, error = client.call("ingest", {"records": support.sample_records()})
            self.assertIsNone(error)
            for which in ("passing", "wrong"):
                with self.subTest(which):
                    with open(self.files[which], encoding="utf-8") as f:
                        cases = json.load(f)
                    result, error = client.call("test", {"cases": cases, "now": NOW})
                    self.assertIsNone(error)
                    validator(support.PIPE_SCHEMA["$id"] + "#/methods/test/result").validate(result)
                    self.assertFalse(validator(REPORT_SCHEMA["$id"]).is_valid(result), "file and line are required")
                    report = copy.deepcopy(self.report(which))
                    for c in report["cases"]:
                        del c["file"], c["line"]
                    self.assertEqual(support.without_volatile(result), support.without_volatile(report))
        finally:
            client.close()
            shutil.rmtree(os.path.dirname(db), ignore_errors=True)

    def test_the_report_schema_is_the_pipes_result_with_file_and_line(self):
        report = copy.deepcopy(REPORT_SCHEMA)
        for key in ("$schema", "$id", "title", "description"):
            del report[key]
        items = report["properties"]["cases"]["items"]
        self.assertEqual(items["required"][:2], ["file", "line"])
        del items["required"][:2], items["properties"]["file"], items["properties"]["line"]
        items["properties"]["error"]["$ref"] = "#/$defs/error"

        def plain(schema):
            """A schema without its descriptions, which say where a case comes from."""
            if isinstance(schema, dict):
                return {k: plain(v) for k, v in schema.items() if k != "description"}
            return [plain(v) for v in schema] if isinstance(schema, list) else schema

        self.assertEqual(plain(report), plain(support.PIPE_SCHEMA["methods"]["test"]["result"]))


if __name__ == "__main__":
    unittest.main()
