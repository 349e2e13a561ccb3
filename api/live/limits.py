"""How many live streams may be open: per process, per client address without a token, per
seat (a seat's token, or a ticket naming the seat). Counted in the process: a stream's slot is
taken when it opens and given back when it closes, with no Redis round trip either way.

Over the process's limit a new stream is answered `503 streams_full`; over an address's or a
seat's, `429 too_many_streams`; both with `Retry-After`, and nothing else is affected: moves
never wait for a stream's slot.
"""
from __future__ import annotations

import resource
import threading
from typing import Optional

from ..errors import ApiError

DEFAULT_MAX_STREAMS = 6000  # per web process: see bench/README.md (live streams)
REQUEST_CONNECTIONS = 1000  # connections a web process keeps for requests beside its streams
FULL_RETRY_S = 5
TOO_MANY_RETRY_S = 10


class StreamsFull(ApiError):
    status, code = 503, "streams_full"


class TooManyStreams(ApiError):
    status, code = 429, "too_many_streams"


class StreamLimits:
    def __init__(self, per_process: int, per_address: int, per_seat: int):
        self.per_process = per_process
        self.per_address = per_address  # 0: no limit
        self.per_seat = per_seat
        self.open = 0
        self._by_key: dict[tuple, int] = {}
        self._lock = threading.Lock()

    def acquire(self, address: str, seat_key: Optional[tuple]):
        """Takes a slot for a new stream, or raises; returns the function that gives it back.
        `seat_key` is (game id, seat) for a stream opened with a token or a ticket, else None
        (counted by address)."""
        key, limit, kind = (("seat",) + seat_key, self.per_seat, "seat") if seat_key is not None \
            else (("address", address), self.per_address, "address")
        with self._lock:
            if self.open >= self.per_process:
                raise StreamsFull(
                    f"This server process holds its maximum of {self.per_process} live streams; retry in "
                    f"{FULL_RETRY_S} s.", headers={"Retry-After": str(FULL_RETRY_S)})
            held = self._by_key.get(key, 0)
            if limit and held >= limit:
                who = "this seat" if kind == "seat" else "your address without a token"
                raise TooManyStreams(
                    f"{who.capitalize()} holds {held} live streams, the most allowed; close one or retry in "
                    f"{TOO_MANY_RETRY_S} s.", headers={"Retry-After": str(TOO_MANY_RETRY_S)},
                    details={"ratelimit": {"key": kind, "seconds": TOO_MANY_RETRY_S}})
            self.open += 1
            self._by_key[key] = held + 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if released:
                    return
                released = True
                self.open -= 1
                left = self._by_key[key] - 1
                if left:
                    self._by_key[key] = left
                else:
                    del self._by_key[key]

        return release


def raise_open_files_limit() -> int:
    """Lifts this process's soft limit of open files to its hard limit (each stream is a
    socket); returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft
