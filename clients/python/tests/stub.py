"""A stand-in for a node in the retry and TLS tests: an HTTP server on a free local port that
records each request and answers it with the next canned response (500 when none is left)."""

from __future__ import annotations

import http.server
import queue
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class Canned:
    status: int
    body: str = ""
    headers: Dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (to exceed a client's timeout)


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes


class StubNode:
    def __init__(self, tls: Optional[ssl.SSLContext] = None) -> None:
        self.requests: List[Recorded] = []
        self._answers: "queue.Queue[Canned]" = queue.Queue()
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                stub.requests.append(Recorded(self.command, self.path, dict(self.headers), body))
                try:
                    canned = stub._answers.get_nowait()
                except queue.Empty:
                    canned = Canned(500, "no canned response left in the stub")
                if canned.delay:
                    time.sleep(canned.delay)
                data = canned.body.encode("utf-8")
                try:
                    self.send_response(canned.status)
                    for name, value in canned.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (timeout test)

            do_GET = do_POST = do_PUT = do_DELETE = _handle

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self._server.server_address[1]}"

    def reply(self, status: int, body: str = "", headers: Optional[Dict[str, str]] = None, delay: float = 0.0) -> "StubNode":
        self._answers.put(Canned(status, body, headers or {}, delay))
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "StubNode":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
