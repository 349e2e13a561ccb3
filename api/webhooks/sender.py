"""One delivery attempt: a POST to a checked address, never following a redirect (a 3xx is a
failure), keeping at most EXCERPT_BYTES of the answer and reading at most BODY_CAP of it. An
attempt has a deadline for all of it (the name's lookup, connect, TLS, send, the whole answer),
however the receiver spends it: one trickling a byte a second, or hanging after its headers,
is cut off at the deadline, and no wait (a read, a write, the connect) lasts longer than the
idle timeout. A Connections keeps one connection per receiver URL (keep-alive: no new TCP and
TLS handshake per message), resolved and checked when opened, and used for at most half a
minute."""
from __future__ import annotations

import functools
import http.client
import socket
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from api import bounded_sockets
from api.bounded_sockets import Bounded
from api.webhooks.addresses import AddressRefused, Policy, resolve

if TYPE_CHECKING:
    pass  # what readinto and recv_into fill

EXCERPT_BYTES = 256
BODY_CAP = 64 * 1024  # an answer longer than this is not read to its end: the connection closes
DEADLINE_S = 15.0  # an attempt's whole time, as the Standard Webhooks guidance suggests
USER_AGENT = "game-server-webhooks/1"
Lookup = Callable[..., list[Any]]  # socket.getaddrinfo's shape: (host, port, type=...) -> address infos


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context (the CA bundle loaded: about 20 ms of CPU), made at the first HTTPS
    delivery, not at the import of every process, most of which never deliver (issue 48)."""
    return ssl.create_default_context()


@dataclass
class Outcome:
    ok: bool
    status: int | None  # the HTTP status, None when there was no answer
    duration_ms: int
    error: str | None = None  # why it failed (a timeout, the network; None when answered)
    excerpt: str = ""
    retry_after_s: float | None = None  # what a 429 or 503 asked for (Retry-After), from now


def retry_after_s(value: str | None, now: float) -> float | None:
    """A Retry-After header's wait in seconds: a number of seconds, or an HTTP date (RFC 9110);
    None when absent or unreadable."""
    value = (value or "").strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000": UTC, as HTTP dates are
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


class Budget(bounded_sockets.Budget):
    """An attempt's time: its deadline set per attempt (`until`), the longest single wait fixed."""

    def __init__(self, idle_s: float):
        super().__init__(idle_s, what="attempt")


def bounded_lookup(lookup: Lookup, seconds: float) -> Lookup:
    """`lookup` (getaddrinfo) given at most `seconds`: a receiver's own name server may never
    answer. The lookup runs on a thread of its own, left to finish alone when it is late."""
    def bounded(host: str, port: int, type: int = 0) -> list[Any]:
        found: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                found["infos"] = lookup(host, port, type=type)
            except OSError as e:
                found["error"] = e
            finally:
                done.set()

        threading.Thread(target=run, name="webhook-lookup", daemon=True).start()
        if not done.wait(seconds):
            raise TimeoutError(f"no answer within {seconds:g} s")
        if "error" in found:
            raise found["error"]
        infos: list[Any] = found["infos"]
        return infos
    return bounded


def _no_delay(sock: socket.socket) -> socket.socket:
    """http.client sends a request's headers and its body in two writes; with Nagle's algorithm
    the body waits for the receiver's delayed ACK of the headers (20-40 ms a delivery on a
    kept-alive connection, measured: bench/README.md). http.client's own connect() sets
    TCP_NODELAY; these connects replace it, so they set it too."""
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a given address, the certificate checked against the URL's host name."""

    def __init__(self, host: str, port: int, address: str, budget: Budget) -> None:
        super().__init__(host, port, context=_tls())
        self._address = address
        self.budget = budget

    def connect(self) -> None:
        sock = _no_delay(socket.create_connection((self._address, self.port), self.budget.left()))
        sock.settimeout(self.budget.left())  # the handshake, all of it (ssl's do_handshake keeps a deadline)
        self.sock = Bounded(_tls().wrap_socket(sock, server_hostname=self.host), self.budget)


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, budget: Budget) -> None:
        super().__init__(host, port)
        self._address = address
        self.budget = budget

    def connect(self) -> None:
        self.sock = Bounded(_no_delay(socket.create_connection((self._address, self.port), self.budget.left())),
                             self.budget)


class Connections:
    """Kept-alive connections by URL, for a run of deliveries or a worker's life: a delivery
    job's messages, and the next jobs' to the same receiver, skip the TCP (and TLS) handshake.
    A connection is used for at most `max_age_s` (then the URL is resolved and its address
    checked again) and at most `max_open` are kept (the least recently used is closed). A
    reused connection the receiver closed meanwhile is replaced once, at once: no attempt is
    counted failed for it (a delivery is at least once anyway, under its id). Every attempt
    ends within `deadline_s`; no wait in it lasts more than `timeout_s`."""

    def __init__(self, policy: Policy, timeout_s: float, deadline_s: float = DEADLINE_S, max_age_s: float = 30.0,
                 max_open: int = 64, lookup: Lookup = socket.getaddrinfo) -> None:
        self.policy = policy
        self.timeout_s = timeout_s
        self.deadline_s = deadline_s
        self.max_age_s = max_age_s
        self.max_open = max_open
        self.lookup = lookup
        self._open: dict[str, Any] = {}  # url -> (target, connection, opened at: monotonic s), least recent first

    def post(self, url: str, body: bytes, headers: dict[str, Any]) -> Outcome:
        started = time.monotonic()
        return self._post(url, body, headers, started, started + self.deadline_s)

    def _post(self, url: str, body: bytes, headers: dict[str, Any], started: float, until: float) -> Outcome:
        def took() -> int:
            return int((time.monotonic() - started) * 1000)

        held = self._open.pop(url, None)
        if held is not None and started - held[2] > self.max_age_s:
            held[1].close()
            held = None
        reused = held is not None
        if held is None:
            budget = Budget(self.timeout_s)
            budget.until = until
            try:
                target = resolve(url, self.policy, bounded_lookup(self.lookup, budget.left()))
            except (AddressRefused, TimeoutError) as e:
                return Outcome(False, None, took(), f"refused: {e}")
            kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
            held = (target, kind(target.host, target.port, target.address, budget), time.monotonic())
        target, conn, _ = held
        conn.budget.until = until
        status, response = None, None
        try:
            conn.request("POST", target.path, body=body, headers={
                "Content-Type": "application/json", "User-Agent": USER_AGENT, **headers})
            response = conn.getresponse()
            status = response.status
            excerpt = response.read(EXCERPT_BYTES)
            response.read(BODY_CAP - len(excerpt))  # read to its end (up to the cap), to keep the connection
            if not response.will_close and response.isclosed():
                self._keep(url, held)
            else:
                _discard(conn, response)
            wait = retry_after_s(response.getheader("Retry-After"), time.time()) if status in (429, 503) else None
            return Outcome(200 <= status < 300, status, took(), None, excerpt.decode("utf-8", "replace"), wait)
        except TimeoutError:
            _discard(conn, response)
            late = time.monotonic() >= until - 0.01
            return Outcome(False, status, took(), f"timeout: past the attempt's {self.deadline_s:g} s deadline"
                           if late else f"timeout: silent for {self.timeout_s:g} s")
        except (OSError, http.client.HTTPException) as e:
            _discard(conn, response)
            if reused and status is None and isinstance(
                    e, (ConnectionResetError, BrokenPipeError, http.client.BadStatusLine)):
                return self._post(url, body, headers, started, until)  # the receiver closed the idle connection
            return Outcome(False, status, took(), f"{type(e).__name__}: {e}"[:200])

    def _keep(self, url: str, held: tuple[Any, ...]) -> None:
        while len(self._open) >= self.max_open:
            _, conn, _ = self._open.pop(next(iter(self._open)))
            conn.close()
        self._open[url] = held

    def close(self) -> None:
        for _, conn, _ in self._open.values():
            conn.close()
        self._open.clear()


def _discard(conn: http.client.HTTPConnection, response: http.client.HTTPResponse | None) -> None:
    """A connection not kept, and its answer (which holds the socket while open)."""
    if response is not None:
        response.close()
    conn.close()


def post(url: str, body: bytes, headers: dict[str, Any], policy: Policy, timeout_s: float,
         deadline_s: float = DEADLINE_S) -> Outcome:
    """One POST on a connection of its own."""
    connections = Connections(policy, timeout_s, deadline_s)
    try:
        return connections.post(url, body, headers)
    finally:
        connections.close()
