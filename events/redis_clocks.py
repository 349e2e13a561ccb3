"""The clocks on Redis: the due-time set of `<game>:<version>` deadline marks polled by the
reconciler (workers/clocks.py), and the set of clocked games its re-arm walks. The appends
write the marks in their own round trip (events/redis_appends.py)."""
from __future__ import annotations

from .connection import unavailable
from .redis_base import RedisBase


class Clocks(RedisBase):
    """The deadline marks and the clocked games."""

    @unavailable
    def clocks_due(self, now_ms: int, limit: int = 200) -> list[tuple[str, int, int]]:
        """(game, version, due ms) of the deadline marks due by now_ms, earliest first."""
        parts = self._each("clocks", lambda p, key: p.zrangebyscore(key, "-inf", now_ms, start=0, num=limit,
                                                                     withscores=True))
        found = sorted(((score, member) for part in parts for member, score in part))[:limit]
        out = []
        for score, member in found:
            game_id, _, version = member.decode().rpartition(":")
            out.append((game_id, int(version), int(score)))
        return out

    @unavailable
    def clock_mark(self, game_id: str, version: int, due_ms: int, only_existing: bool = False) -> None:
        """Marks (or moves) a version's deadline; with only_existing, only a mark still there."""
        self.redis.zadd(self.keys.clocks(game_id), {f"{game_id}:{version}": due_ms}, xx=only_existing)

    @unavailable
    def clock_rearm(self, game_id: str, version: int, due_ms: int) -> None:
        """Marks a version's deadline unless an earlier mark is there (the reconciler's re-arm)."""
        self.redis.zadd(self.keys.clocks(game_id), {f"{game_id}:{version}": due_ms}, lt=True)

    @unavailable
    def clock_done(self, game_id: str, version: int) -> None:
        self.redis.zrem(self.keys.clocks(game_id), f"{game_id}:{version}")

    @unavailable
    def clocked_games(self, after: str = "", limit: int = 500) -> list[str]:
        """Unfinished clocked games, a page at a time (by id, after `after`)."""
        lo = f"({after}" if after else "-"
        parts = self._each("clocked", lambda p, key: p.zrangebylex(key, lo, "+", start=0, num=limit))
        return sorted(g.decode() for part in parts for g in part)[:limit]
