"""One delivery attempt: a POST to a checked address with a short timeout, never following a
redirect (a 3xx is a failure), keeping at most EXCERPT_BYTES of the answer. A Connections
keeps one connection per receiver URL (keep-alive: no new TCP and TLS handshake per message),
resolved and checked when opened, and used for at most half a minute."""
from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from api.webhooks.addresses import AddressRefused, Policy, resolve

EXCERPT_BYTES = 256
USER_AGENT = "game-server-webhooks/1"
_tls = ssl.create_default_context()


@dataclass
class Outcome:
    ok: bool
    status: int | None  # the HTTP status, None when there was no answer
    duration_ms: int
    error: str | None = None  # why it failed, without an answer
    excerpt: str = ""


def _no_delay(sock: socket.socket) -> socket.socket:
    """http.client sends a request's headers and its body in two writes; with Nagle's algorithm
    the body waits for the receiver's delayed ACK of the headers (20-40 ms a delivery on a
    kept-alive connection, measured: bench/README.md). http.client's own connect() sets
    TCP_NODELAY; these connects replace it, so they set it too."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a given address, the certificate checked against the URL's host name."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout, context=_tls)
        self._address = address

    def connect(self):
        sock = _no_delay(socket.create_connection((self._address, self.port), self.timeout))
        self.sock = _tls.wrap_socket(sock, server_hostname=self.host)  # the context given to super()


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self):
        self.sock = _no_delay(socket.create_connection((self._address, self.port), self.timeout))


KEEP_ALIVE_BODY = 64 * 1024  # an answer longer than this is not read to its end: the connection closes


class Connections:
    """Kept-alive connections by URL, for a run of deliveries or a worker's life: a delivery
    job's messages, and the next jobs' to the same receiver, skip the TCP (and TLS) handshake.
    A connection is used for at most `max_age_s` (then the URL is resolved and its address
    checked again) and at most `max_open` are kept (the least recently used is closed). A
    reused connection the receiver closed meanwhile is replaced once, at once: no attempt is
    counted failed for it (a delivery is at least once anyway, under its id)."""

    def __init__(self, policy: Policy, timeout_s: float, max_age_s: float = 30.0, max_open: int = 64):
        self.policy = policy
        self.timeout_s = timeout_s
        self.max_age_s = max_age_s
        self.max_open = max_open
        self._open: dict = {}  # url -> (target, connection, opened at: monotonic s), least recent first

    def post(self, url: str, body: bytes, headers: dict) -> Outcome:
        started = time.monotonic()

        def took() -> int:
            return int((time.monotonic() - started) * 1000)

        held = self._open.pop(url, None)
        if held is not None and started - held[2] > self.max_age_s:
            held[1].close()
            held = None
        reused = held is not None
        if held is None:
            try:
                target = resolve(url, self.policy)
            except AddressRefused as e:
                return Outcome(False, None, took(), f"refused: {e}")
            kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
            held = (target, kind(target.host, target.port, target.address, self.timeout_s), started)
        target, conn, _ = held
        try:
            conn.request("POST", target.path, body=body, headers={
                "Content-Type": "application/json", "User-Agent": USER_AGENT, **headers})
            response = conn.getresponse()
            excerpt = response.read(EXCERPT_BYTES)
            reusable = not response.will_close and (response.length or 0) <= KEEP_ALIVE_BODY
            if reusable:
                response.read()
                self._keep(url, held)
            else:
                conn.close()
            return Outcome(200 <= response.status < 300, response.status, took(), None,
                           excerpt.decode("utf-8", "replace"))
        except TimeoutError:
            conn.close()
            return Outcome(False, None, took(), f"timeout after {self.timeout_s:g} s")
        except (OSError, http.client.HTTPException) as e:
            conn.close()
            if reused and isinstance(e, (ConnectionResetError, BrokenPipeError, http.client.BadStatusLine)):
                return self.post(url, body, headers)  # the receiver closed the idle connection: a new one, once
            return Outcome(False, None, took(), f"{type(e).__name__}: {e}"[:200])

    def _keep(self, url: str, held: tuple) -> None:
        while len(self._open) >= self.max_open:
            _, conn, _ = self._open.pop(next(iter(self._open)))
            conn.close()
        self._open[url] = held

    def close(self) -> None:
        for _, conn, _ in self._open.values():
            conn.close()
        self._open.clear()


def post(url: str, body: bytes, headers: dict, policy: Policy, timeout_s: float) -> Outcome:
    """One POST on a connection of its own."""
    connections = Connections(policy, timeout_s)
    try:
        return connections.post(url, body, headers)
    finally:
        connections.close()
