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
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import deque
from dataclasses import replace
from typing import Callable, Optional

from domain.contract import EVERYONE
from events import codec
from events.store import EventStore, StoreUnavailable, StoredEvent

from api.games import presenting
from api.live.follower import LiveFollower, Polled
from api.platform.events import START, fold_stored
from api.games.repository import Game, GameRepository

log = logging.getLogger(__name__)

RING = 256  # recent events a feed keeps for its subscribers; older ones are read from the store
READ_COUNT = 200  # events per game per XREAD
BLOCK_MS = 5000  # a blocked read is interrupted when a game is added, so this only bounds idling
CATCH_UP_PAGE = 500


def sse(event: str, data: dict, id_: Optional[int] = None) -> bytes:
    head = f"id: {id_}\nevent: {event}\ndata: " if id_ is not None else f"event: {event}\ndata: "
    body = codec.dumps_bytes(data)
    if not body.isascii():
        # ASCII only: some clients split lines at U+2028, U+0085... (JSON escapes them all)
        body = json.dumps(data, separators=(",", ":")).encode()
    return head.encode() + body + b"\n\n"


class Entry:
    """One event of a feed, with who acts after it and its frames by viewer."""

    __slots__ = ("event", "to_act", "frames", "clock")

    def __init__(self, event: StoredEvent, to_act: list, clock: Optional[dict] = None):
        self.event = event
        self.to_act = to_act
        self.clock = clock  # a clocked game's deadlines after the event (presenting.clock_at_event)
        self.frames: dict = {}


def advance(game: Game, event: StoredEvent) -> Game:
    """The game after one more of its events (the game's own, or the platform's)."""
    state, platform = fold_stored(game.definition, [event], game.state, game.platform)
    return replace(game, version=event.version, state=state, platform=platform)


def to_act(game: Game) -> list:
    """Who acts after the game's last event: nobody while the game waits for people or the
    server is still setting it up."""
    setup_version = game.setup_version
    return game.actors() if setup_version is not None and game.version >= setup_version else []


class Followed:
    """What streams wait on, a game's feed or a player's inbox: its subscribers in this process
    and `changed`, set (and replaced) whenever entries arrive or the hub's tick wakes them."""

    def __init__(self):
        self.changed = threading.Event()
        self.subscribers = 0
        self._lock = threading.Lock()

    def _renew_changed(self) -> threading.Event:
        """(Under the lock) the event the waiters hold, replaced by a new one: set it."""
        changed, self.changed = self.changed, threading.Event()
        return changed

    def wake(self) -> None:
        with self._lock:
            changed = self._renew_changed()
        changed.set()


class Feed(Followed):
    """The newest state of one watched game and its recent events."""

    def __init__(self, game: Game):
        super().__init__()
        self.game_id = game.id
        self.game = game
        self.entries: deque[Entry] = deque(maxlen=RING)
        self.direct: set[Direct] = set()  # subscribers the reader writes to itself (see Direct)
        self._states: dict = {}

    @property
    def version(self) -> int:
        return self.game.version

    def extend(self, events: list[StoredEvent]) -> int:
        """Folds in the reader's events (those at and below the known version are skipped);
        returns how many were new."""
        added = 0
        with self._lock:
            game = first = self.game
            new = []
            for e in events:
                if e.version != game.version + 1:
                    continue
                game = advance(game, e)
                self.entries.append(Entry(e, to_act(game), presenting.clock_at_event(game, e.at)))
                new.append(e)
                added += 1
            if new and game.platform.clock is not None:
                # The clocks' step follows each append's events as a whole (platform_events):
                # folded together, the feed's game is the one a load rebuilds.
                state, platform = fold_stored(game.definition, new, first.state, first.platform)
                game = replace(game, state=state, platform=platform)
            self.game = game
            if added:
                changed = self._renew_changed()
        if added:
            changed.set()
        return added

    def state_frame(self, seat) -> tuple[bytes, int]:
        """The `state` event for `seat` at the newest version, and that version: made once per
        seat and version (a crowd arriving on one game costs one view, not one each)."""
        game = self.game
        key = (game.version, seat)
        frame = self._states.get(key)
        if frame is None:
            if len(self._states) > 64 or any(v != game.version for v, _ in self._states):
                self._states = {}
            frame = self._states[key] = sse("state", presenting.describe(game, seat), game.version)
        return frame, game.version

    def buffered_after(self, cursor: int) -> Optional[list[Entry]]:
        """The entries after `cursor`, or None when the ring no longer holds the next one."""
        with self._lock:
            if cursor >= self.game.version:
                return []
            if not self.entries or self.entries[0].event.version > cursor + 1:
                return None
            entries = self.entries
            first = entries[0].event.version
            return [entries[i] for i in range(cursor + 1 - first, len(entries))]


def chunk(data: bytes, chunked: bool) -> bytes:
    """Bytes as the HTTP/1.1 server frames a response's body (chunked), or as they are."""
    return b"%X\r\n%s\r\n" % (len(data), data) if chunked else data


KEEPALIVE = b": keep-alive\n\n"
KEEPALIVE_CHUNKED = chunk(KEEPALIVE, True)


class Direct:
    """A subscriber whose socket the reader writes to itself: the cheap path, under gevent.

    Waking each stream's greenlet to write one event costs tens of microseconds; with
    thousands of streams the reader instead writes each new event (the same bytes for every
    subscriber of one viewer at one version) to every socket that can take it at once, without
    waiting. A socket that cannot (a slow client: `pending` holds what did not fit), or that
    failed, is taken out of the feed's `direct` set and its own greenlet woken: it writes the
    rest itself, catches up, and joins again. The socket is written by one side at a time:
    the reader only while the subscriber is in the set, its greenlet only while it is not
    (or, for a keep-alive, in one write that does not wait either)."""

    __slots__ = ("fd", "chunked", "seat", "cursor", "wake", "pending", "dead", "last_write")

    def __init__(self, fd: int, chunked: bool, seat, cursor: int):
        self.fd = fd
        self.chunked = chunked
        self.seat = seat
        self.cursor = cursor  # the last version handed to the socket (sent, or in `pending`)
        self.wake = threading.Event()
        self.pending: Optional[bytes] = None
        self.dead = False
        self.last_write = time.monotonic()

    def send_now(self, feed: Feed, data: bytes) -> bool:
        """Writes without waiting; on a short write or an error, leaves the direct set and wakes
        its greenlet. True if everything went out."""
        try:
            sent = os.write(self.fd, data)
        except BlockingIOError:
            sent = 0
        except OSError:  # the client is gone
            self.dead = True
            feed.direct.discard(self)
            self.wake.set()
            return False
        self.last_write = time.monotonic()
        if sent < len(data):
            self.pending = data[sent:]
            feed.direct.discard(self)
            self.wake.set()
            return False
        return True


def entry_key(entry_id: str) -> tuple[int, int]:
    """A Redis stream entry id ("1733000000000-3") in the order Redis gives them."""
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


class Inbox(Followed):
    """The newest entries of one followed player inbox, each framed once for all of the
    player's connections in this process."""

    def __init__(self, player_id: str, last_id: str):
        super().__init__()
        self.player_id = player_id
        self.last_id = last_id  # the newest entry read (the reader's position)
        self.floor = entry_key(last_id)  # every entry after this one is in `entries`
        self.entries: deque[tuple[tuple, str, bytes]] = deque()  # (key, id, frame)

    def extend(self, entries: list[tuple[str, dict]]) -> int:
        added = 0
        with self._lock:
            newest = entry_key(self.last_id)
            for entry_id, entry in entries:
                key = entry_key(entry_id)
                if key <= newest:
                    continue
                self.entries.append((key, entry_id, sse(entry["type"], entry, entry_id)))
                if len(self.entries) > RING:
                    self.floor = self.entries.popleft()[0]
                self.last_id, newest = entry_id, key
                added += 1
            if added:
                changed = self._renew_changed()
        if added:
            changed.set()
        return added

    def buffered_after(self, cursor: str) -> Optional[list[tuple[str, bytes]]]:
        """(id, frame) of the entries after `cursor`, or None when the ring does not reach
        back to it."""
        key = entry_key(cursor)
        with self._lock:
            if key < self.floor:
                return None
            return [(i, frame) for k, i, frame in self.entries if k > key]


class Hub:
    """The feeds of one process and the reader that fills them."""

    def __init__(self, store: EventStore, games: Optional[GameRepository] = None, block_ms: int = BLOCK_MS,
                 tick_s: float = 1.0, inboxes=None, keepalive_s: Optional[float] = None, gather_s: float = 0.0):
        self.store = store  # the hub's own store (its own small pool)
        self.games = games or GameRepository(store)
        self.inboxes = inboxes  # api.players.Players on the hub's pool: the player streams' inboxes
        self.block_ms = block_ms
        self.tick_s = tick_s  # how often waiting streams are woken to check their keep-alive
        self.keepalive_s = keepalive_s  # set: the tick writes the direct subscribers' keep-alives
        # Reads are at least this far apart while events flow (see _run): one read gathers the
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
        self._read_generation: Optional[int] = None  # the generation of the read in progress
        self._wake = threading.Event()
        self._reader: Optional[threading.Thread] = None
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
                return feed
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

    def _added(self, generation: int) -> None:
        """The reader is told of a new game or inbox to follow."""
        self._start_reader()
        self._wake.set()
        threading.Thread(target=self._interrupt_until_read, args=(generation,), daemon=True).start()

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

    def _follow(self, table: dict, key: str, entry) -> int:
        """(Under the lock) a new feed or inbox with its first subscriber: the generation that
        the reader's read must reach to follow it."""
        table[key] = entry
        entry.subscribers = 1
        self._generation += 1
        return self._generation

    def _leave(self, table: dict, key: str, entry) -> None:
        with self._lock:
            entry.subscribers -= 1
            if entry.subscribers <= 0 and table.get(key) is entry:
                del table[key]  # the reader's next read leaves it out

    def unsubscribe_inbox(self, inbox: Inbox) -> None:
        self._leave(self._inboxes, inbox.player_id, inbox)

    def inbox_after(self, inbox: Inbox, cursor: str) -> tuple[list[bytes], str]:
        """The frames of the player's entries after `cursor`, and the new cursor: from the
        ring, else (a resume from before it) a page read from the store."""
        found = inbox.buffered_after(cursor)
        if found is None:
            found = [(i, sse(entry["type"], entry, i)) for i, entry in self.inboxes.inbox_after(inbox.player_id, cursor)]
        if not found:
            return [], cursor
        return [frame for _, frame in found], found[-1][0]

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

    def unsubscribe(self, feed: Feed) -> None:
        self._leave(self._feeds, feed.game_id, feed)

    def watched(self) -> int:
        return len(self._feeds)

    # ---- what a subscriber receives -----------------------------------------------------------

    def frames_after(self, feed: Feed, cursor: int, seat, from_store: bool = True) -> Optional[tuple[list[bytes], int]]:
        """The frames of the feed's events after `cursor` as `seat` may see them, and the new
        cursor; from the ring, or the store when the ring no longer reaches back that far
        (None then, unless from_store)."""
        entries = feed.buffered_after(cursor)
        if entries is None:
            return self._catch_up(feed, cursor, seat) if from_store else None
        if not entries:
            return [], cursor
        viewer = EVERYONE if feed.game.finished else seat
        frames = []
        for entry in entries:
            frame = entry.frames.get(viewer)
            if frame is None:
                frame = entry.frames[viewer] = self.render(feed.game, viewer, entry.event, entry.to_act, entry.clock)
            frames.append(frame)
        return frames, entries[-1].event.version

    def render(self, game: Game, viewer, e: StoredEvent, to_act: list, clock: Optional[dict] = None) -> bytes:
        self.renders += 1
        shown = presenting.present(game, viewer, e.type, e.data, e.version, e.actor, e.at)
        shown["to_act"] = to_act
        if clock is not None:
            shown["clock"] = clock
        return sse("game_event", shown, e.version)

    def deliver(self, feed: Feed) -> None:
        """Writes the feed's new events to its direct subscribers (see Direct)."""
        payloads: dict = {}
        subscribers = list(feed.direct)
        for i, sub in enumerate(subscribers):
            if sub not in feed.direct:
                continue
            key = (sub.seat, sub.cursor, sub.chunked)
            payload = payloads.get(key)
            if payload is None:
                found = self.frames_after(feed, sub.cursor, sub.seat, from_store=False)
                if found is None:  # behind the ring: its greenlet catches up from the store
                    feed.direct.discard(sub)
                    sub.wake.set()
                    continue
                frames, upto = found
                payload = payloads[key] = (chunk(b"".join(frames), sub.chunked) if frames else b"", upto)
            data, upto = payload
            if data:
                sub.cursor = upto
                sub.send_now(feed, data)
            if i % 500 == 499:
                time.sleep(0)  # let requests in between (a cooperative yield under gevent)
        if feed.game.finished:
            for sub in list(feed.direct):
                sub.wake.set()  # its greenlet sends `end` and closes

    def _catch_up(self, feed: Feed, cursor: int, seat) -> tuple[list[bytes], int]:
        """Events older than the ring (a resume from far back, a subscriber that fell behind):
        read from the store and folded from the game as it was at `cursor`, not cached."""
        newest = feed.game
        upto = min(newest.version, cursor + CATCH_UP_PAGE)
        setup_version = newest.setup_version
        if setup_version is not None and newest.platform.setup_version is None and cursor >= setup_version:
            game = self.games.at_version(feed.game_id, cursor, newest)
        else:
            game = replace(newest, version=0, state=None, snapshot_version=0, platform=START)
            game = _fold_to(game, self.store.read(feed.game_id, after=0, limit=cursor))
        viewer = EVERYONE if newest.finished else seat
        frames = []
        for e in self.store.read(feed.game_id, after=cursor, limit=upto - cursor):
            game = advance(game, e)
            frames.append(self.render(newest, viewer, e, to_act(game), presenting.clock_at_event(game, e.at)))
            cursor = e.version
        return frames, cursor

    # ---- the reader ---------------------------------------------------------------------------

    def _start_reader(self) -> None:
        with self._lock:
            if self._reader is not None and self._reader.is_alive():
                return
            self._follower = self._follower or self._make_follower()
            self._reader = threading.Thread(target=self._run, name="live-hub", daemon=True)
            self._reader.start()
            threading.Thread(target=self._tick, name="live-hub-ticks", daemon=True).start()

    def _make_follower(self):
        if self.inboxes is None or not hasattr(self.store, "keys") or getattr(self.store, "clustered", False):
            return Polled(self.store.follower(), self.inboxes)  # the in-memory store, a cluster
        return LiveFollower(self.store, self.inboxes.inbox_key, self.inboxes.decode_inbox, self.block_ms)

    def _tick(self) -> None:
        pid = self._pid
        while self._pid == pid:
            time.sleep(self.tick_s)
            self.tick()

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
            except Exception:  # noqa: BLE001 - the reader must outlive any one bad read
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
                    except Exception:  # noqa: BLE001 - one game's bad event must not stop the others
                        log.exception("live hub: game %s: events %s not applied", game_id,
                                      [e.version for e in events])
            for player_id, new in entries.items():
                inbox = self._inboxes.get(player_id)
                if inbox is not None:
                    inbox.extend(new)


def _joined(table: dict, key: str):
    """(Under the hub's lock) the feed or inbox already followed, with one subscriber more."""
    entry = table.get(key)
    if entry is not None:
        entry.subscribers += 1
    return entry


def _fold_to(game: Game, events: list[StoredEvent]) -> Game:
    for e in events:
        game = advance(game, e)
    return game


def stream(hub: Hub, feed: Feed, seat, cursor: int, keepalive_s: float, max_s: float):
    """A subscriber's frames (bytes) from `cursor` on: events, keep-alive comments while
    nothing happens, `end` once the game is over (the caller unsubscribes when it closes)."""
    def ended(cursor: int) -> Optional[bytes]:
        game = feed.game
        return end_frame(game) if game.finished and cursor >= game.version else None

    return _follow(lambda c: hub.frames_after(feed, c, seat), ended, feed, cursor, keepalive_s, max_s)


def inbox_stream(hub: Hub, inbox: Inbox, cursor: str, keepalive_s: float, max_s: float):
    """A player stream's frames from `cursor` on: entries, keep-alive comments while nothing
    happens (a player's stream has no end but its time limit)."""
    return _follow(lambda c: hub.inbox_after(inbox, c), lambda c: None, inbox, cursor, keepalive_s, max_s)


def _follow(read: Callable, ended: Callable, source, cursor, keepalive_s: float, max_s: float):
    """Frames from `read(cursor)` as they come, until `ended(cursor)` gives a last one or max_s
    passes. It waits with no timer of its own: the reader's new entries or the hub's tick set
    `source.changed`."""
    started = last = time.monotonic()
    while True:
        changed = source.changed
        try:
            frames, cursor = read(cursor)
        except StoreUnavailable:
            yield b": store unavailable, retrying\n\n"
            time.sleep(1)
            continue
        if frames:
            yield b"".join(frames)
            last = time.monotonic()
            continue
        final = ended(cursor)
        if final is not None:
            yield final
            return
        now = time.monotonic()
        if now - started >= max_s:
            return
        if now - last >= keepalive_s:
            yield b": keep-alive\n\n"
            last = now
        changed.wait()


def end_frame(game: Game) -> bytes:
    # `id:` makes a browser's reconnect send Last-Event-ID: the final version, which the
    # server answers 204: an EventSource stops reconnecting then.
    return sse("end", {"version": game.version, "result": game.result}, game.version)


def serve_direct(hub: Hub, feed: Feed, sub: Direct, sendall, keepalive_s: float, max_s: float) -> None:
    """The greenlet's part of a direct subscriber (after the response's head went out through
    the server): catch up, join the feed's direct set, then wait; take over when the reader
    could not write (a slow client), send keep-alives and `end`. `sendall` writes to the
    socket, waiting as long as it takes (the reader is not writing meanwhile)."""
    started = time.monotonic()
    chunked = sub.chunked
    try:
        while not sub.dead:
            if sub.pending is not None:
                data, sub.pending = sub.pending, None
                sendall(data)
                sub.last_write = time.monotonic()
            # catch up to the feed, then join it (no yield between the last read and the join)
            while True:
                try:
                    frames, sub.cursor = hub.frames_after(feed, sub.cursor, sub.seat)
                except StoreUnavailable:
                    sendall(chunk(b": store unavailable, retrying\n\n", chunked))
                    time.sleep(1)
                    continue
                if not frames:
                    break
                sendall(chunk(b"".join(frames), chunked))
                sub.last_write = time.monotonic()
            game = feed.game
            if game.finished and sub.cursor >= game.version:
                sendall(chunk(end_frame(game), chunked))
                return
            sub.wake.clear()
            feed.direct.add(sub)
            while True:
                now = time.monotonic()
                left = max_s - (now - started)
                if hub.keepalive_s is None:  # else the hub's tick writes them
                    left = min(keepalive_s - (now - sub.last_write), left)
                if left <= 0:
                    if now - started >= max_s:
                        return
                    sub.send_now(feed, chunk(b": keep-alive\n\n", chunked))
                    if sub.dead:
                        return  # the client left
                    if sub.pending is not None:
                        break
                    continue
                sub.wake.wait(left)
                if sub.dead:
                    return
                if sub not in feed.direct or feed.game.finished:
                    feed.direct.discard(sub)
                    break
    except OSError:
        return  # the client left
    finally:
        feed.direct.discard(sub)
