"""Test support: the shared signing vectors and a scripted HTTP service in a thread.

The fake service is the Python twin of sdk/test/fake-service.ts, but a real HTTP server: the
client's urllib transport (redirects, error statuses, dropped connections, timeouts) is exercised
as it is in production.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union
from urllib.parse import parse_qsl

#: The repository's vector file, the one the TypeScript client and the service's tests check too.
VECTORS_PATH = Path(__file__).resolve().parents[3] / "sdk" / "vectors" / "signing-vectors.json"


def load_vectors() -> Dict[str, Any]:
    with VECTORS_PATH.open(encoding="utf-8") as file:
        return json.load(file)


@dataclass
class Reply:
    """One scripted answer; ``json`` is serialized, ``text`` is sent as is (HTML by default)."""

    status: int = 200
    json: Any = None
    text: Optional[str] = None
    headers: Dict[str, str] = field(default_factory=dict)


class Drop:
    """Closes the connection without answering: what a client sees when nothing answers."""


class Hang:
    """Answers nothing until the service closes (a timeout on the client's side)."""


Script = Union[Reply, Drop, Hang, Callable[["SeenRequest"], Union[Reply, Drop, Hang]]]


@dataclass
class SeenRequest:
    method: str
    path: str
    #: Header names in lower case.
    headers: Dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def form(self) -> Dict[str, str]:
        return dict(parse_qsl(self.text, keep_blank_values=True))

    def json(self) -> Any:
        return json.loads(self.text)


def standard_ok(data: Dict[str, Any], **top: Any) -> Reply:
    return Reply(json={**top, "code": 0, "success": True, "msg": "ok", "data": data, "request_id": "r"})


def standard_failure(code: int, status: int = 200) -> Reply:
    return Reply(status=status, json={"code": code, "success": False, "msg": f"failure {code}", "request_id": "r"})


class FakeService:
    """Records every request and answers from a script: one reply per request, the last one repeated."""

    def __init__(self, *replies: Script) -> None:
        self.replies = list(replies)
        self.seen: List[SeenRequest] = []
        self._released = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.block_on_close = False  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self._released.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FakeService":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _next(self, request: SeenRequest) -> Union[Reply, Drop, Hang]:
        self.seen.append(request)
        script = self.replies[min(len(self.seen), len(self.replies)) - 1]
        return script if isinstance(script, (Reply, Drop, Hang)) else script(request)

    def _handler(self) -> type:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:  # keep the test output clean
                pass

            def do_POST(self) -> None:
                self._answer()

            def do_GET(self) -> None:
                self._answer()

            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {name.lower(): value for name, value in self.headers.items()}
                reply = service._next(SeenRequest(self.command, self.path, headers, body))
                if isinstance(reply, Hang):
                    service._released.wait(10)
                if not isinstance(reply, Reply):
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                payload = (reply.text if reply.text is not None else json.dumps(reply.json)).encode("utf-8")
                content_type = "application/json" if reply.json is not None else "text/html"
                self.send_response(reply.status)
                sent = {"content-type": content_type, **{k.lower(): v for k, v in reply.headers.items()}}
                for name, value in sent.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler


def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
