"""How many live streams may be open: per process, per client address without a token, per
seat (a seat's token, a ticket naming the seat, or a player's key for the player's stream).

The per-process limit (SSE_MAX_STREAMS) is counted in the process, with no Redis round trip:
it protects the process's memory and sockets. The per-address and per-seat limits are a
client's, whichever process or node it reaches: counted in the process first (a refusal
there costs nothing), then across all processes with a lease in Redis (api/live/leases.py: one
round trip on the live path's own pool when a stream opens, one when it closes).

Over the process's limit a new stream is answered `503 streams_full`; over an address's or a
seat's, `429 too_many_streams`; both with `Retry-After`, and nothing else is affected: moves
never wait for a stream's slot.
"""
from __future__ import annotations

import resource
import threading
import time
from collections.abc import Callable
from typing import Any

from api.errors import ApiError, Code
from api.live.leases import SharedLeases

DEFAULT_MAX_STREAMS = 8000  # per web process: see bench/README.md (live streams; the kernel's split of 10,000 over two)
REQUEST_CONNECTIONS = 1000  # connections a web process keeps for requests beside its streams
FULL_RETRY_S = 5
TOO_MANY_RETRY_S = 10
UNLIMITED = 1 << 30  # a seat's lease taken for its presence only, where seats have no limit


class StreamsFull(ApiError):
    status, code = 503, Code.STREAMS_FULL


class TooManyStreams(ApiError):
    status, code = 429, Code.TOO_MANY_STREAMS


class StreamsBusy(ApiError):
    status, code = 503, Code.STREAMS_BUSY


class StreamLimits:
    def __init__(self, per_process: int, per_address: int, per_seat: int, opens_per_s: float = 0,
                 shared: SharedLeases | None = None):
        self.shared = shared  # None: the per-address and per-seat limits are counted per process
        self.per_process = per_process
        self.per_address = per_address  # 0: no limit
        self.per_seat = per_seat
        self.opens_per_s = opens_per_s  # 0: no limit
        self.open = 0
        self._by_key: dict[tuple[Any, ...], int] = {}
        self._lock = threading.Lock()
        self._bucket = float(opens_per_s)
        self._filled = time.monotonic()

    def admit(self) -> None:
        """Refuses a new stream, before any work, when this process has opened its
        `opens_per_s` in the last second (a token bucket): a crowd arriving at once is spread
        out rather than queued in front of the moves."""
        if not self.opens_per_s:
            return
        with self._lock:
            now = time.monotonic()
            self._bucket = min(self.opens_per_s, self._bucket + (now - self._filled) * self.opens_per_s)
            self._filled = now
            if self._bucket < 1:
                raise StreamsBusy(f"This server process opens at most {self.opens_per_s:g} live streams a second; "
                                  "retry in 1 s.", headers={"Retry-After": "1"})
            self._bucket -= 1

    def acquire(self, address: str, seat_key: tuple[str, int | str | None] | None) -> Callable[[], None]:
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
                raise _too_many(kind, held)
            self.open += 1
            self._by_key[key] = held + 1
        released = False
        lease = None

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
            if lease is not None:
                self.shared.release(lease)

        if self.shared is not None and (limit or kind == "seat"):  # a seat's lease also says it is here
            lease, held = self.shared.acquire(kind, "/".join(map(str, key[1:])), limit or UNLIMITED)
            if lease is None:
                release()
                raise _too_many(kind, held)
        return release


    def present(self, game_id: str, seats: int) -> list[bool]:
        """Whether each of the game's `seats` has a live stream of it open now: in any process on
        this Redis (the seats' leases), or in this one when the leases are not shared."""
        if self.shared is None:
            with self._lock:
                return [self._by_key.get(("seat", game_id, s), 0) > 0 for s in range(seats)]
        return self.shared.holding("seat", [f"{game_id}/{s}" for s in range(seats)])

    def players_present(self, player_ids: list[str]) -> list[bool]:
        """Whether each player has its player stream open now (its presence: a friend online),
        counted as `present` counts a seat's."""
        if self.shared is None:
            with self._lock:
                return [self._by_key.get(("seat", "player", p), 0) > 0 for p in player_ids]
        return self.shared.holding("seat", [f"player/{p}" for p in player_ids])


def _too_many(kind: str, held: int) -> TooManyStreams:
    who = "this seat" if kind == "seat" else "your address without a token"
    return TooManyStreams(
        f"{who.capitalize()} holds {held} live streams, the most allowed; close one or retry in "
        f"{TOO_MANY_RETRY_S} s.", headers={"Retry-After": str(TOO_MANY_RETRY_S)},
        details={"ratelimit": {"key": kind, "seconds": TOO_MANY_RETRY_S}})


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
