"""`entityidx pipe` with LSP framing, driven by python-lsp-jsonrpc, answers as the line-delimited pipe does."""
import io
import json
import subprocess
import threading
import unittest

from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.exceptions import JsonRpcException
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

import support


class LSPClient:
    """A python-lsp-jsonrpc endpoint talking to `entityidx pipe` over Content-Length framed stdio."""

    def __init__(self, db):
        self.process = subprocess.Popen([support.BINARY, "--db", db, "--now", support.NOW, "pipe"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.writer = JsonRpcStreamWriter(self.process.stdin)
        self.reader = JsonRpcStreamReader(self.process.stdout)
        self.endpoint = Endpoint({}, self.writer.write)
        self.listener = threading.Thread(target=self.reader.listen, args=(self.endpoint.consume,), daemon=True)
        self.listener.start()

    def call(self, method, params=None):
        try:
            return self.endpoint.request(method, params).result(timeout=support.HANG), None
        except JsonRpcException as e:
            return None, {"code": e.code, "message": e.message, "data": e.data}

    def close(self):
        self.writer.close()
        self.process.wait(timeout=support.HANG)
        self.listener.join(timeout=support.HANG)
        self.process.stdout.close()
        self.endpoint.shutdown()


class LSPFramingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.records = support.sample_records()

    def test_every_method_answers_as_on_lines(self):
        methods = {m for m, _ in support.script(self.records)}
        self.assertEqual(methods, set(support.PIPE_SCHEMA["methods"]), "the script must call every pipe method")
        lsp = LSPClient(support.fresh_db())
        lines = support.LineClient(support.fresh_db(), "pipe")
        try:
            framed = support.run_script(lsp.call, self.records)
            plain = support.run_script(lines.call, self.records)
        finally:
            lsp.close()
            lines.close()
        for (method, result, error), (_, line_result, line_error) in zip(framed, plain):
            self.assertIsNone(error, f"{method}: {error}")
            self.assertIsNotNone(result, method)
            self.assertEqual(support.without_volatile(result), support.without_volatile(line_result), method)
            self.assertIsNone(line_error, method)
        by_method = {m: r for m, r, _ in framed}
        self.assertEqual(by_method["ingest"], {"inserted": 1, "updated": 0, "unchanged": 0})
        self.assertEqual(by_method["get"]["entities"][0]["id"], "1042")
        self.assertEqual(by_method["state"], {"clientState": "s1"})
        self.assertEqual(by_method["rpc.discover"]["openrpc"], "1.3.2")

    def test_errors_are_the_same_in_both_framings(self):
        bad = [
            ("no.such", {}, -32601, "method_not_found"),
            ("search", {"query": "x", "limt": 3}, -32602, "invalid_params"),
            ("ingest", {"records": [{"type": "t", "id": "1"}]}, -32602, "invalid_record"),
            ("related", {"type": "order", "id": "none"}, -32000, "not_found"),
        ]
        lsp = LSPClient(support.fresh_db())
        lines = support.LineClient(support.fresh_db(), "pipe")
        try:
            for method, params, code, data_code in bad:
                _, framed = lsp.call(method, params)
                _, plain = lines.call(method, params)
                self.assertEqual(framed["code"], code, method)
                self.assertEqual(framed["data"]["code"], data_code, method)
                self.assertEqual(framed, plain, method)
        finally:
            lsp.close()
            lines.close()

    def test_bad_headers_and_stray_lines_are_answered_and_the_next_message_served(self):
        """A header with a NUL, a request sent as a line, and Content-Type before Content-Length: each is answered,
        read back with python-lsp-jsonrpc's own reader."""
        def frame(body, headers=b""):
            return b"Content-Length: %d\r\n" % len(body) + headers + b"\r\n" + body
        def request(i):
            return json.dumps({"jsonrpc": "2.0", "id": i, "method": "state"}).encode()
        stream = (b"Content-Length: 4\x00\r\n\r\n{}" + frame(request(1)) + request(2) + b"\n"
                  + frame(request(3), b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n"))
        process = subprocess.run([support.BINARY, "--db", support.fresh_db(), "pipe"], input=stream,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=support.HANG)
        answers = []
        JsonRpcStreamReader(io.BytesIO(process.stdout)).listen(answers.append)
        self.assertEqual([a.get("id") for a in answers], [None, 1, 2, 3])
        self.assertEqual(answers[0]["error"]["code"], -32700)
        self.assertEqual(answers[2]["error"]["code"], -32600)
        self.assertEqual(answers[3]["result"], {"clientState": None})
        # The same stream starting with Content-Type is still read as LSP.
        body = request(4)
        process = subprocess.run([support.BINARY, "--db", support.fresh_db(), "pipe"],
                                 input=b"Content-Type: application/json\r\n" + frame(body),
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=support.HANG)
        answers = []
        JsonRpcStreamReader(io.BytesIO(process.stdout)).listen(answers.append)
        self.assertEqual([a.get("id") for a in answers], [4])


if __name__ == "__main__":
    unittest.main()
