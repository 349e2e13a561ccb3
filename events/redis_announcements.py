"""Every written append, told to the processes that hold its game (issue 57).

A process decides a move on the state it holds when that state is at the version the client
names; a process that did not make the game's last append is behind and used to read the
events it lacks before appending (two round trips). With `announcing` on, the append script
also PUBLISHes its events on the prefix's channel (events/scripts.py's APPEND), and each
process that serves moves runs one AppendsListener: a thread (a greenlet under gevent) on a
connection of its own, subscribed to the channel, handing a game's events to the process only
for the games it wants (those it holds, at the version right before them: nothing is decoded
for the others). Pub/sub promises nothing: a publication lost (a reconnection, a slow
subscriber dropped by Redis) leaves the process behind, and it reads what it lacks as before.

Every process hears every append (its own too), so a publication's cost is paid once per web
worker per move: the listener reads its connection with hiredis directly (_Subscription), not
through redis-py's PubSub.get_message, whose readiness polls (two poll() and a MSG_PEEK recv a
message), retry wrapper and debug line of the whole message (built at every push, logged or
not) cost a move's listener about 2.5x as much (issue 57: ~30 vs ~12 us a publication here).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import hiredis
import redis

from . import connection
from .redis_base import RedisBase
from .redis_entries import decode_entry
from .store import StoredEvent

log = logging.getLogger(__name__)

POLL_S = 1.0  # how often an idle listener checks that its owner still wants it
RETRY_S = 1.0  # the pause before subscribing again after the connection failed

Wanted = Callable[[str, int], bool]  # (game id, first version told): decode these?
Deliver = Callable[[str, list[StoredEvent]], None]


def parse(message: bytes) -> tuple[str, int, bytes, bytes]:
    """(game id, first version, origin, the entries still joined) of a publication."""
    game_id, first, origin, entries = message.split(b"\n", 3)
    return game_id.decode(), int(first), origin, entries


class AppendsListener:
    """Subscribes at once (in the caller: the first game a process holds pays that one round
    trip, so no request's round trips meet a SUBSCRIBE later), then listens in a daemon thread
    until stop() or until `alive()` says its owner is gone (a test's app dropped), subscribing
    again after a failure."""

    def __init__(self, store: RedisBase, wanted: Wanted, deliver: Deliver, alive: Callable[[], bool]):
        self.store, self.channel = store, store.keys.appends()
        self.redis = connection.dedicated(cast(redis.Redis, store.redis), "appends", "events")
        self.wanted, self.deliver, self.alive = wanted, deliver, alive
        self.subscribed = threading.Event()  # set while the subscription is confirmed
        self.told = 0  # publications handed to the owner (tests, metrics)
        self._stopped = False
        self._pubsub: _Subscription | None = None
        self._origin = store.origin.encode()  # this process's (the listener is started in the one it serves)
        try:
            self._subscribe()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            pass  # the thread tries again
        self._thread = threading.Thread(target=self._run, name="appends-listener", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ends the listening (within POLL_S) and closes its connection."""
        self._stopped = True
        self.subscribed.clear()

    def _subscribe(self) -> None:
        self._pubsub = _Subscription(self.redis, self.channel)
        self.subscribed.set()

    def _run(self) -> None:
        while not self._stopped and self.alive():
            try:
                if self._pubsub is None:
                    self._subscribe()
                assert self._pubsub is not None
                message = self._pubsub.next(POLL_S)
                if message is not None:
                    self._handle(message)
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                self._drop()
                time.sleep(RETRY_S)
            except Exception:  # a bad publication or the owner's failure: never the listener's end
                log.exception("appends listener: a publication was not handled")
        self._drop()
        self.redis.connection_pool.disconnect()

    def _handle(self, data: bytes) -> None:
        game_id, first, origin, entries = parse(data)
        # Its own store's appends: the process holds what it appended (folding them again
        # would only cost a move's CPU); the others' only for the games wanted.
        if self._stopped or origin == self._origin or not self.wanted(game_id, first):
            return
        told = entries.split(b"\n")
        self.deliver(game_id, [decode_entry(b"0-%d" % v, {b"e": e}) for v, e in enumerate(told, start=first)])
        self.told += 1

    def _drop(self) -> None:
        self.subscribed.clear()
        subscription, self._pubsub = self._pubsub, None
        if subscription is not None:
            try:
                subscription.close()
            except Exception:  # closing a connection already broken
                pass


class _Subscription:
    """One connection (made by redis-py: its address, credentials, TLS and name) subscribed to
    one channel, its replies read with a hiredis reader of its own: `next` answers a
    publication's data, or None when none came within the timeout. A reply that is not a
    message (the subscription's confirmation) is skipped; an error reply, a closed connection
    or no confirmation within 10 s raises redis.ConnectionError (the caller subscribes again)."""

    def __init__(self, client: redis.Redis, channel: str):
        self.pool = client.connection_pool
        self.connection = cast(Any, self.pool.get_connection())  # connected (the handshake's replies all read)
        self.socket: socket.socket = self.connection._sock
        self.reader = hiredis.Reader()
        self.buffer = bytearray(65536)
        try:
            self.connection.send_command("SUBSCRIBE", channel)
            self.socket.settimeout(1.0)
            deadline = time.monotonic() + 10
            while True:
                reply = self._reply()
                if reply is not None and reply[0] == b"subscribe":
                    break
                if time.monotonic() >= deadline:
                    raise redis.TimeoutError("no confirmation of the subscription")
            self.socket.settimeout(POLL_S)
        except BaseException:
            self.close()
            raise

    def next(self, timeout: float) -> bytes | None:
        if self.socket.gettimeout() != timeout:
            self.socket.settimeout(timeout)
        while True:
            reply = self._reply()
            if reply is None:
                return None
            if reply[0] == b"message":
                return cast(bytes, reply[2])

    def _reply(self) -> Any:
        """The next whole reply; None when nothing (or only part of one) came within the socket's timeout."""
        while True:
            reply = self.reader.gets()
            if reply is not False:
                if isinstance(reply, hiredis.ReplyError):
                    raise redis.ConnectionError(f"the subscription was refused: {reply}")
                return reply
            try:
                n = self.socket.recv_into(self.buffer)
            except TimeoutError:  # socket.timeout (gevent's too)
                return None
            if n == 0:
                raise redis.ConnectionError("the server closed the subscription's connection")
            self.reader.feed(cast(bytes, self.buffer), 0, n)  # (any buffer: the stubs say bytes)

    def close(self) -> None:
        self.connection.disconnect()
        self.pool.release(self.connection)
