"""The streams opened with a player key end when the key is replaced (POST /players/me/keys),
on every web process: a rotation appends the old key's hash to the `key-rotations` stream, and
each process's hub tick reads what was appended since its last look (one XRANGE a tick, and
only while one of its streams was opened with a player key). A stream opened with the key (or
with a ticket the key asked for) is marked and woken; it ends at once."""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.players.accounts import Players

log = logging.getLogger(__name__)


class KeyWatch:
    def __init__(self, players: Players) -> None:
        self.players = players  # its rotations_after, rotations_last_id
        self._lock = threading.Lock()
        self._watched: dict[str, dict[int, Callable[[], None]]] = {}  # key hash -> wakers
        self._revoked: set[str] = set()
        self._last_id: str | None = None
        self._next = 0

    def watch(self, digest: str | None, wake: Callable[[], None]) -> Callable[[], None]:
        """Follows a stream opened with the key of this hash (None: not a player key); `wake`
        wakes it once the key is replaced. Returns what unwatches it."""
        if digest is None:
            return lambda: None
        if self._last_id is None:  # from now on: a key replaced before is checked below
            self._last_id = self.players.rotations_last_id()
        with self._lock:
            self._next += 1
            handle = self._next
            self._watched.setdefault(digest, {})[handle] = wake
        # A key replaced after the request was authenticated and before it was watched here
        # (a poll meanwhile passed its rotation by) is found now.
        if not self.players.key_in_use(digest):
            with self._lock:
                self._revoked.add(digest)

        def unwatch() -> None:
            with self._lock:
                wakers = self._watched.get(digest, {})
                wakers.pop(handle, None)
                if not wakers:
                    self._watched.pop(digest, None)
                    self._revoked.discard(digest)
        return unwatch

    def revoked(self, digest: str | None) -> bool:
        return digest is not None and digest in self._revoked

    def poll(self) -> None:
        """(The hub's tick) marks and wakes the streams whose key was replaced since the last poll."""
        if not self._watched or self._last_id is None:
            return
        try:
            self._last_id, replaced = self.players.rotations_after(self._last_id)
        except StoreUnavailable:
            return  # the next tick asks again
        with self._lock:
            hit = {d: list(self._watched[d].values()) for d in replaced if d in self._watched}
            self._revoked.update(hit)
        for wakers in hit.values():
            for wake in wakers:
                wake()
