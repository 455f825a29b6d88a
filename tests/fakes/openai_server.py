"""A scripted fake OpenAI-compatible endpoint on 127.0.0.1 (``POST /v1/chat/completions``).

Why a real HTTP server: the code under test talks to the ``openai`` client, so
faking the wire (not patching the client) exercises its timeouts, status
handling and parsing exactly as a real endpoint would.

Each request takes the next scripted reply (or asks a callable for one):

- ``str``: the assistant message content, sent as-is (JSON or deliberately not);
- ``Reply(...)``: content and/or ``tool_calls``, an HTTP ``status`` with an error
  body, a ``delay`` in seconds before answering (to trigger client timeouts),
  or a ``raw`` body that is not even an OpenAI response.

Requests are recorded (parsed JSON bodies) for assertions.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT_PATH = "/v1/chat/completions"


@dataclass(frozen=True)
class Reply:
    """One scripted answer; the defaults make a plain 200 with ``content``."""

    content: str | None = None
    tool_calls: Sequence[dict[str, Any]] = ()
    status: int = 200
    delay: float = 0.0
    raw: str | None = None
    finish_reason: str | None = None

    @staticmethod
    def tool_call(name: str, arguments: dict[str, Any] | str, call_id: str = "") -> dict[str, Any]:
        """A ``tool_calls`` entry in the OpenAI wire shape (arguments as a JSON string)."""
        args = arguments if isinstance(arguments, str) else json.dumps(arguments)
        return {
            "id": call_id or f"call_{name}",
            "type": "function",
            "function": {"name": name, "arguments": args},
        }


Script = Sequence[str | Reply] | Callable[[dict[str, Any]], str | Reply]


@dataclass
class FakeOpenAI:
    """The running server: ``base_url`` for clients, ``requests`` it received."""

    script: Script
    host: str = "127.0.0.1"
    requests: list[dict[str, Any]] = field(default_factory=list)
    _index: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://{self.host}:{self._server.server_address[1]}/v1"

    def prompts(self) -> list[str]:
        """The text of the last message of every request, in arrival order."""
        return [str(r["messages"][-1].get("content", "")) for r in self.requests]

    def start(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != CHAT_PATH:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                self._answer(fake._next(body), body)

            def _answer(self, reply: Reply, body: dict[str, Any]) -> None:
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.raw is not None:
                    self._send_text(reply.status, reply.raw)
                elif reply.status != 200:
                    error = {"message": f"scripted HTTP {reply.status}", "type": "server_error"}
                    self._send(reply.status, {"error": error})
                else:
                    self._send(200, _completion(reply, str(body.get("model", "fake"))))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                self._send_text(status, json.dumps(payload), "application/json")

            def _send_text(self, status: int, text: str, ctype: str = "text/plain") -> None:
                data = text.encode("utf-8")
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout); nothing to tell it

            def log_message(self, format: str, *args: Any) -> None:
                """Keep test output quiet."""

        self._server = ThreadingHTTPServer((self.host, 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if callable(self.script):
                item = self.script(body)
            elif self._index < len(self.script):
                item = self.script[self._index]
            else:
                item = Reply(status=500, raw="fake OpenAI server: script exhausted")
            self._index += 1
        return item if isinstance(item, Reply) else Reply(content=item)


def _completion(reply: Reply, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = list(reply.tool_calls)
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


@contextmanager
def fake_openai(script: Script) -> Iterator[FakeOpenAI]:
    """Run a fake endpoint for the ``with`` block (use inside a pytest fixture or test)."""
    server = FakeOpenAI(script).start()
    try:
        yield server
    finally:
        server.stop()
