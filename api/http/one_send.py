"""gunicorn's HTTP/1 response, its head sent with the first body bytes: one send, not two.

gunicorn writes a response's status line and headers in one `sendall` and each body chunk in
another. On loopback and on a busy host a send is not cheap (the kernel does the receiver's
TCP work in it, and wakes the receiver once per segment): in a profile of moves beside live
streams the head's own send was 6.6% of the web workers' samples, the body's 8.0%
(bench/README.md, issue 30). Here the head waits for the body bytes of the same write and
leaves with them; a write that sends no body (HEAD, 204, a body past Content-Length, an empty
chunk) sends the head alone, at once, as before. Streams (SSE) are unchanged: gunicorn sends
the head with the first write either way, and every later write is sent as it comes.

Installed by api/http/gunicorn_config.py (HTTP/1 only; gunicorn picks its own HTTP/2 writer).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gunicorn.http import wsgi


class _Capture:
    """Stands in for the socket while gunicorn writes the head: keeps the bytes."""

    def __init__(self) -> None:
        self.data = b""

    def sendall(self, data: bytes) -> None:
        self.data += data


class Response(wsgi.Response):
    sock: Any  # gunicorn's socket, or a _Capture while a head is held (gunicorn has no types)
    _in_write = False
    _head = b""

    def write(self, arg: bytes) -> None:
        self._in_write = True
        try:
            super().write(arg)
        finally:
            self._in_write = False
            if self._head:  # no body bytes went out with it
                head, self._head = self._head, b""
                self.sock.sendall(head)

    def send_headers(self) -> None:
        if self.headers_sent or not self._in_write:
            super().send_headers()
            return
        self._head = self._captured(super().send_headers)

    def _emit_body(self, data: bytes) -> None:
        if not self._head:
            super()._emit_body(data)
            return
        head, self._head = self._head, b""
        self.sock.sendall(head + self._captured(super()._emit_body, data))  # framed as gunicorn frames it

    def _captured(self, send: Callable[..., None], *args: bytes) -> bytes:
        """What `send` would have sent on the socket."""
        sock, capture = self.sock, _Capture()
        self.sock = capture
        try:
            send(*args)
        finally:
            self.sock = sock
        return capture.data


def install() -> None:
    wsgi.Response = Response  # what wsgi.create builds for HTTP/1 (its response_class default)
