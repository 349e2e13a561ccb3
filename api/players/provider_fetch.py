"""Reading an identity provider's documents (its key set, its discovery document) within one
deadline for all of it: the name's lookup, connect, TLS, the request and the whole answer,
however the provider spends it (issue 49: a keys endpoint trickling one byte every 2 s held a
sign-in 40.9 s, since a socket's timeout restarts with every byte).

The fetch runs on a thread of its own, and the caller waits for it at most `deadline_s`. On
that thread every wait (the connect, each write, each read) lasts at most what is left of the
deadline (and never more than `idle_s`), so a trickling or silent provider ends the thread at
the deadline too: only a name lookup that never answers outlives it, and it ends on its own.
urllib does the rest (redirects, proxies from the environment, TLS with the system's
certificates). Flask-free.
"""
from __future__ import annotations

import functools
import http.client
import json
import math
import socket
import ssl
import threading
import urllib.request
from typing import TYPE_CHECKING, Any

from api import bounded_sockets
from api.bounded_sockets import Bounded

if TYPE_CHECKING:
    pass

MAX_DOCUMENT = 1_000_000  # bytes: a key set is a few KB


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS context (the CA bundle loaded: about 20 ms of CPU), made at the first HTTPS fetch,
    not at the import of every process that never fetches a key set (issue 48)."""
    return ssl.create_default_context()


class Budget(bounded_sockets.Budget):
    """A fetch's time (from now), its longest single wait, and its connections, each shut when
    the fetch ends."""

    def __init__(self, deadline_s: float, idle_s: float = math.inf):
        super().__init__(idle_s, deadline_s, what="fetch")
        self.opened: list[Bounded] = []

    def bounded(self, sock: socket.socket) -> Bounded:
        """The connected socket, bounded by this budget and shut when the fetch ends."""
        found = Bounded(sock, self)
        self.opened.append(found)
        return found


class _HTTP(http.client.HTTPConnection):
    def __init__(self, host: str, budget: Budget, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.budget = budget

    def connect(self) -> None:
        self.timeout = self.budget.left()  # the connect
        super().connect()
        self.sock = self.budget.bounded(self.sock)


class _HTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, budget: Budget, **kwargs: Any) -> None:
        super().__init__(host, **kwargs)
        self.budget = budget

    def connect(self) -> None:
        self.timeout = self.budget.left()  # the connect, and the TLS handshake (one deadline of its own)
        super().connect()
        self.sock = self.budget.bounded(self.sock)  # an SSLSocket, bounded


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, budget: Budget) -> None:
        super().__init__()
        self.budget = budget

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_HTTP, budget=self.budget), req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, budget: Budget) -> None:
        super().__init__(context=_tls())
        self.budget = budget

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(functools.partial(_HTTPS, budget=self.budget), req,
                            context=_tls())


def fetch_json(url: str, deadline_s: float, idle_s: float = 5.0) -> Any:
    """The JSON document at `url`, all of it read within `deadline_s` (TimeoutError otherwise);
    an OSError (urllib's HTTPError for a status not 2xx), http.client.HTTPException or ValueError
    when it cannot be read."""
    budget = Budget(deadline_s, idle_s)
    found: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            opener = urllib.request.build_opener(_HTTPHandler(budget), _HTTPSHandler(budget))
            with opener.open(url, timeout=budget.left()) as response:
                found["body"] = response.read(MAX_DOCUMENT + 1)
        except Exception as e:  # handed to the caller
            found["error"] = e
        finally:
            for sock in budget.opened:
                sock.shut()
            done.set()

    threading.Thread(target=run, name="identity-provider-fetch", daemon=True).start()
    if not done.wait(deadline_s):
        raise TimeoutError(f"{url} was not read in full within {deadline_s:g} s")
    if "error" in found:
        raise found["error"]
    body: bytes = found["body"]
    if len(body) > MAX_DOCUMENT:
        raise ValueError(f"{url} answers more than {MAX_DOCUMENT} bytes")
    return json.loads(body)
