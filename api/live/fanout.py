"""What a subscriber receives: a feed's events framed once per distinct viewer and language (its
events' words: api/games/words.py) (from the ring,
or the store for one that resumes from before it), a player's inbox entries, and the reader's
own writes to the direct subscribers (api/live/direct.py)."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from api.games import presenting, words
from api.games.repository import Game, GameRepository
from api.live.feeds import Entry, Feed, Inbox, advance, inbox_frame, to_act
from api.live.frames import chunk, sse
from api.platform.events import START
from api.words import DEFAULT
from domain.contract import EVERYONE, Viewer
from events.store import StoredEvent

CATCH_UP_PAGE = 500


class Fanout:
    """The hub's frames for its subscribers: from the feeds' rings (each event framed once per
    viewer), else read through the hub's own store."""

    # set by Hub.__init__
    store: Any
    games: GameRepository
    inboxes: Any
    renders: int

    def inbox_after(self, inbox: Inbox, cursor: str, lang: str = DEFAULT,
                    replay: bool = False) -> tuple[list[bytes], str]:
        """The frames of the player's entries after `cursor` (their words in `lang`), and the
        new cursor: from the ring, else (a resume from before it) a page read from the store.
        A `replay` (a resume's first read) asks again which `your_turn` of the ring is stale:
        the ring's were fresh when read, but a game may have moved past them since (a phone
        reconnecting with Last-Event-ID while another stream of its player keeps the ring)."""
        found = inbox.buffered_after(cursor, lang)
        if found is None:
            entries = self.inboxes.inbox_after(inbox.player_id, cursor)
            if not entries:
                return [], cursor
            stale = self.inboxes.stale_turns(inbox.player_id, entries)  # never framed (api/players/feed.py)
            return [inbox_frame(e, i, lang) for i, e in entries if i not in stale], entries[-1][0]
        if not found:
            return [], cursor
        stale = self.inboxes.stale_turns(inbox.player_id, [(i, e) for i, e, _ in found]) if replay else set()
        return [frame for i, _, frame in found if i not in stale], found[-1][0]

    def frames_after(self, feed: Feed, cursor: int, seat: int | None, lang: str = DEFAULT) -> tuple[list[bytes], int]:
        """The frames of the feed's events after `cursor` as `seat` may see them, in `lang`'s
        words, and the new cursor; from the ring, or the store when the ring no longer reaches
        back that far."""
        found = self.buffered_frames(feed, cursor, seat, lang)
        return found if found is not None else self._catch_up(feed, cursor, seat, lang)

    def buffered_frames(self, feed: Feed, cursor: int, seat: int | None,
                        lang: str = DEFAULT) -> tuple[list[bytes], int] | None:
        """frames_after from the ring only: None when it no longer reaches back that far."""
        entries = feed.buffered_after(cursor)
        if entries is None:
            return None
        if not entries:
            return [], cursor
        viewer = EVERYONE if feed.game.finished else seat
        frames = []
        for entry in entries:
            frame = entry.frames.get((viewer, lang))
            if frame is None:
                frame = entry.frames[(viewer, lang)] = self.render(feed.game, viewer, entry.event, entry.to_act,
                                                                   entry.clock, lang)
            frames.append(frame)
        return frames, entries[-1].event.version

    def render(self, game: Game, viewer: Viewer, e: StoredEvent, to_act: list[Any], clock: dict[str, Any] | None = None,
               lang: str = DEFAULT) -> bytes:
        self.renders += 1
        shown = presenting.present(game, viewer, e.type, e.data, e.version, e.actor, e.at)
        words.say_events(game, lang, [shown])
        shown["to_act"] = to_act
        if clock is not None:
            shown["clock"] = clock
        return sse("game_event", shown, e.version)

    def deliver(self, feed: Feed) -> None:
        """Writes the feed's new events to its direct subscribers (see Direct)."""
        payloads: dict[tuple[int | None, str, int, bool], Any] = {}
        subscribers = list(feed.direct)
        for i, sub in enumerate(subscribers):
            if sub not in feed.direct:
                continue
            key = (sub.seat, sub.lang, sub.cursor, sub.chunked)
            payload = payloads.get(key)
            if payload is None:
                found = self.buffered_frames(feed, sub.cursor, sub.seat, sub.lang)
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

    def _catch_up(self, feed: Feed, cursor: int, seat: int | None, lang: str) -> tuple[list[bytes], int]:
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
        entries = []
        for e in self.store.read(feed.game_id, after=cursor, limit=upto - cursor):
            game = advance(game, e)
            entries.append(Entry(e, to_act(game), presenting.clock_at_event(game, e.at)))
        if feed.backfill(entries):  # the next resume from here reads the ring
            found = self.buffered_frames(feed, cursor, seat, lang)
            if found is not None:
                return found
        viewer = EVERYONE if newest.finished else seat
        frames = [self.render(newest, viewer, entry.event, entry.to_act, entry.clock, lang) for entry in entries]
        return frames, entries[-1].event.version if entries else cursor


def _fold_to(game: Game, events: list[StoredEvent]) -> Game:
    for e in events:
        game = advance(game, e)
    return game
