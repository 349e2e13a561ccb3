"""The hub's two threads (greenlets under gevent): the reader, one XREAD BLOCK at a time over
every watched game and followed inbox (api/live/follower.py has the read and its connection),
and the tick that wakes the waiting streams and writes the direct subscribers' keep-alives."""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from api.live.fanout import Fanout
from api.live.feeds import Feed, Inbox
from api.live.follower import LiveFollower, Polled
from api.live.frames import KEEPALIVE, KEEPALIVE_CHUNKED
from events.store import StoreUnavailable

log = logging.getLogger(__name__)

READ_COUNT = 200  # events per game per XREAD
BLOCK_MS = 5000  # a blocked read is interrupted when a game is added, so this only bounds idling


class Reader(Fanout):
    """The hub's reading: what is watched (the tables Hub fills) is read and handed to the feeds
    and inboxes, and to the direct subscribers (Fanout.deliver)."""

    # set by Hub.__init__ and Hub._reset
    block_ms: int
    tick_s: float
    keepalive_s: float | None
    gather_s: float
    healthy: bool
    _lock: threading.Lock
    _pid: int
    _feeds: dict[str, Feed]
    _inboxes: dict[str, Inbox]
    _generation: int
    _read_generation: int | None
    _wake: threading.Event
    _reader: threading.Thread | None
    _follower: Any  # LiveFollower or Polled, made when the reader starts
    keys: Any  # api.live.keywatch.KeyWatch, or None

    def _added(self, generation: int) -> None:
        """The reader is told of a new game or inbox to follow."""
        self._start_reader()
        self._wake.set()
        threading.Thread(target=self._interrupt_until_read, args=(generation,), daemon=True).start()

    def _start_reader(self) -> None:
        with self._lock:
            if self._reader is not None and self._reader.is_alive():
                return
            self._follower = self._follower or self._make_follower()
            self._reader = threading.Thread(target=self._run, name="live-hub", daemon=True)
            self._reader.start()
            threading.Thread(target=self._tick, name="live-hub-ticks", daemon=True).start()

    def _make_follower(self) -> LiveFollower | Polled:
        if self.inboxes is None or not hasattr(self.store, "keys") or getattr(self.store, "clustered", False):
            return Polled(self.store.follower(), self.inboxes)  # the in-memory store, a cluster
        return LiveFollower(self.store, self.inboxes.inbox_key, self.inboxes.decode_inbox, self.block_ms)

    def _tick(self) -> None:
        pid = self._pid
        while self._pid == pid:
            time.sleep(self.tick_s)
            self.tick()

    def tick(self) -> None:
        """Wakes every subscriber (its keep-alive is due, or its stream's time is up): one
        timer for the process instead of one per waiting stream. The keep-alives of the direct
        subscribers it writes itself (the same non-blocking write as an event's), so an idle
        direct stream wakes no greenlet of its own until its time is up."""
        with self._lock:
            feeds = list(self._feeds.values())
            inboxes = list(self._inboxes.values())
        now, written = time.monotonic(), 0
        for feed in feeds:
            feed.wake()
            if self.keepalive_s is None:
                continue
            for sub in list(feed.direct):
                if now - sub.last_write >= self.keepalive_s and sub in feed.direct:
                    sub.send_now(feed, KEEPALIVE_CHUNKED if sub.chunked else KEEPALIVE)
                    written += 1
                    if written % 500 == 0:
                        time.sleep(0)  # let requests in between (a cooperative yield under gevent)
        for inbox in inboxes:
            inbox.wake()
        if self.keys is not None:
            self.keys.poll()

    def _stale(self, player_id: str, entries: list[tuple[str, dict[str, Any]]]) -> set[str]:
        """The `your_turn` entries whose game has moved past them (api/players/feed.py's note):
        never framed. Unknown (Redis away): none, the entries go as they are."""
        try:
            stale: set[str] = self.inboxes.stale_turns(player_id, entries)
            return stale
        except Exception:
            log.warning("live hub: the turn marks of %s not read", player_id)
            return set()

    def _interrupt_until_read(self, generation: int) -> None:
        """Makes the reader re-issue its read with the new game: a read blocked on the old set
        is interrupted (retried: an interrupt can arrive before the read blocks)."""
        for _ in range(100):
            reading = self._read_generation
            if reading is None or reading >= generation:
                return
            try:
                if self._follower.interrupt():
                    return
            except StoreUnavailable:
                return  # the reader is failing too; it rebuilds its read when the store is back
            time.sleep(0.01)

    def _run(self) -> None:
        follower = self._follower
        read_at = 0.0
        while True:
            # While events flow, a read returns at once with the few games that moved since the
            # last one, and each read costs the web process and Redis in proportion to every
            # watched game (the XREAD names them all: 100 games, 160 reads/s cost more than the
            # deliveries did). Spaced GATHER apart, one read brings many games' events, for at
            # most that much more fan-out delay; a read that waited for its event is not delayed.
            pause = self.gather_s - (time.monotonic() - read_at)
            if pause > 0:
                time.sleep(pause)
            with self._lock:
                positions = {g: f.version for g, f in self._feeds.items()}
                inboxes = {p: i.last_id for p, i in self._inboxes.items()}
                watching = bool(positions or inboxes)
                self._read_generation = self._generation if watching else None
                if not watching:
                    self._wake.clear()
            if not watching:
                self._wake.wait()  # nothing watched: no read, no connection in use
                continue
            read_at = time.monotonic()
            try:
                found, entries = follower.read(positions, inboxes, self.block_ms, READ_COUNT)
                self.healthy = True
            except StoreUnavailable:
                self.healthy = False
                self._read_generation = None
                time.sleep(1)
                continue
            except Exception:
                log.exception("live hub: read failed")
                self._read_generation = None
                time.sleep(1)
                continue
            self._read_generation = None
            for game_id, events in found.items():
                feed = self._feeds.get(game_id)
                if feed is not None:
                    try:
                        if feed.extend(events) and feed.direct:
                            self.deliver(feed)
                    except Exception:
                        log.exception("live hub: game %s: events %s not applied", game_id,
                                      [e.version for e in events])
            for player_id, new in entries.items():
                inbox = self._inboxes.get(player_id)
                if inbox is not None:
                    inbox.extend(new, self._stale(player_id, new))
