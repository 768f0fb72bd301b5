"""Shared helpers for the client tests: the binary, the sample data, a line-delimited pipe client."""
import json
import os
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("ENTITYIDX_BIN", os.path.join(REPO, ".build", "debug", "entityidx")))
NOW = "2026-03-02T09:00:00Z"
# Seconds after which a wait (for a process, an answer, a connection) is taken for a hang. How long a step takes
# depends on the machine and on what else runs on it, so no test passes or fails on a time: a loaded machine is slow,
# not this slow.
HANG = 120


def load(path):
    """A JSON file of the repository."""
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        return json.load(f)


PIPE_SCHEMA = load("schema/pipe.schema.json")


def sample_records():
    """Every record of data/ (customers, products, orders)."""
    with open(os.path.join(REPO, "data", "customers.ndjson"), encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    for name in ("products.json", "orders.json"):
        records += load(os.path.join("data", name))
    return records


def fresh_db():
    return os.path.join(tempfile.mkdtemp(prefix="entityidx-clients-"), "index.sqlite")


def without_volatile(result):
    """A result with the fields that differ between two databases or runs (path, size, clock, time taken) left out."""
    if isinstance(result, dict):
        return {k: without_volatile(v) for k, v in result.items() if k not in ("path", "databaseBytes", "now", "seconds")}
    if isinstance(result, list):
        return [without_volatile(v) for v in result]
    return result


class LineClient:
    """`entityidx pipe` driven one JSON message per line."""

    def __init__(self, db, *args, now=NOW):
        self.process = subprocess.Popen([BINARY, "--db", db, "--now", now, *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def call(self, method, params=None):
        """(result, error) of one request."""
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        response = json.loads(self.process.stdout.readline())
        assert response["id"] == self.next_id, response
        return response.get("result"), response.get("error")

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=HANG)
        self.process.stdout.close()


def script(records):
    """Calls of every pipe method, in an order that gives each one something to do.

    Each entry is (method, params or a function of the earlier results giving them).
    """
    return [
        ("ingest", {"records": records}),
        ("get", {"type": "order", "ids": ["1042", "missing", 7]}),
        ("search", {"query": "1042", "limit": 5}),
        ("search", {"query": "tea", "type": "product", "filters": [{"property": "price", "op": "lt", "value": 50}]}),
        ("complete", {"prefix": "wid", "limit": 3}),
        ("suggest", {"limit": 5}),
        ("all", {"type": "product", "limit": 3}),
        ("query", {"type": "order", "filters": [{"property": "status", "op": "eq", "value": "shipped"}],
                   "sort": [{"property": "total", "order": "desc"}], "limit": 5}),
        ("related", {"type": "order", "id": "1042"}),
        ("donate", {"type": "order", "id": "1042"}),
        ("batch.begin", {}),
        ("ingest", {"records": [{"type": "note", "id": "n1", "title": "Batch note"}]}),
        ("batch.end", {"clientState": "s1"}),
        ("batch.begin", {}),
        ("ingest", {"records": [{"type": "note", "id": "n2", "title": "Rolled back"}]}),
        ("batch.abort", {}),
        ("state", {}),
        ("reindex.request", {"type": "customer"}),
        ("reindex.pending", {}),
        ("reindex.ack", lambda results: {"requestId": results["reindex.request"]["requestId"]}),
        ("declare", {"type": "product", "properties": [{"name": "price", "kind": "number"}]}),
        ("declarations", {}),
        ("stats", {}),
        ("lint", {"records": [{"type": "order", "id": "A-1042", "title": "Order #1042-A", "domain": "shop.orders.2025"}]}),
        ("drill", {"records": records[:5]}),
        ("rpc.discover", {}),
        ("spotlight", {"query": 'title == "*widget*"c || price < 10', "fetchAttributes": ["title", "price"]}),
        ("userQuery", {"query": "wid", "maxItems": 3, "maxSuggestions": 3}),
        ("test", {"cases": [{"name": "an order by its number", "search": {"query": "1042"},
                             "expect": {"contains": ["order/1042"]}}]}),
        ("delete", {"type": "customer", "domains": ["shop.customers.de"]}),
    ]


def run_script(call, records):
    """Runs the script through `call(method, params) -> (result, error)`; returns [(method, result, error)]."""
    results, transcript = {}, []
    for method, params in script(records):
        if callable(params):
            params = params(results)
        result, error = call(method, params)
        results[method] = result
        transcript.append((method, result, error))
    return transcript
