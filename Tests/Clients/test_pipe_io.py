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
import termios
import time
import unittest

import support


def request(i, method, params):
    return (json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode()


def io_counts(pid):
    """The process's I/O counters (/proc/PID/io): syscw is how many write calls it made, wchar their bytes."""
    with open(f"/proc/{pid}/io", encoding="ascii") as f:
        return {name: int(value) for name, value in (line.split(": ") for line in f.read().splitlines())}


def bytes_waiting(fd):
    """The bytes waiting in a pipe (FIONREAD)."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), "little")


def wait_until(condition):
    """Polls until the condition holds (True) or support.HANG seconds have passed (False)."""
    deadline = time.monotonic() + support.HANG
    while not condition():
        if time.monotonic() > deadline:
            return condition()
        time.sleep(0.002)
    return True


class PipeIOTests(unittest.TestCase):
    def test_replies_over_tcp_are_not_held_back(self):
        """Each reply is one write (message and line end together): Nagle's algorithm holds back the second of two
        small writes until the first is acknowledged, which took 44 ms a reply here (delayed ACK). The write calls
        are counted, which is the same at any load; the times are printed."""
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
        before = io_counts(pipe.pid)
        times, received = [], 0
        for i in range(1, 41):
            started = time.monotonic()
            client.sendall(request(i, "get", {"type": "task", "ids": ["1"]}))
            reply = replies.readline()
            times.append(time.monotonic() - started)
            self.assertIn(b'"One"', reply)
            received += len(reply)
        after = io_counts(pipe.pid)
        client.shutdown(socket.SHUT_WR)
        pipe.wait(timeout=support.HANG)
        replies.close()
        client.close()
        server.close()
        print(f"\n40 gets over TCP: median {statistics.median(times) * 1000:.2f} ms", flush=True)
        self.assertEqual(after["syscw"] - before["syscw"], 40, "one write per reply")
        self.assertEqual(after["wchar"] - before["wchar"], received, "the replies are all it wrote")

    def test_a_stopping_pipe_exits_though_its_reader_reads_nothing(self):
        db = support.fresh_db()
        records = [{"type": "item", "id": str(i), "title": f"Item {i}", "description": "words " * 200}
                   for i in range(2000)]
        subprocess.run([support.BINARY, "--db", db, "ingest", "-"], check=True, stdout=subprocess.DEVNULL,
                       input="\n".join(json.dumps(r) for r in records).encode())
        read_end, write_end = os.pipe()
        fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ: a small pipe fills at once
        capacity = fcntl.fcntl(write_end, 1032)  # F_GETPIPE_SZ
        pipe = subprocess.Popen([support.BINARY, "--db", db, "--now", support.NOW, "pipe"], stdin=subprocess.PIPE,
                                stdout=write_end, stderr=subprocess.DEVNULL)
        os.close(write_end)
        try:
            # A large reply fills the pipe; nobody reads it. Once it is full the pipe is blocked writing.
            pipe.stdin.write(request(1, "all", {"type": "item", "limit": 2000}))
            pipe.stdin.flush()
            self.assertTrue(wait_until(lambda: bytes_waiting(read_end) >= capacity or pipe.poll() is not None))
            pipe.send_signal(signal.SIGTERM)
            try:
                status = pipe.wait(timeout=support.HANG)
            except subprocess.TimeoutExpired:
                pipe.kill()
                pipe.wait()
                self.fail(f"the pipe was still blocked writing {support.HANG} s after SIGTERM")
        finally:
            os.close(read_end)
            pipe.stdin.close()
        self.assertEqual(status, -signal.SIGTERM if status < 0 else 128 + signal.SIGTERM)


if __name__ == "__main__":
    unittest.main()
