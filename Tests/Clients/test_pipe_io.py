"""How the pipe writes, seen from the other end of a socket or a pipe: a reply leaves at once over TCP (message and
line end in one write, which Nagle's algorithm would otherwise hold back), and a stopping pipe whose reader reads
nothing still exits."""
import fcntl
import json
import os
import signal
import socket
import statistics
import subprocess
import time
import unittest

import support


def request(i, method, params):
    return (json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode()


class PipeIOTests(unittest.TestCase):
    def test_replies_over_tcp_are_not_held_back(self):
        db = support.fresh_db()
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        client = socket.create_connection(server.getsockname())
        conn, _ = server.accept()
        pipe = subprocess.Popen(
            [support.BINARY, "--db", db, "--now", support.NOW, "pipe"],
            stdin=conn.fileno(), stdout=conn.fileno(), stderr=subprocess.DEVNULL)
        conn.close()
        replies = client.makefile("rb")
        client.sendall(request(0, "ingest", {"records": [{"type": "task", "id": "1", "title": "One"}]}))
        self.assertIn(b'"inserted":1', replies.readline())
        times = []
        for i in range(1, 41):
            started = time.monotonic()
            client.sendall(request(i, "get", {"type": "task", "ids": ["1"]}))
            self.assertIn(b'"One"', replies.readline())
            times.append(time.monotonic() - started)
        client.shutdown(socket.SHUT_WR)
        pipe.wait(timeout=10)
        # Two writes per reply took 44 ms each here (delayed ACK behind Nagle); one takes a fraction of a millisecond.
        self.assertLess(statistics.median(times), 0.02, f"median {statistics.median(times) * 1000:.1f} ms")

    def test_a_stopping_pipe_exits_though_its_reader_reads_nothing(self):
        db = support.fresh_db()
        records = [{"type": "item", "id": str(i), "title": f"Item {i}", "description": "words " * 200}
                   for i in range(2000)]
        subprocess.run([support.BINARY, "--db", db, "ingest", "-"], check=True, stdout=subprocess.DEVNULL,
                       input="\n".join(json.dumps(r) for r in records).encode())
        read_end, write_end = os.pipe()
        fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: a small pipe fills at once
        pipe = subprocess.Popen([support.BINARY, "--db", db, "--now", support.NOW, "pipe"], stdin=subprocess.PIPE,
                                stdout=write_end, stderr=subprocess.DEVNULL)
        os.close(write_end)
        # A large reply fills the pipe; nobody reads it.
        pipe.stdin.write(request(1, "all", {"type": "item", "limit": 2000}))
        pipe.stdin.flush()
        time.sleep(1)
        pipe.send_signal(signal.SIGTERM)
        started = time.monotonic()
        try:
            status = pipe.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pipe.kill()
            pipe.wait()
            self.fail("the pipe was still blocked writing 5 s after SIGTERM")
        finally:
            os.close(read_end)
        self.assertEqual(status, -signal.SIGTERM if status < 0 else 128 + signal.SIGTERM)
        self.assertLess(time.monotonic() - started, 1)


if __name__ == "__main__":
    unittest.main()
