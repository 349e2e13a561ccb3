"""A player's waiting games (issue 49): one player (bot accounts included) keeps at most
MAX_WAITING_GAMES_PER_PLAYER games it created waiting for seats at once; a creation past it is
`409 too_many_waiting_games` (api/games/service.py asks before it writes the game).

Keys (single-key commands only, beside the player's other keys: one hash tag):
- `player:{<id>}:waiting` sorted set: the waiting games the player created, scored by their
  creation (ms); it expires WAITING_TTL (and an hour) after the last creation, when every game
  in it has ended by itself.

The set is a cache of what the games say, healed when it is read: before a creation the
service drops the entries whose game no longer waits (started, ended by WAITING_TTL, gone),
and the reserving script adds the new game only while the set is below the cap, so concurrent
creations never pass it. An entry whose game is not written yet (a creation under way, or one whose write
failed) is kept UNSEEN_GRACE_MS before it is dropped.
"""
from __future__ import annotations

from typing import Any

from events.connection import UNAVAILABLE
from events.store import StoreUnavailable

UNSEEN_GRACE_MS = 60_000

_RESERVE = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""


class WaitingGames:
    def __init__(self, connection: Any, prefix: str, limit: int, ttl_s: float) -> None:
        self.redis = connection
        self.prefix = prefix
        self.limit = limit  # 0: no cap
        self.ttl_ms = int((ttl_s + 3600) * 1000)
        self.grace_ms = UNSEEN_GRACE_MS
        self._reserve = connection.register_script(_RESERVE)

    def key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:waiting"

    def held(self, player_id: str) -> list[tuple[str, int]]:
        """(game id, created ms) of the games the set holds for the player."""
        try:
            found = self.redis.zrange(self.key(player_id), 0, -1, withscores=True)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return [(member.decode(), int(score)) for member, score in found]

    def release(self, player_id: str, game_ids: list[str]) -> None:
        if game_ids:
            try:
                self.redis.zrem(self.key(player_id), *game_ids)
            except UNAVAILABLE as e:
                raise StoreUnavailable(str(e)) from e

    def reserve(self, player_id: str, game_id: str, at_ms: int) -> bool:
        """Adds the game unless the player holds `limit` waiting games already."""
        try:
            return bool(self._reserve(keys=[self.key(player_id)], args=[game_id, at_ms, self.limit, self.ttl_ms]))
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
