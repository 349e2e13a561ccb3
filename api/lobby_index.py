"""The lobby's indexes: games by status (waiting, active, finished), all types together and per
type, newest first. Sorted sets scored by when the game entered the status (ms); each touched by
single-key commands only (they are global keys: any cluster slot).

The indexes are a cache of what the games' histories say: a listing loads each game it shows and
moves an entry whose game has changed status (or is gone, or private) to where it belongs, so a
write lost in a crash heals when the lobby is next read. Finished games are trimmed to the
newest FINISHED_KEPT.
"""
from __future__ import annotations

from typing import Optional

import redis

from events.store import StoreUnavailable

from .players import page

STATUSES = ("waiting", "active", "finished")
FINISHED_KEPT = 10_000


class LobbyIndex:
    def __init__(self, connection, prefix: str = ""):
        self.redis = connection
        self.prefix = prefix

    def key(self, status: str, type_: Optional[str] = None) -> str:
        return f"{self.prefix}lobby:{status}" + (f":{type_}" if type_ else "")

    def place(self, game_id: str, type_: str, status: Optional[str], at_ms: int) -> None:
        """Lists the game under `status` (None, `abandoned` or `aborted`: under none), out of the others."""
        status = status if status in STATUSES else None
        try:
            pipe = self.redis.pipeline(transaction=False)
            for other in STATUSES:
                if other != status:
                    pipe.zrem(self.key(other), game_id)
                    pipe.zrem(self.key(other, type_), game_id)
            if status is not None:
                pipe.zadd(self.key(status), {game_id: at_ms})
                pipe.zadd(self.key(status, type_), {game_id: at_ms})
                if status == "finished":
                    pipe.zremrangebyrank(self.key(status), 0, -FINISHED_KEPT - 1)
                    pipe.zremrangebyrank(self.key(status, type_), 0, -FINISHED_KEPT - 1)
            pipe.execute()
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e

    def drop(self, game_id: str, status: str, type_: Optional[str]) -> None:
        try:
            self.redis.zrem(self.key(status, type_), game_id)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e

    def page(self, status: str, type_: Optional[str], before: Optional[tuple[int, str]], count: int) -> list:
        try:
            return page(self.redis, self.key(status, type_), before, count)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise StoreUnavailable(str(e)) from e
