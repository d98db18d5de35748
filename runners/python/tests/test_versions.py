"""The runner's version awareness, against whichever toolnexus release the interpreter has installed.

Run with a venv's python from runners/python (README.md "Versions"), e.g.

    .build/published-0.16.0/venv/bin/python -m unittest discover -s tests -v

- the handshake names the installed release and the releases the runner supports;
- a call without a toolkit succeeds on every release, and its answer carries a `notes` entry exactly
  when the runner substituted an empty toolkit (releases whose Client.run requires one);
- an HTTP error is typed `http` with the status and body on every release (ProviderError or the
  older _HttpError), still with the notes;
- a classifier that fails still yields a typed `error` answer, never a crash.
"""
from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.metadata import version
from unittest import mock

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)

import features  # noqa: E402
import protocol  # noqa: E402

COMPLETION = {"id": "x", "object": "chat.completion", "model": "m",
              "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hello"}}],
              "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}


class _Upstream(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.startswith("/down/"):
            body, status = b"upstream down", 503
        else:
            body, status = json.dumps(COMPLETION).encode(), 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if status == 200 else "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class RunnerProcess(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _Upstream)
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.base = f"http://127.0.0.1:{cls.server.server_address[1]}"

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.shutdown()
        cls.server.server_close()
        cls.thread.join(timeout=5)

    def converse(self, requests: list[dict]) -> list[dict]:
        lines = [{"type": "hello", "from": "harness", "protocol": protocol.PROTOCOL_VERSION}]
        lines += [{"type": "request", "seq": i + 1, **r} for i, r in enumerate(requests)]
        done = subprocess.run([sys.executable, "-u", "runner.py"], cwd=HERE, timeout=60, capture_output=True,
                              input="".join(json.dumps(line) + "\n" for line in lines), text=True)
        return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]

    def test_version_notes_and_typed_http_error(self) -> None:
        answers = self.converse([
            {"op": "client.create", "input": {"handle": "ok", "baseUrl": self.base, "style": "openai", "model": "m"}},
            {"op": "client.create", "input": {"handle": "down", "baseUrl": self.base + "/down", "style": "openai",
                                              "model": "m", "retries": 0}},
            {"op": "client.run", "input": {"client": "ok", "prompt": "hi"}},
            {"op": "client.stream", "input": {"client": "ok", "prompt": "hi"}},
            {"op": "client.run", "input": {"client": "down", "prompt": "hi"}},
        ])
        hello, _, _, run, _stream, down = answers
        release = version("toolnexus")
        self.assertEqual(hello["implementation"]["version"], release)
        self.assertEqual(hello["implementation"]["supports"], protocol.SUPPORTS)

        self.assertEqual(run["type"], "result", run)
        self.assertEqual(run["value"]["text"], "hello")
        self.assertEqual(down["type"], "error", down)
        self.assertEqual(down["error"]["kind"], "http", down)
        self.assertEqual(down["error"]["details"]["status"], 503)
        self.assertIn("upstream down", str(down["error"]["details"]["bodyExcerpt"]))
        if features.client_requires_toolkit():
            for answer in (run, down):
                self.assertEqual(len(answer.get("notes", [])), 1, answer)
                self.assertIn("empty toolkit", answer["notes"][0])
                self.assertIn(f"toolnexus {release}'s Client.run", answer["notes"][0])
        else:
            for answer in (run, down):
                self.assertNotIn("notes", answer)
        for answer in answers[1:3]:
            self.assertNotIn("notes", answer)  # client.create substitutes nothing


class ClassifierFailure(unittest.TestCase):
    def test_a_failing_classifier_still_yields_a_typed_error(self) -> None:
        async def boom(_payload: dict, _session: object) -> None:
            raise ValueError("from the port")

        out = io.StringIO()
        server = protocol.Server(out)
        server.operations = {"x.boom": boom}
        with mock.patch.object(protocol, "classify", side_effect=AttributeError("classifier broke")), \
                mock.patch("sys.stderr", io.StringIO()):
            asyncio.run(server.request({"type": "request", "seq": 1, "op": "x.boom", "input": {}}))
        answer = json.loads(out.getvalue())
        self.assertEqual(answer["type"], "error", answer)
        self.assertEqual(answer["error"], {"kind": "other", "type": "builtins.ValueError", "message": "from the port"})

    def test_port_error_classes_are_looked_up_by_name(self) -> None:
        classes = protocol._port_error_classes()  # noqa: SLF001
        self.assertIsNotNone(classes["http"], "neither ProviderError nor _HttpError in toolnexus.client")


if __name__ == "__main__":
    unittest.main()
