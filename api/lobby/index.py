"""The lobby's indexes: games by status (waiting, active, finished), all types together and per
type, newest first. Sorted sets scored by when the game entered the status (ms); each touched by
single-key commands only. On a cluster (KEY_BUCKETS > 1: events/connection.py) each index is
sharded into hash-tag buckets (`lobby:waiting:{b3}`), a game in its id's bucket, and a page
merges the buckets' pages; with one bucket the keys keep their first names.

The indexes are a cache of what the games' histories say: a listing loads each game it shows and
moves an entry whose game has changed status (or is gone, or private) to where it belongs, so a
write lost in a crash heals when the lobby is next read. Finished games are trimmed to the
newest FINISHED_KEPT.
"""
from __future__ import annotations

from typing import Any

from api.paging import sorted_page
from events.connection import UNAVAILABLE, key_buckets
from events.keys import bucket_of, sharded
from events.store import StoreUnavailable

STATUSES = ("waiting", "active", "finished")
FINISHED_KEPT = 10_000


class LobbyIndex:
    def __init__(self, connection: Any, prefix: str = "", buckets: int | None = None) -> None:
        self.redis = connection
        self.prefix = prefix
        self.buckets = buckets or key_buckets(connection)

    def key(self, status: str, type_: str | None = None, bucket: int = 0) -> str:
        key = f"{self.prefix}lobby:{status}" + (f":{type_}" if type_ else "")
        return sharded(key, self.buckets, bucket=bucket)

    def place(self, game_id: str, type_: str, status: str | None, at_ms: int) -> None:
        """Lists the game under `status` (None, `abandoned` or `aborted`: under none), out of the others."""
        status = status if status in STATUSES else None
        b = bucket_of(game_id, self.buckets)
        kept = max(1, FINISHED_KEPT // self.buckets)
        try:
            pipe = self.redis.pipeline(transaction=False)
            for other in STATUSES:
                if other != status:
                    pipe.zrem(self.key(other, None, b), game_id)
                    pipe.zrem(self.key(other, type_, b), game_id)
            if status is not None:
                pipe.zadd(self.key(status, None, b), {game_id: at_ms})
                pipe.zadd(self.key(status, type_, b), {game_id: at_ms})
                if status == "finished":
                    pipe.zremrangebyrank(self.key(status, None, b), 0, -kept - 1)
                    pipe.zremrangebyrank(self.key(status, type_, b), 0, -kept - 1)
            pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def drop(self, game_id: str, status: str, type_: str | None) -> None:
        try:
            self.redis.zrem(self.key(status, type_, bucket_of(game_id, self.buckets)), game_id)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def page(self, status: str, type_: str | None, before: tuple[int, str] | None, count: int) -> list[Any]:
        try:
            if self.buckets == 1:
                return sorted_page(self.redis, self.key(status, type_), before, count)
            # Each bucket's page after the cursor, merged in the same order (score, then name,
            # both descending): the first `count` of the merge are the page.
            found = [item for b in range(self.buckets)
                     for item in sorted_page(self.redis, self.key(status, type_, b), before, count)]
            return sorted(found, key=lambda item: (item[1], item[0]), reverse=True)[:count]
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
