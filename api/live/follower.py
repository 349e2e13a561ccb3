"""The hub's one Redis reader: a single `XREAD BLOCK` over the event streams of the games and
the inboxes of the players that this process's live streams follow.

Its connection is its own (a blocked XREAD holds it), made from the live pool's settings with:

- a socket timeout longer than the block (BLOCK + `READ_MARGIN_S`): a timeout shorter than the
  block would end every quiet read with a spurious TimeoutError (and a reconnect); no timeout
  at all would leave the reader blocked for ever on a connection whose peer vanished without
  a reset (a host gone, a partition), where a timed-out read is a failed one and retried;
- no silent retry: a reconnected connection has a new client id, which interrupt() needs to
  end a blocked read (CLIENT UNBLOCK, sent on the store's pooled connections).

A read that fails (Redis restarting, a timeout) raises StoreUnavailable; the hub waits a
second and reads again from the positions it holds, on a new connection: nothing is missed, as
every position is the last entry a subscriber was given (api/live/reader.py, `_run`).
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, cast

import redis
from redis.typing import KeyT, StreamIdT

from events import connection
from events.redis_entries import Streams
from events.redis_store import RedisEventStore, decode_entry
from events.store import Follower, StoredEvent, StoreUnavailable

READ_MARGIN_S = 10.0  # the socket timeout's margin over the read's BLOCK time


class LiveFollower:
    """XREAD over games' streams (positions: versions) and inboxes (positions: entry ids)."""

    def __init__(self, store: RedisEventStore, inbox_key: Callable[[str], str], decode_inbox: Callable[[dict], dict],
                 block_ms: int, margin_s: float = READ_MARGIN_S):
        self.store = store
        self.inbox_key = inbox_key
        self.decode_inbox = decode_inbox
        # (the hub makes this reader on one Redis only; a cluster's is Polled, below)
        client = cast(redis.Redis, store.redis)
        connect_timeout = client.connection_pool.connection_kwargs.get("socket_connect_timeout") or 5
        self.redis = connection.dedicated(client, "reader", "live", socket_timeout=block_ms / 1000 + margin_s,
                                          socket_connect_timeout=connect_timeout)
        self._client_id: int | None = None
        self._blocked = False

    def read(self, games: dict[str, int], inboxes: dict[str, str], block_ms: int, count: int = 100
             ) -> tuple[dict[str, list[StoredEvent]], dict[str, list[tuple[str, dict]]]]:
        """The games' events after their versions and the inboxes' entries after their ids,
        waiting up to block_ms for the first one."""
        if not games and not inboxes:
            return {}, {}
        keys = self.store.keys
        streams: dict[KeyT, StreamIdT] = {}
        owner: dict[str, tuple[bool, str]] = {}  # a stream's key: (is it a game's, whose)
        for game_id, after in games.items():
            key = keys.events(game_id)
            streams[key], owner[key] = f"0-{after}", (True, game_id)
        for player_id, after_id in inboxes.items():
            key = self.inbox_key(player_id)
            streams[key], owner[key] = after_id, (False, player_id)
        try:
            if self._client_id is None:
                self._client_id = self.redis.client_id()
            self._blocked = True
            reply = cast(Streams, self.redis.xread(streams, count=count, block=block_ms))
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError) as e:
            self._client_id = None  # a new connection has a new id
            self.redis.connection_pool.disconnect()
            raise StoreUnavailable(str(e)) from e
        finally:
            self._blocked = False
        found_games: dict[str, list[StoredEvent]] = {}
        found_inboxes: dict[str, list[tuple[str, dict]]] = {}
        for stream, entries in reply or ():
            is_game, name = owner[stream.decode() if isinstance(stream, bytes) else stream]
            if is_game:
                found_games[name] = [decode_entry(i, f) for i, f in entries]
            else:
                found_inboxes[name] = [(i.decode(), self.decode_inbox(f)) for i, f in entries]
        return found_games, found_inboxes

    def interrupt(self) -> bool:
        """Ends a blocked read (the hub has a new stream to add to it); False if none was."""
        if not self._blocked or self._client_id is None:
            return False
        try:
            return bool(self.store.redis.client_unblock(self._client_id))
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e

    def close(self) -> None:
        self.redis.connection_pool.disconnect()


class Polled:
    """For a store without one blocking read over all its keys (the in-memory store; a Redis
    Cluster, whose streams live on several nodes): the games through the store's own follower,
    and the inboxes, if any are followed, read every POLL_MS with one single-key read each (per
    process and player, not per connection)."""

    POLL_MS = 100

    def __init__(self, follower: Follower, inboxes: Any = None) -> None:
        self.follower = follower
        self.inboxes = inboxes  # api.players.Players, or None: no inboxes

    def read(self, games, inboxes, block_ms, count=100):
        if inboxes and self.inboxes is not None:
            block_ms = min(block_ms, self.POLL_MS)
            if not games:
                time.sleep(block_ms / 1000)
        found = self.follower.read(games, block_ms, count) if games else {}
        entries = {}
        if inboxes and self.inboxes is not None:
            for player_id, after in inboxes.items():
                new = self.inboxes.inbox_after(player_id, after, count)
                if new:
                    entries[player_id] = new
        return found, entries

    def interrupt(self) -> bool:
        return self.follower.interrupt()

    def close(self) -> None:
        self.follower.close()
