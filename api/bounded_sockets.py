"""Sockets whose every wait is bounded by one deadline for a whole exchange: a socket's own
timeout restarts with every byte, so a peer trickling a byte a second would hold a request for
ever. Shared by the webhooks' sender (api/webhooks/sender.py: one delivery attempt) and the
identity providers' fetches (api/players/provider_fetch.py: one key set or discovery document).
http.client writes with sendall() and reads through makefile(); a connection class of theirs
wraps its connected socket in a Bounded."""
from __future__ import annotations

import io
import math
import socket
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer  # what readinto and recv_into fill


class Budget:
    """An exchange's time: until when (monotonic s) it may last, and the longest single wait.
    `what` names the exchange in the TimeoutError its deadline raises."""

    def __init__(self, idle_s: float, deadline_s: float = math.inf, what: str = "exchange"):
        self.idle_s = idle_s
        self.until = time.monotonic() + deadline_s
        self.what = what

    def left(self) -> float:
        """The timeout for the next wait; TimeoutError once the deadline has passed."""
        left = self.until - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the {self.what}'s deadline passed")
        return min(self.idle_s, left)


class Bounded:
    """A connected socket whose every write and read waits only what is left of the budget.
    The rest is the socket's. As a socket's own files do, a reader keeps the socket open until
    it is closed too: http.client closes the connection of an answer that ends the connection
    before its body is read."""

    def __init__(self, sock: socket.socket, budget: Budget):
        self._sock = sock
        self._budget = budget
        self._readers = 0
        self._closing = False

    def shut(self) -> None:
        """Closed now, readers or not: an answer abandoned mid-read (a deadline passed) holds
        its reader until the garbage collector finds it, and the peer's connection with it."""
        self._sock.close()

    def sendall(self, data: bytes) -> None:
        self._sock.settimeout(self._budget.left())  # sendall's timeout bounds all of it
        self._sock.sendall(data)

    def makefile(self, mode: str = "rb", *args: Any, **kwargs: Any) -> io.BufferedReader:
        self._readers += 1
        return io.BufferedReader(_BoundedReader(self))

    def recv_into(self, buffer: WriteableBuffer) -> int:
        self._sock.settimeout(self._budget.left())
        return self._sock.recv_into(buffer)

    def close(self) -> None:
        self._closing = True
        if not self._readers:
            self._sock.close()

    def reader_closed(self) -> None:
        self._readers -= 1
        if self._closing and not self._readers:
            self._sock.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


class _BoundedReader(io.RawIOBase):
    def __init__(self, sock: Bounded):
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        return self._sock.recv_into(buffer)

    def close(self) -> None:
        if not self.closed:
            self._sock.reader_closed()
        super().close()
