"""The live hub's reader on one Redis (events/cluster_follower.py is its cluster twin)."""
from __future__ import annotations

from typing import cast

import redis
from redis.typing import KeyT, StreamIdT

from . import connection
from .connection import unavailable
from .redis_base import RedisBase
from .redis_entries import Streams, decode_entry
from .store import StoredEvent


class RedisFollower:
    """XREAD BLOCK over many games' streams on a connection of its own (a blocked XREAD holds
    its connection: it must never be one a request waits for). interrupt() ends a blocked read
    with CLIENT UNBLOCK, sent on the store's own connections."""

    def __init__(self, store: RedisBase):
        self.store = store
        # (store.follower() makes this reader on one Redis only; a cluster has ClusterFollower)
        self.redis = connection.dedicated(cast(redis.Redis, store.redis), "follower", "events")
        self._client_id: int | None = None
        self._blocked = False

    @unavailable
    def read(self, positions: dict[str, int], block_ms: int, count: int = 100) -> dict[str, list[StoredEvent]]:
        if not positions:
            return {}
        keys = self.store.keys
        by_key = {keys.events(g): g for g in positions}
        streams: dict[KeyT, StreamIdT] = {keys.events(g): f"0-{after}" for g, after in positions.items()}
        try:
            if self._client_id is None:
                self._client_id = self.redis.client_id()
            self._blocked = True
            reply = cast(Streams, self.redis.xread(streams, count=count, block=block_ms))
        except (redis.ConnectionError, redis.TimeoutError):
            self._client_id = None  # a new connection has a new id
            raise
        finally:
            self._blocked = False
        found = {}
        for key, entries in reply or ():
            name = key.decode() if isinstance(key, bytes) else key
            found[by_key[name]] = [decode_entry(i, f) for i, f in entries]
        return found

    @unavailable
    def interrupt(self) -> bool:
        if not self._blocked or self._client_id is None:
            return False
        return bool(self.store.redis.client_unblock(self._client_id))

    def close(self) -> None:
        self.redis.connection_pool.disconnect()
