"""`entityidx serve` with the official MCP Python SDK over Streamable HTTP: both eras (server/discover and the
initialize handshake with its Mcp-Session-Id), every read tool answering as the pipe does, and a write tool that
needs the bearer token."""
import asyncio
import subprocess
import unittest
import urllib.error
import urllib.request

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

import support
from test_mcp import READ_CALLS, READ_TOOLS


class Serve:
    """`entityidx serve --port 0` on an index; its URL and token from its first lines."""

    def __init__(self, db, *extra):
        self.process = subprocess.Popen([support.BINARY, "--db", db, "--now", support.NOW, "serve", "--port", "0", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:"), line
        self.url = line.split(" ")[-1]
        self.token = None
        if "--allow-writes" in extra:
            self.token = self.process.stdout.readline().strip().split(" ")[-1]

    def close(self):
        self.process.terminate()
        status = self.process.wait(timeout=support.HANG)
        self.process.stdout.close()
        return status


class MCPOverHTTPTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.db = support.fresh_db()
        pipe = support.LineClient(cls.db, "pipe")
        _, error = pipe.call("ingest", {"records": support.sample_records()})
        assert error is None, error
        cls.pipe_results = [pipe.call(READ_TOOLS[tool], arguments) for tool, arguments in READ_CALLS]
        pipe.close()
        cls.serve = Serve(cls.db)

    @classmethod
    def tearDownClass(cls):
        assert cls.serve.close() == 143

    def run_client(self, server, mode, body):
        async def main():
            async with Client(server, mode=mode) as client:
                return await body(client)
        return asyncio.run(asyncio.wait_for(main(), support.HANG))

    def test_every_read_tool_in_both_eras(self):
        async def calls(client):
            tools = [t.name for t in (await client.list_tools()).tools]
            return client.protocol_version, tools, [await client.call_tool(tool, arguments) for tool, arguments in READ_CALLS]
        for mode in ("auto", "legacy"):
            version, tools, results = self.run_client(self.serve.url + "/mcp", mode, calls)
            self.assertEqual(version == "2026-07-28", mode == "auto", version)
            self.assertEqual(tools, list(READ_TOOLS), mode)
            for (tool, _), result, (pipe_result, pipe_error) in zip(READ_CALLS, results, self.pipe_results):
                self.assertIsNone(pipe_error)
                self.assertFalse(result.is_error, f"{mode} {tool}: {result.content}")
                self.assertEqual(support.without_volatile(result.structured_content),
                                 support.without_volatile(pipe_result), f"{mode} {tool}")

    def test_a_foreign_origin_is_refused(self):
        request = urllib.request.Request(self.serve.url + "/mcp", method="POST", data=b"{}",
                                         headers={"Content-Type": "application/json", "Origin": "http://evil.example",
                                                  "Accept": "application/json, text/event-stream"})
        with self.assertRaises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(request, timeout=support.HANG)
        self.assertEqual(caught.exception.code, 403)

    def test_a_write_tool_needs_the_token(self):
        db = support.fresh_db()
        serve = Serve(db, "--allow-writes")
        note = {"records": [{"type": "note", "id": "n1", "title": "Call the roastery"}]}

        async def ingest(headers):
            async with httpx2.AsyncClient(headers=headers, timeout=support.HANG) as http:
                async with Client(streamable_http_client(serve.url + "/mcp", http_client=http), mode="legacy") as client:
                    return await client.call_tool("ingest_records", note)

        async def listed(headers):
            async with httpx2.AsyncClient(headers=headers, timeout=support.HANG) as http:
                async with Client(streamable_http_client(serve.url + "/mcp", http_client=http), mode="legacy") as client:
                    return [tool.name for tool in (await client.list_tools()).tools]
        try:
            # The write tools are listed only to a client that holds the token.
            without = asyncio.run(asyncio.wait_for(listed({}), support.HANG))
            self.assertEqual(without, list(READ_TOOLS))
            holder = asyncio.run(asyncio.wait_for(listed({"Authorization": f"Bearer {serve.token}"}), support.HANG))
            self.assertEqual(holder[:len(READ_TOOLS)], list(READ_TOOLS))
            self.assertIn("ingest_records", holder)
            with self.assertRaises(Exception) as caught:
                asyncio.run(asyncio.wait_for(ingest({}), support.HANG))
            # The SDK raises the JSON-RPC error of the refused call (in its task groups' exception groups).
            self.assertIn("'code': 'unauthorized'", repr(caught.exception))
            result = asyncio.run(asyncio.wait_for(ingest({"Authorization": f"Bearer {serve.token}"}), support.HANG))
            self.assertFalse(result.is_error, result.content)
            self.assertEqual(result.structured_content["inserted"], 1)
        finally:
            serve.close()


if __name__ == "__main__":
    unittest.main()
