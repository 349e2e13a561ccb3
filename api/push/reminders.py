"""Reminder etiquette (issue 54): a reminder (a clock's `clock_warning`, the only notice that
nags: `your_turn` is said once, when the turn comes) is pushed only within two caps, so an
absent player is not woken over and over:

- at most PUSH_REMINDERS_PER_GAME (2) reminders of one game before the timeout they warn of: a
  counter per player and game that lives until the latest deadline it counted;
- at most PUSH_REMINDERS_PER_DAY (5) reminders to a player over every game in any 24 hours.

A reminder over a cap stays in the player's inbox and stream (the app shows it when opened): it is
only not pushed. The decision is made once per inbox entry and kept, so every device of the
player hears the same reminders, a retried push counts nothing twice, and a cap reached later
never takes back a reminder another device was already sent.

Keys, in the player's slot (api/push/subscriptions.py's):
- `player:{<id>}:push-reminders` sorted set: inbox entry id -> when it was let through (ms),
  the last 24 hours of them;
- `player:{<id>}:push-reminders-held` hash: inbox entry id -> when it was held back (ms), a day;
- `player:{<id>}:push-reminded:<game>` string: the game's reminders let through, expiring at the
  latest deadline they warned of."""

from __future__ import annotations

import time
from typing import Any

from api.players.accounts import Players
from events.connection import unavailable

REMINDERS = ("clock_warning",)
DAY_MS = 86_400_000
PER_GAME = 2
PER_DAY = 5

_DECIDE = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return 0 end
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 86400000)
local game = tonumber(redis.call('GET', KEYS[2]) or '0')
if game >= tonumber(ARGV[4]) or redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then
  redis.call('HSET', KEYS[3], ARGV[1], now)
  redis.call('PEXPIRE', KEYS[3], 86400000)
  return 0
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], 86400000)
redis.call('INCR', KEYS[2])
local left = math.max(1, tonumber(ARGV[3]) - now)
if redis.call('PTTL', KEYS[2]) < left then redis.call('PEXPIRE', KEYS[2], left) end
return 1
"""


def is_reminder(entry: dict[str, Any]) -> bool:
    return entry.get("type") in REMINDERS


def deadline_ms(entry: dict[str, Any], now_ms: int) -> int:
    """The timeout the reminder warns of (its `at` and `remaining_ms`), at least a day ahead when
    it says none."""
    at, remaining = entry.get("at"), entry.get("remaining_ms")
    if isinstance(at, int) and isinstance(remaining, int):
        return at + remaining
    return now_ms + DAY_MS


class Reminders:
    def __init__(self, players: Players, per_game: int = PER_GAME, per_day: int = PER_DAY):
        self.redis, self.prefix = players.redis, players.prefix
        self.per_game, self.per_day = per_game, per_day
        self._decide = self.redis.register_script(_DECIDE)

    def sent_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-reminders"

    def held_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-reminders-held"

    def game_key(self, player_id: str, game_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-reminded:{game_id}"

    @unavailable
    def allowed(self, player_id: str, entry_id: str, entry: dict[str, Any], now_ms: int | None = None) -> bool:
        """Whether this reminder is pushed (decided at its first asking, the same ever after)."""
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        keys = [
            self.sent_key(player_id),
            self.game_key(player_id, str(entry.get("game_id") or "")),
            self.held_key(player_id),
        ]
        args = [entry_id, now_ms, deadline_ms(entry, now_ms), self.per_game, self.per_day]
        return bool(self._decide(keys=keys, args=args))
