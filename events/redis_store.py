"""The event store on Redis Streams.

One stream per game with explicit ids `0-<version>`: event N is `XRANGE key 0-N 0-N`, and
Redis itself refuses an out-of-order id. Appends and creation are single Lua scripts.

The store is assembled from one part per concern, each in its module: appends
(events/redis_appends.py), reads (redis_reads.py), caches and snapshots (redis_caches.py),
clocks (redis_clocks.py), the sets of games and the finished log (redis_indexes.py), on what
they share (redis_base.py).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .connection import unavailable
from .redis_announcements import AppendsListener, Deliver, Wanted
from .redis_appends import IDEMPOTENCY_TTL_SECONDS, Appends, NotReplicated
from .redis_base import finished_ttl_from_env
from .redis_caches import Caches
from .redis_clocks import Clocks
from .redis_entries import decode_entry, encode_entries
from .redis_follower import RedisFollower
from .redis_indexes import Indexes
from .redis_reads import Reads
from .store import EventStore

# What other code imports from here.
__all__ = ["IDEMPOTENCY_TTL_SECONDS", "NotReplicated", "RedisEventStore", "RedisFollower", "decode_entry",
           "encode_entries", "finished_ttl_from_env"]


class RedisEventStore(Appends, Reads, Caches, Clocks, Indexes):
    """The whole store (made as RedisBase says: a client, a key prefix, the finished games' TTL,
    the buckets and the replicas' acknowledgement)."""

    def closed(self, game_id: str) -> bool:
        return False  # no archive: events/archived_store.py has one

    def watched_hint(self, game_id: str, version: int) -> bool | None:
        return self.watched_hints.at(game_id, version)

    @unavailable
    def ping(self) -> bool:
        return bool(self.redis.ping())

    def listen_appends(self, wanted: Wanted, deliver: Deliver, alive: Callable[[], bool]) -> AppendsListener | None:
        """Hands the appends other processes write to `deliver` (events/redis_announcements.py);
        None when the store does not announce them (WARM_GAMES off, or a cluster)."""
        if not self.announcing or self.clustered:
            return None
        return AppendsListener(self, wanted, deliver, alive)


if TYPE_CHECKING:
    _: type[EventStore] = RedisEventStore  # mypy checks the adapter against the port
