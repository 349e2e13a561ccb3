"""What streams wait on: a watched game's Feed (its newest state and a ring of its recent
events, each framed once per distinct viewer) and a followed player's Inbox (its newest entries,
each framed once), both filled by the hub's reader (api/live/reader.py)."""
from __future__ import annotations

import threading
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from api.games import presenting
from api.games.repository import Game
from api.live.frames import sse
from api.platform.events import fold_stored
from api.words import DEFAULT, notices
from events.store import StoredEvent

if TYPE_CHECKING:
    from api.live.direct import Direct
    from domain.contract import Viewer

RING = 256  # recent events a feed keeps for its subscribers; older ones are read from the store


class Entry:
    """One event of a feed, with who acts after it and its frames by viewer."""

    __slots__ = ("event", "to_act", "frames", "clock")

    def __init__(self, event: StoredEvent, to_act: list[Any], clock: dict[str, Any] | None = None):
        self.event = event
        self.to_act = to_act
        self.clock = clock  # a clocked game's deadlines after the event (presenting.clock_at_event)
        self.frames: dict[tuple[Viewer, str], bytes] = {}


def advance(game: Game, event: StoredEvent) -> Game:
    """The game after one more of its events (the game's own, or the platform's)."""
    state, platform = fold_stored(game.definition, [event], game.state, game.platform)
    return replace(game, version=event.version, state=state, platform=platform)


def to_act(game: Game) -> list[Any]:
    """Who acts after the game's last event: nobody while the game waits for people or the
    server is still setting it up."""
    setup_version = game.setup_version
    return game.actors() if setup_version is not None and game.version >= setup_version else []


class Followed:
    """What streams wait on, a game's feed or a player's inbox: its subscribers in this process
    and `changed`, set (and replaced) whenever entries arrive or the hub's tick wakes them."""

    def __init__(self) -> None:
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
        self._states: dict[tuple[int, int | None], Any] = {}  # (version, seat) -> its state frame

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

    def state_frame(self, seat: int | None) -> tuple[bytes, int]:
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

    def backfill(self, entries: list[Entry]) -> bool:
        """Puts entries read from the store (a resume from before the ring) in front of the ring,
        where they join it: its oldest entry, or the newest version when it is empty. A crowd
        resuming on a feed that just started (all of a game's streams reconnecting at once to a
        process that had let its feed go) then reads and folds the store once, not once each.
        True if the ring now reaches back to the first of them."""
        with self._lock:
            if not entries:
                return False
            ring = self.entries
            if ring:
                first = ring[0].event.version
                entries = [e for e in entries if e.event.version < first]
                if not entries or entries[-1].event.version + 1 != first:
                    return False
            elif entries[-1].event.version != self.game.version:
                return False
            room = RING - len(ring)
            if room < len(entries):
                return False
            ring.extendleft(reversed(entries))
            return True

    def buffered_after(self, cursor: int) -> list[Entry] | None:
        """The entries after `cursor`, or None when the ring no longer holds the next one."""
        with self._lock:
            if cursor >= self.game.version:
                return []
            if not self.entries or self.entries[0].event.version > cursor + 1:
                return None
            entries = self.entries
            first = entries[0].event.version
            return [entries[i] for i in range(cursor + 1 - first, len(entries))]


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
        # (key, id, entry, its frame per language: made once for all the player's connections)
        self.entries: deque[tuple[tuple[Any, ...], str, dict[str, Any], dict[str, bytes]]] = deque()

    def extend(self, entries: list[tuple[str, dict[str, Any]]], stale: set[str] | frozenset[str] = frozenset()) -> int:
        """Adds the entries after the newest read; those in `stale` (a `your_turn` its game has
        moved past: Players.stale_turns) are passed over, never framed."""
        added = 0
        with self._lock:
            newest = entry_key(self.last_id)
            for entry_id, entry in entries:
                key = entry_key(entry_id)
                if key <= newest:
                    continue
                self.last_id, newest = entry_id, key
                if entry_id in stale:
                    continue
                self.entries.append((key, entry_id, entry, {}))
                if len(self.entries) > RING:
                    self.floor = self.entries.popleft()[0]
                added += 1
            if added:
                changed = self._renew_changed()
        if added:
            changed.set()
        return added

    def buffered_after(self, cursor: str, lang: str = DEFAULT) -> list[tuple[str, dict[str, Any], bytes]] | None:
        """(id, entry, frame) of the entries after `cursor`, in `lang`'s words, or None when the
        ring does not reach back to it."""
        key = entry_key(cursor)
        with self._lock:
            if key < self.floor:
                return None
            found = []
            for k, i, entry, frames in self.entries:
                if k > key:
                    if lang not in frames:
                        frames[lang] = inbox_frame(entry, i, lang)
                    found.append((i, entry, frames[lang]))
            return found


def inbox_frame(entry: dict[str, Any], entry_id: str, lang: str) -> bytes:
    """A player's inbox entry as its stream sends it, with its words in `lang`."""
    return sse(entry["type"], notices.said(entry, lang), entry_id)
