"""One reader per web process for every live stream it serves.

A stream used to hold a Redis connection for its whole life (its own XREAD BLOCK), so a few
hundred watchers took every connection of the pool that moves need. Here a process has one
reader (a thread: a greenlet under gevent) on a connection of its own, doing one XREAD BLOCK
over the streams of every game that at least one of its connections watches, from the last
version it has of each. A game's new events go into its Feed: folded once into the game (for
`to_act`), kept in a ring of recent events, and each connection waiting on the feed is woken.
Each event is redacted once per distinct viewer (a seat, or a spectator; everyone once the
game is over) by the first connection that needs it, and the bytes are shared by the others.

The same read follows the inboxes of the players whose streams (`GET /players/me/stream`) this
process serves: each new inbox entry is framed once, kept in the player's Inbox ring, and the
player's connections are woken (api/live/follower.py has the read and its connection).

An idle stream holds no Redis connection, only its place among its feed's subscribers. What a
stream reads besides the reader's events (the game when a feed starts, events older than the
ring for a client that resumes from far back or fell behind) goes through the hub's own small
pool, never the requests' one.

The parts: the Feed and the Inbox (feeds.py), what a subscriber receives (fanout.py), the
reader and the tick (reader.py), the streams that wait in a greenlet of their own (streams.py)
and those the reader writes to itself (direct.py), the frames they send (frames.py).
"""
from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any, TypeVar

from api.errors import GameExpired
from api.games.repository import GameRepository
from api.live.feeds import Feed, Followed, Inbox
from api.live.keywatch import KeyWatch
from api.live.reader import BLOCK_MS, Reader
from events.store import EventStore

if TYPE_CHECKING:
    from api.players.accounts import Players

F = TypeVar("F", bound=Followed)  # a Feed or an Inbox


class Hub(Reader):
    """The feeds of one process and the reader that fills them: who is subscribed here; what
    they receive is Fanout's (api/live/fanout.py), the reading Reader's (api/live/reader.py)."""

    def __init__(self, store: EventStore, games: GameRepository | None = None, block_ms: int = BLOCK_MS,
                 tick_s: float = 1.0, inboxes: Players | None = None, keepalive_s: float | None = None,
                 gather_s: float = 0.0,
                 keys: KeyWatch | None = None) -> None:
        self.store = store  # the hub's own store (its own small pool)
        self.keys = keys  # the streams opened with a player key, ended when it is replaced
        self.games = games or GameRepository(store)
        self.inboxes = inboxes  # api.players.Players on the hub's pool: the player streams' inboxes
        self.block_ms = block_ms
        self.tick_s = tick_s  # how often waiting streams are woken to check their keep-alive
        self.keepalive_s = keepalive_s  # set: the tick writes the direct subscribers' keep-alives
        # Reads are at least this far apart while events flow (see Reader._run): one read gathers the
        # events of every game that moved meanwhile.
        self.gather_s = gather_s
        self.renders = 0  # redactions done (each event once per distinct viewer)
        self._lock = threading.Lock()
        self._loading: dict[str, threading.Lock] = {}
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._feeds: dict[str, Feed] = {}
        self._inboxes: dict[str, Inbox] = {}
        self._generation = 0  # grows when a game is added to the watched set
        self._read_generation: int | None = None  # the generation of the read in progress
        self._wake = threading.Event()
        self._reader: threading.Thread | None = None
        self._follower = None
        self.healthy = True

    # ---- subscribers ------------------------------------------------------------------------

    def subscribe(self, game_id: str) -> Feed:
        """The game's feed, started (its game loaded, the reader told) if none of this
        process's streams watched it; the caller must unsubscribe()."""
        if self._pid != os.getpid():  # a forked child does not inherit its parent's reader
            self._reset()
        with self._lock:
            feed = _joined(self._feeds, game_id)
        if feed is not None:
            if feed.game.finished:  # a feed outlives its game's end, not its retention
                try:
                    self.games.check_kept(game_id, feed.game.last_at)
                except GameExpired:
                    self.unsubscribe(feed)
                    raise
            return feed
        with self._lock:
            loading = self._loading.setdefault(game_id, threading.Lock())
        with loading:  # the first opener loads the game; the others wait for it
            with self._lock:
                feed = _joined(self._feeds, game_id)
                if feed is not None:
                    return feed
            try:
                game = self.games.load(game_id)
            except BaseException:
                with self._lock:
                    self._loading.pop(game_id, None)
                raise
            with self._lock:  # the feed is there before another opener can start a load of its own
                feed = Feed(game)
                generation = self._follow(self._feeds, game_id, feed)
                self._loading.pop(game_id, None)
        self._added(generation)
        return feed

    def subscribe_inbox(self, player_id: str) -> Inbox:
        """The player's inbox as this process follows it (followed from its newest entry if
        none of the process's streams did); the caller must unsubscribe_inbox()."""
        if self._pid != os.getpid():
            self._reset()
        with self._lock:
            inbox = _joined(self._inboxes, player_id)
            if inbox is not None:
                return inbox
        last_id = self.inboxes.inbox_last_id(player_id)  # one round trip, outside the lock
        with self._lock:
            inbox = _joined(self._inboxes, player_id)
            if inbox is not None:  # another connection of the player got there first
                return inbox
            inbox = Inbox(player_id, last_id)
            generation = self._follow(self._inboxes, player_id, inbox)
        self._added(generation)
        return inbox

    def _follow(self, table: dict[str, Any], key: str, entry: Any) -> int:
        """(Under the lock) a new feed or inbox with its first subscriber: the generation that
        the reader's read must reach to follow it."""
        table[key] = entry
        entry.subscribers = 1
        self._generation += 1
        return self._generation

    def _leave(self, table: dict[str, Any], key: str, entry: Any) -> None:
        with self._lock:
            entry.subscribers -= 1
            if entry.subscribers <= 0 and table.get(key) is entry:
                del table[key]  # the reader's next read leaves it out

    def unsubscribe_inbox(self, inbox: Inbox) -> None:
        self._leave(self._inboxes, inbox.player_id, inbox)

    def unsubscribe(self, feed: Feed) -> None:
        self._leave(self._feeds, feed.game_id, feed)

    def watched(self) -> int:
        return len(self._feeds)


def _joined(table: dict[str, F], key: str) -> F | None:
    """(Under the hub's lock) the feed or inbox already followed, with one subscriber more."""
    entry = table.get(key)
    if entry is not None:
        entry.subscribers += 1
    return entry
