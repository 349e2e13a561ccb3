"""Blocks: the one check point every path that puts two players together asks (issue 53).

`Blocks.between(a, b)` / `conflicts(player, others)` / `check(player, others)` read the social
projection's block sets (written by api/social/relations.py in the same transaction as each
`blocked` / `unblocked` event), the rule being the decider's: a block either way keeps two
players apart. Asked by: following (the decider, on the same sets), a challenge
(api/social/challenges.py), a seat's claim (api/seating/claims.py: the seated players, the game's
creator and a seat's reserved player), matchmaking (api/matchmaking/pairing.py: `marks`, which
its pairing script honours as it honours linked accounts, and again around the game's making).
tests/social/test_block_walk.py walks every operation openapi.yaml marks `x-meets-players`.

Races: each path that seats two players records the table it is making (`meeting`, before its
append or right after its creation) and asks again after it; a block, once written, parts the two
at every table recorded for either (api/seating/claims.py `Lobby.part`). Either the path's second
look sees the block, or the block's parting sees the table: never are the two left at one table
nobody has played at.

Keys (under `{social}`, the social stream's hash tag):
- `social:{social}:blocking:<id>` set: whom the player blocks;
- `social:{social}:blocked-by:<id>` set: who blocks the player;
- `social:{social}:tables:<id>` sorted set: the games a meeting path seated the player at (or
  reserved it a seat), by when; kept TABLES_KEPT_S.
"""
from __future__ import annotations

import time
from typing import Any

from api.errors import ApiError, Code
from events.connection import UNAVAILABLE
from events.store import StoreUnavailable

TABLES_KEPT_S = 86_400
TAG = "{social}"


class CannotMeet(ApiError):
    status, code = 409, Code.CANNOT_MEET


def cannot_meet(version: int | None = None) -> CannotMeet:
    return CannotMeet("A block between you and a player at this table (seated, its creator, or the player its seat "
                      "is kept for) keeps you apart.", version=version)


class Blocks:
    def __init__(self, connection: Any, prefix: str = "") -> None:
        self.redis = connection
        self.prefix = prefix

    def blocking_key(self, player_id: str) -> str:
        return f"{self.prefix}social:{TAG}:blocking:{player_id}"

    def blocked_by_key(self, player_id: str) -> str:
        return f"{self.prefix}social:{TAG}:blocked-by:{player_id}"

    def tables_key(self, player_id: str) -> str:
        return f"{self.prefix}social:{TAG}:tables:{player_id}"

    # ---- the check point -------------------------------------------------------------------
    def conflicts(self, player_id: str, others: list[str]) -> list[str]:
        """Those of `others` with a block between them and the player, either way."""
        others = [o for o in dict.fromkeys(others) if o and o != player_id]
        if not others:
            return []
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.smismember(self.blocking_key(player_id), others)
            pipe.smismember(self.blocked_by_key(player_id), others)
            mine, theirs = pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return [o for o, x, y in zip(others, mine, theirs) if x or y]

    def between(self, a: str, b: str) -> bool:
        return bool(self.conflicts(a, [b]))

    def check(self, player_id: str, others: list[str], version: int | None = None) -> None:
        """Refuses (409 cannot_meet) a meeting of the player with any of `others` across a block."""
        if self.conflicts(player_id, others):
            raise cannot_meet(version)

    def any_among(self, players: list[str]) -> bool:
        """Whether a block stands between any two of `players`."""
        return any(self.conflicts(p, players[i + 1:]) for i, p in enumerate(players))

    def marks(self, players: list[str]) -> dict[str, list[str]]:
        """For matchmaking's pairing script: each two of `players` with a block between them
        share a mark (two sharing one are never paired, as linked accounts are not)."""
        if len(players) < 2:
            return {}
        try:
            pipe = self.redis.pipeline(transaction=False)
            for p in players:
                pipe.smismember(self.blocking_key(p), players)
            rows = pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        found: dict[str, list[str]] = {}
        for a, row in zip(players, rows):
            for b, hit in zip(players, row):
                if hit and a != b:
                    mark = "block:" + "|".join(sorted((a, b)))
                    found.setdefault(a, []).append(mark)
                    found.setdefault(b, []).append(mark)
        return found

    # ---- tables in the making --------------------------------------------------------------
    def meeting(self, game_id: str, players: list[str], now_ms: int | None = None) -> None:
        """Notes that a path is seating these players at the game (before its append, or right
        after the game's creation), for a block's parting to find."""
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        try:
            pipe = self.redis.pipeline(transaction=False)
            for p in dict.fromkeys(players):
                key = self.tables_key(p)
                pipe.zadd(key, {game_id: now_ms})
                pipe.zremrangebyscore(key, "-inf", now_ms - TABLES_KEPT_S * 1000)
                pipe.expire(key, TABLES_KEPT_S)
            pipe.execute()
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def tables(self, player_id: str, now_ms: int | None = None) -> list[str]:
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        try:
            found = self.redis.zrangebyscore(self.tables_key(player_id), now_ms - TABLES_KEPT_S * 1000, "+inf")
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return [g.decode() if isinstance(g, bytes) else g for g in found]
