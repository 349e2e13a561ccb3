"""The sets of games the background passes walk on Redis (owing, idle; the first layout's
active set, migrated), a game's finish, the finished log and the leases on a game's work."""
from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .connection import unavailable
from .redis_base import RedisBase


class Indexes(RedisBase):
    """The global sets, the finish, the finished log, leases."""

    @unavailable
    def active_games(self) -> list[str]:
        """Every unfinished game (a full scan: for tools and tests, not for a pass)."""
        return [g.decode() for key in self.keys.every("idle") for g, _ in self.redis.zscan_iter(key, count=500)]

    @unavailable
    def owing_games(self) -> list[tuple[str, int]]:
        """(game, version it was marked at) of the games that may owe a worker's turn."""
        found = self._each("owing", lambda p, key: p.zrange(key, 0, -1, withscores=True))
        return [(g.decode(), int(v)) for part in found for g, v in part]

    @unavailable
    def settle(self, game_id: str, version: int) -> None:
        """Takes a game judged at `version` to owe nothing out of the owing set (unless a later
        move marked it again)."""
        self._settle(keys=[self.keys.owing(game_id)], args=[game_id, version])

    @unavailable
    def idle_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        """(game, last activity known) of unfinished games not known active since before_ms."""
        parts = self._each("idle", lambda p, key: p.zrangebyscore(key, "-inf", before_ms, start=0, num=limit,
                                                                   withscores=True))
        found = sorted((at, g) for part in parts for g, at in part)[:limit]
        return [(g.decode(), int(at)) for at, g in found]

    @unavailable
    def touch(self, game_id: str, at_ms: int) -> None:
        """Records a game's last activity found (only for a game still in the idle set)."""
        self.redis.zadd(self.keys.idle(game_id), {game_id: at_ms}, xx=True)

    @unavailable
    def active_count(self) -> int:
        return sum(self._each("idle", lambda p, key: p.zcard(key)))

    @unavailable
    def waiting_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        parts = self._each("waiting", lambda p, key: p.zrangebyscore(key, "-inf", before_ms, start=0, num=limit,
                                                                      withscores=True))
        return [(g.decode(), int(at)) for at, g in sorted((at, g) for part in parts for g, at in part)[:limit]]

    @unavailable
    def unwait(self, game_id: str) -> None:
        self.redis.zrem(self.keys.waiting(game_id), game_id)

    @unavailable
    def anonymous_count(self) -> int:
        return sum(self._each("anonymous", lambda p, key: p.zcard(key)))

    @unavailable
    def mark_finished(self, game_id: str) -> None:
        """A finished game leaves the sets of games that may owe work, its snapshots are dropped,
        and with a finished_ttl its keys expire."""
        k = self.keys
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(k.owing(game_id), game_id)
        pipe.zrem(k.idle(game_id), game_id)
        pipe.zrem(k.clocked(game_id), game_id)
        pipe.zrem(k.waiting(game_id), game_id)
        pipe.zrem(k.anonymous(game_id), game_id)
        pipe.srem(k.active(), game_id)
        finish_keys = [k.snapshot_index(game_id), k.snapshots(game_id), k.events(game_id), k.meta(game_id),
                       k.credentials(game_id)]
        if self.clustered:  # no script in a cluster pipeline (see _game_script)
            pipe.execute()
            self._finish(keys=finish_keys, args=[self.finished_ttl or 0])
            return
        self._finish(keys=finish_keys, args=[self.finished_ttl or 0], client=pipe)
        pipe.execute()

    @unavailable
    def migrate_active(self, batch: int = 1000) -> int:
        """Moves the first layout's set of unfinished games into the owing and idle sets (each
        is judged at the next pass); returns how many were moved."""
        k, moved = self.keys, 0
        while True:
            games = cast(list[bytes], self.redis.srandmember(k.active(), batch))
            if not games:
                return moved
            pipe = self.redis.pipeline(transaction=False)
            for bucket in sorted({k.bucket(g.decode()) for g in games}):
                mine = {g: 0 for g in games if k.bucket(g.decode()) == bucket}
                pipe.zadd(k.owing(bucket=bucket), mine, nx=True)
                pipe.zadd(k.idle(bucket=bucket), mine, nx=True)
            pipe.srem(k.active(), *games)
            pipe.execute()
            moved += len(games)

    @unavailable
    def lease(self, game_id: str, name: str, ttl_ms: int) -> bool:
        return bool(self.redis.set(self.keys.lease(name, game_id), "1", nx=True, px=ttl_ms))

    @unavailable
    def log_finished(self, game_id: str, entry: bytes, kept: int | None) -> None:
        """Logs an ended game once (see EventStore.log_finished in store.py): the entry is
        appended, then its id is written into the game's meta unless an earlier logging's is
        there already."""
        meta = self.keys.meta(game_id)
        if self.redis.hget(meta, "finished_log") is not None or not self.redis.exists(meta):
            return
        entry_id = self.redis.xadd(self.keys.finished_log(), {"g": game_id, "e": entry}, maxlen=kept, approximate=True)
        self._mark_finished(keys=[meta], args=[entry_id])

    @unavailable
    def read_finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        """(entry id, game id, entry) of the entries logged after `after` ("0": from the first)."""
        found = self._raw.xrange(self.keys.finished_log(), min=f"({after}" if after != "0" else "-", max="+",
                                 count=count)
        return [(i.decode(), f[1].decode(), f[3]) for i, f in found]

    @unavailable
    def finished_log_marks(self, game_ids: Sequence[str]) -> list[str | None]:
        """Each game's logged entry id: None while being logged, "" for a game that is gone."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(self.keys.meta(game_id), "type", "finished_log")
        marks: list[str | None] = []
        for type_, mark in pipe.execute():
            marks.append("" if type_ is None else None if mark is None else mark.decode())
        return marks
