#!/usr/bin/env python3
"""`entityidx … pipe` answered by `entityidx serve`: each line read on stdin is POSTed to /rpc on one keep-alive
connection and the body of the answer is written as a line (nothing for a 204), so that a client of the pipe, the
contract check among them, runs unchanged against serve. As any HTTP client of serve does, it keeps the id that
batch.begin answers and sends it in the Entityidx-Batch header until batch.end or batch.abort. Usage: rpc-over-http.py [--db DB] [--now T] pipe, with
ENTITYIDX_BIN naming the binary; any other command runs the binary itself."""
import ctypes
import http.client
import json
import os
import signal
import secrets
import subprocess
import sys

binary = os.environ.get("ENTITYIDX_BIN", "entityidx")
args = sys.argv[1:]
if "pipe" not in args:
    os.execvp(binary, [binary, *args])
token = secrets.token_hex(32)


def end_with_parent():
    """The server gets SIGTERM when this process dies (PR_SET_PDEATHSIG), as a pipe's process ends with its client."""
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)


serve = subprocess.Popen([binary, *[a for a in args if a != "pipe"], "serve", "--port", "0", "--allow-writes"],
                         stdout=subprocess.PIPE, env={**os.environ, "ENTITYIDX_TOKEN": token}, text=True,
                         preexec_fn=end_with_parent)
port = int(serve.stdout.readline().strip().rsplit(":", 1)[1])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
batch = None


def methods(value):
    """The methods of a message and the results of its answer, paired (one pair per request of a batch)."""
    return value if isinstance(value, list) else [value]


try:
    for line in sys.stdin.buffer:
        sent = {**headers, **({"Entityidx-Batch": batch} if batch else {})}
        connection.request("POST", "/rpc", body=line.rstrip(b"\r\n"), headers=sent)
        response = connection.getresponse()
        body = response.read()
        try:
            requests, answers = methods(json.loads(line)), methods(json.loads(body)) if body else []
        except ValueError:
            requests, answers = [], []
        by_id = {a.get("id"): a for a in answers if isinstance(a, dict)}
        for request in requests:
            answer = by_id.get(request.get("id")) if isinstance(request, dict) else None
            method = request.get("method") if isinstance(request, dict) else None
            if method == "batch.begin" and answer and "batch" in (answer.get("result") or {}):
                batch = answer["result"]["batch"]
            elif method in ("batch.end", "batch.abort") and answer and batch:
                # Applied, refused or rolled back, the batch is over; only bad params leave it open.
                code = ((answer.get("error") or {}).get("data") or {}).get("code")
                if code not in ("invalid_params", "limit_exceeded"):
                    batch = None
        if response.status != 204:
            sys.stdout.buffer.write(body + b"\n")
            sys.stdout.buffer.flush()
finally:
    serve.terminate()
    serve.wait()
