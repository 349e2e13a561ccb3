"""A finished game's export chunks kept in the web process's own memory as well as in Redis.

Redis keeps the whole NDJSON chunks of a finished long game (api/history/export.py, api/history/finished_exports.py), so
an export copies bytes instead of cutting lines out of the history. Copying them out of Redis
is still most of an export's cost: py-spy on a web worker exporting a 10,000-event game (2 MB)
found half of its time in the MGET's reply (recv and hiredis's parse, through gevent), and the
whole export took 3.9 ms against 1.8 ms when the chunks were in the process already.

Here a process keeps the chunks it was asked for at least twice (an LRU bounded in bytes,
EXPORT_MEMORY_MB per web process): a hot finished game (a replay many clients open, a
tournament's games) is written straight from memory. A chunk asked for once is only noted, so
a harvest that reads each finished game once evicts nothing and one export's memory stays flat.
A chunk is never kept longer than Redis keeps it (EXPORT_CACHE_TTL from when it was read), and
its name holds the game's code version and the presenting's, as in Redis: other code never
serves it. The caller has checked the game exists before asking (an expired or deleted game is
a 404 first).
"""
from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

SEEN = 4096  # names asked for once that are remembered (the oldest are forgotten first)


class ChunkMemory:
    def __init__(self, max_bytes: int, ttl_s: float, clock: Callable[[], float] = time.monotonic):
        self.max_bytes = max_bytes
        self.ttl_s = ttl_s
        self._clock = clock
        self._chunks: OrderedDict[str, tuple[float, bytes]] = OrderedDict()  # name -> (expires, lines)
        self._seen: OrderedDict[str, float] = OrderedDict()  # name -> when first asked for
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        """Bytes of chunks held."""
        return self._bytes

    def get(self, names: Iterable[str]) -> dict[str, bytes]:
        """The chunks held of `names` (the others are missing from the answer)."""
        found = {}
        now = self._clock()
        with self._lock:
            for name in names:
                held = self._chunks.get(name)
                if held is None:
                    continue
                expires, lines = held
                if expires <= now:
                    self._drop(name)
                    continue
                self._chunks.move_to_end(name)
                found[name] = lines
        return found

    def offer(self, name: str, lines: bytes) -> None:
        """A chunk just read from Redis: kept if it was asked for before within the TTL."""
        if self.max_bytes <= 0 or len(lines) > self.max_bytes:
            return
        now = self._clock()
        with self._lock:
            first = self._seen.get(name)
            if first is None or now - first >= self.ttl_s:
                self._seen[name] = now
                self._seen.move_to_end(name)
                while len(self._seen) > SEEN:
                    self._seen.popitem(last=False)
                return
            del self._seen[name]
            self._drop(name)
            self._chunks[name] = (now + self.ttl_s, lines)
            self._bytes += len(lines)
            while self._bytes > self.max_bytes:
                self._drop(next(iter(self._chunks)))

    def _drop(self, name: str) -> None:
        held: tuple[float, bytes] | None = self._chunks.pop(name, None)
        if held is not None:
            self._bytes -= len(held[1])


DEFAULT_MB = 64


def mb_from_env() -> float:
    """EXPORT_MEMORY_MB: megabytes kept per web process (0: none)."""
    return float(os.environ.get("EXPORT_MEMORY_MB", DEFAULT_MB))
