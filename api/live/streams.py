"""A stream whose own greenlet (or thread) follows it: a game's stream where the reader cannot
write to the socket itself (see api/live/direct.py), and every player's stream. It waits on its
feed's or inbox's `changed`, which the reader's new entries and the hub's tick set."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from api.live.feeds import Feed, Inbox
from api.live.frames import REVOKED, end_frame
from api.words import DEFAULT
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.live.hub import Hub


def stream(hub: Hub, feed: Feed, seat: int | None, cursor: int, keepalive_s: float, max_s: float,
           revoked: Callable[[], bool] = lambda: False, lang: str = DEFAULT) -> Iterator[bytes]:
    """A subscriber's frames (bytes) from `cursor` on: events, keep-alive comments while
    nothing happens, `end` once the game is over (the caller unsubscribes when it closes);
    nothing more once `revoked()` (the player key it was opened with was replaced)."""
    def ended(cursor: int) -> bytes | None:
        game = feed.game
        return end_frame(game) if game.finished and cursor >= game.version else None

    return _follow(lambda c: hub.frames_after(feed, c, seat, lang), ended, feed, cursor, keepalive_s, max_s, revoked)


def inbox_stream(hub: Hub, inbox: Inbox, cursor: str, keepalive_s: float, max_s: float,
                 revoked: Callable[[], bool] = lambda: False, lang: str = DEFAULT,
                 resumed: bool = False) -> Iterator[bytes]:
    """A player stream's frames from `cursor` on: entries, keep-alive comments while nothing
    happens (a player's stream has no end but its time limit, and its key's replacement).
    `resumed` (Last-Event-ID): the first read replays what came since, its `your_turn`s checked
    again against their games (none replayed that its game has moved past)."""
    first = [resumed]

    def read(c: str) -> tuple[list[bytes], str]:
        read = hub.inbox_after(inbox, c, lang, first[0])
        first[0] = False  # after it succeeded: a store unavailable replays again
        return read

    return _follow(read, lambda c: None, inbox, cursor, keepalive_s, max_s, revoked)


def _follow(read: Callable[[Any], tuple[list[bytes], Any]], ended: Callable[[Any], bytes | None], source: Any,
            cursor: Any, keepalive_s: float, max_s: float, revoked: Callable[[], bool]) -> Iterator[bytes]:
    """Frames from `read(cursor)` as they come, until `ended(cursor)` gives a last one or max_s
    passes. It waits with no timer of its own: the reader's new entries or the hub's tick set
    `source.changed`."""
    started = last = time.monotonic()
    while True:
        if revoked():
            yield REVOKED
            return
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
