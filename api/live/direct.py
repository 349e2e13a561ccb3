"""The direct path, under gevent: the hub's reader writes a game's new events to the sockets of
its subscribers itself, and a subscriber's own greenlet only catches up, takes over a slow
client, and ends the stream."""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from api.live.feeds import Feed
from api.live.frames import REVOKED, chunk, end_frame
from api.words import DEFAULT
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.live.hub import Hub


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

    __slots__ = ("fd", "chunked", "seat", "lang", "cursor", "wake", "pending", "dead", "last_write")

    def __init__(self, fd: int, chunked: bool, seat: int | None, cursor: int, lang: str = DEFAULT) -> None:
        self.fd = fd
        self.chunked = chunked
        self.seat = seat
        self.lang = lang  # the language of its events' words
        self.cursor = cursor  # the last version handed to the socket (sent, or in `pending`)
        self.wake = threading.Event()
        self.pending: bytes | None = None
        self.dead = False
        self.last_write = time.monotonic()

    def leave(self, feed: Feed) -> None:
        """Out of the direct set, its greenlet woken: it looks at its stream again."""
        feed.direct.discard(self)
        self.wake.set()

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


def serve_direct(hub: Hub, feed: Feed, sub: Direct, sendall: Callable[[bytes], object], keepalive_s: float,
                 max_s: float, revoked: Callable[[], bool] = lambda: False) -> None:
    """The greenlet's part of a direct subscriber (after the response's head went out through
    the server): catch up, join the feed's direct set, then wait; take over when the reader
    could not write (a slow client), send keep-alives and `end`. `sendall` writes to the
    socket, waiting as long as it takes (the reader is not writing meanwhile)."""
    started = time.monotonic()
    chunked = sub.chunked
    try:
        while not sub.dead:
            if revoked():  # woken out of the direct set (Direct.leave) when its key was replaced
                sendall(chunk(REVOKED, chunked))
                return
            if sub.pending is not None:
                data, sub.pending = sub.pending, None
                sendall(data)
                sub.last_write = time.monotonic()
            # catch up to the feed, then join it (no yield between the last read and the join)
            while True:
                try:
                    frames, sub.cursor = hub.frames_after(feed, sub.cursor, sub.seat, sub.lang)
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
