"""The seeks, in Redis, under one hash tag (`{mm}`: one script may touch them all in a cluster).

- `mm:{mm}:pool:<pool>` sorted set: the seekers waiting in a pool, scored by rating;
- `mm:{mm}:pool:<pool>:since` hash: seeker -> when it began waiting (ms);
- `mm:{mm}:pools` hash: pool -> its wishes (the game to make), for the reconciler's passes;
- `mm:{mm}:seekers` hash: player -> its seek (`searching` in a pool, `pairing` while its game
  is made, `matched` with the game's id). A hash's fields have no expiry of their own: the
  reconciler's pass deletes `matched` records once they are old (Matchmaker.repair), and a
  searching one past its wait goes with PAIR.
A seek for a range of seats waits in one pool per size (its record names them all).
- `mm:{mm}:rated-pairs:<UTC day>` hash: "a|b" (a < b) -> the rated games matchmaking made for
  that pair of players that day, kept two days (RATED_PAIRS_PER_DAY).
PAIR takes one group out of a pool atomically: of the seekers sorted by rating that are still
`searching` (one taken through another of its pools is dropped from this one as it is met), from
the lowest rating up, the first `size` whose spread of ratings every member's window allows (a
window widens with the member's waiting time) and of whom no two are linked accounts (two
sharing one of the marks the caller read, api/moderation/addresses.py) or, in rated play, met
RATED_PAIRS_PER_DAY times that day already (the day's count, written by the same script as it
takes the group), each set `pairing`; at most PASSED_OVER seekers are passed over from each
start (the script's work stays linear in the pool however many linked seekers wait in it). Only
the seekers the caller read the links of are taken (one who joined since waits for its own
pass). Being one script on keys of one hash tag, two
processes pairing one pool, or two pools of one seeker, at once cannot take a seeker twice, and
a seeker that left (its ZREM ran first) is never taken.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from events import codec

PAIR = """
local now, size = tonumber(ARGV[1]), tonumber(ARGV[2])
local base, widen, widest, ttl = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local cap, passing = tonumber(ARGV[8]), tonumber(ARGV[12])
local considered = nil  -- the seekers whose links were read (a newcomer waits for its own pass)
if ARGV[9] ~= '' then
  considered = {}
  for _, m in ipairs(cjson.decode(ARGV[9])) do considered[m] = true end
end
local marks = cjson.decode(ARGV[10])  -- seeker -> its links' marks: two sharing one are linked
local flat = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local live = {}
for i = 1, #flat, 2 do
  local since = tonumber(redis.call('HGET', KEYS[2], flat[i]) or '0')
  local record = redis.call('HGET', KEYS[3], flat[i])
  local searching = record and cjson.decode(record).status == 'searching'
  if now - since > ttl then
    redis.call('ZREM', KEYS[1], flat[i]); redis.call('HDEL', KEYS[2], flat[i]); redis.call('HDEL', KEYS[3], flat[i])
  elseif not searching then  -- taken through another of its pools (a range of seats), or gone
    redis.call('ZREM', KEYS[1], flat[i]); redis.call('HDEL', KEYS[2], flat[i])
  elseif considered == nil or considered[flat[i]] then
    live[#live + 1] = {flat[i], tonumber(flat[i + 1]), since}
  end
end
local function pairkey(a, b)  -- ordered byte by byte, as Python orders them (Lua's `<` follows the locale)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then
      if x < y then return a .. '|' .. b end
      return b .. '|' .. a
    end
  end
  if #a <= #b then return a .. '|' .. b end
  return b .. '|' .. a
end
local function allowed(chosen, used, q)  -- never linked accounts; in rated play, `cap` games a day
  for _, mark in ipairs(marks[live[q][1]] or {}) do
    if used[mark] then return false end
  end
  if cap > 0 then
    for _, g in ipairs(chosen) do
      if tonumber(redis.call('HGET', KEYS[4], pairkey(live[g][1], live[q][1])) or '0') >= cap then return false end
    end
  end
  return true
end
local function mark(used, q)
  for _, m in ipairs(marks[live[q][1]] or {}) do used[m] = true end
end
local function window(q)
  return math.min(widest, base + widen * (now - live[q][3]) / 1000)
end
for j = 1, #live - size + 1 do
  -- from the j-th lowest rating up: each next seeker whose window, and every member's, holds
  -- the spread, and who may meet every member (at most PASSED_OVER passed over: bounded work)
  local chosen, least, used, passed = {j}, window(j), {}, 0
  mark(used, j)
  for q = j + 1, #live do
    if #chosen == size or passed >= passing then break end
    local spread = live[q][2] - live[j][2]
    if spread > least then break end
    if spread <= window(q) and allowed(chosen, used, q) then
      chosen[#chosen + 1] = q; least = math.min(least, window(q)); mark(used, q)
    else
      passed = passed + 1
    end
  end
  if #chosen == size then
    local group = {}
    for _, q in ipairs(chosen) do
      local m = live[q][1]
      group[#group + 1] = m
      redis.call('ZREM', KEYS[1], m); redis.call('HDEL', KEYS[2], m)
      -- `pairing`, the seek kept (its pools, wishes, rating, since): a maker that crashed
      -- before the game was made leaves it to be put back (Seeks.sweep, pairing.py's repair)
      local seek = cjson.decode(redis.call('HGET', KEYS[3], m))
      seek.status, seek.pool, seek.at = 'pairing', ARGV[7], now
      redis.call('HSET', KEYS[3], m, cjson.encode(seek))
    end
    if cap > 0 then
      for a = 1, #group do
        for b = a + 1, #group do redis.call('HINCRBY', KEYS[4], pairkey(group[a], group[b]), 1) end
      end
      redis.call('PEXPIRE', KEYS[4], tonumber(ARGV[11]))
    end
    return group
  end
end
return {}
"""


# KEYS: seekers, pools, then each pool's set and since. ARGV: player, the stale record (as read),
# the waiting one, rating, since, then each pool's wishes.
PUT_BACK = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
for i = 3, #KEYS, 2 do
  local pool = string.match(KEYS[i], ':pool:([^:]+)$')
  redis.call('HSET', KEYS[2], pool, ARGV[6 + (i - 3) / 2])
  redis.call('ZADD', KEYS[i], ARGV[4], ARGV[1])
  redis.call('HSET', KEYS[i + 1], ARGV[1], ARGV[5])
end
return 1
"""


PASSED_OVER = 32  # seekers a group passes over (linked, capped or too far) from one start, at most


class Seeks:
    def __init__(self, connection: Any, prefix: str = ""):
        self.redis: Any = connection
        self.base = f"{prefix}mm:{{mm}}"
        self._pair = connection.register_script(PAIR)

    def _pool(self, pool: str) -> str:
        return f"{self.base}:pool:{pool}"

    def _since(self, pool: str) -> str:
        return f"{self.base}:pool:{pool}:since"

    def _pools(self) -> str:
        return f"{self.base}:pools"

    def _seekers(self) -> str:
        return f"{self.base}:seekers"

    def seek_of(self, player_id: str) -> dict[str, Any] | None:
        raw = self.redis.hget(self._seekers(), player_id)
        return codec.loads(raw) if raw is not None else None

    def join(self, player_id: str, pools: dict[str, dict[str, Any]], wishes: dict[str, Any], rating: int,
             now: int) -> None:
        """Puts the player in its pools (pool -> the game it makes: one per size of a range of
        seats), out of any other it was waiting in; `wishes`: the seek as asked."""
        self.leave(player_id)
        pipe = self.redis.pipeline(transaction=True)
        for pool, made in pools.items():
            pipe.hset(self._pools(), pool, codec.dumps_bytes(made))
            pipe.zadd(self._pool(pool), {player_id: rating})
            pipe.hset(self._since(pool), player_id, now)
        pipe.hset(self._seekers(), player_id, codec.dumps_bytes({
            "status": "searching", "pool": next(iter(pools)), "pools": list(pools), "since": now, "rating": rating,
            "wishes": wishes, "made": pools}))
        pipe.execute()

    def leave(self, player_id: str) -> bool:
        """Takes the player's waiting seek out of its pools; False when it was not waiting."""
        seek = self.seek_of(player_id)
        if seek is None or seek["status"] != "searching":
            return False
        pools = seek.get("pools") or [seek["pool"]]
        pipe = self.redis.pipeline(transaction=True)
        for pool in pools:
            pipe.zrem(self._pool(pool), player_id)
            pipe.hdel(self._since(pool), player_id)
        removed = any(pipe.execute()[0::2])
        if removed:
            self.redis.hdel(self._seekers(), player_id)
        return bool(removed)

    def _rated_pairs(self, now: int) -> str:
        return f"{self.base}:rated-pairs:{now // 86_400_000}"

    def members(self, pool: str) -> list[str]:
        return [m.decode() if isinstance(m, bytes) else m for m in self.redis.zrange(self._pool(pool), 0, -1)]

    def pair(self, pool: str, size: int, now: int, windows: tuple[float, float, float], ttl_ms: int,
             considered: list[str] | None = None, marks: Mapping[str, list[str]] | None = None,
             pairs_per_day: int = 0) -> list[str]:
        """One group taken out of the pool (each seeker now `pairing`), or []. `considered`: the
        only seekers that may be taken (None: all); `marks`: seeker -> its links' marks, two
        seekers sharing one never grouped; `pairs_per_day`:
        the games a pair may be grouped into this UTC day (0: no cap; counted as groups are taken)."""
        base, widen, widest = windows
        group = self._pair(keys=[self._pool(pool), self._since(pool), self._seekers(), self._rated_pairs(now)],
                           args=[now, size, base, widen, widest, ttl_ms, pool, pairs_per_day,
                                 codec.dumps(considered) if considered is not None else "",
                                 codec.dumps(marks or {}), 2 * 86_400_000, PASSED_OVER])
        return [m.decode() if isinstance(m, bytes) else m for m in group]

    def unpair(self, group: list[str], now: int) -> None:
        """The day's counts of a group whose game could not be made, taken back."""
        key, pipe = self._rated_pairs(now), self.redis.pipeline(transaction=False)
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                pipe.hincrby(key, f"{min(a, b)}|{max(a, b)}", -1)
        pipe.execute()

    def sweep(self, pairing_before_ms: int, matched_before_ms: int) -> list[tuple[str, dict[str, Any], bytes]]:
        """One pass over the seeks: those left `pairing` since before `pairing_before_ms` (their
        maker died), answered (player, seek, its record as stored); `matched` records of before `matched_before_ms`
        deleted (each unless it changed meanwhile: a new seek of that player stays)."""
        found = []
        for player, raw in self.redis.hscan_iter(self._seekers(), count=1000):
            seek = codec.loads(raw)
            name = player.decode() if isinstance(player, bytes) else player
            if seek.get("status") == "pairing" and seek.get("at", 0) < pairing_before_ms:
                found.append((name, seek, raw))
            elif seek.get("status") == "matched" and seek.get("since", 0) < matched_before_ms:
                self.redis.eval("if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
                                "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0",
                                1, self._seekers(), name, raw)
        return found

    def put_back(self, player_id: str, seek: dict[str, Any], raw: bytes) -> bool:
        """A stale `pairing` seek waiting again in its pools, as it was (its wait kept), unless it
        changed meanwhile (in one script: a maker that finished late wins)."""
        made = seek.get("made") or {}
        pools = list(made)
        if not pools:
            return False  # a seek of before its pools were kept with it: it may seek again
        keys = [self._seekers(), self._pools()] + [k for p in pools for k in (self._pool(p), self._since(p))]
        waiting = {**seek, "status": "searching", "pool": pools[0]}
        waiting.pop("at", None)
        return bool(self.redis.eval(PUT_BACK, len(keys), *keys, player_id, raw,
                                    codec.dumps_bytes(waiting), seek.get("rating", 1500), seek.get("since", 0),
                                    *[codec.dumps_bytes(made[p]) for p in pools]))

    def back(self, player_id: str) -> bool:
        """A `pairing` seek whose group may not meet waits again in its pools, its wait kept."""
        raw = self.redis.hget(self._seekers(), player_id)
        if raw is None:
            return False
        seek = codec.loads(raw)
        return seek.get("status") == "pairing" and self.put_back(player_id, seek, raw)

    def matched(self, player_id: str, record: dict[str, Any]) -> None:
        self.redis.hset(self._seekers(), player_id, codec.dumps_bytes(record))

    def forget(self, player_id: str) -> None:
        self.redis.hdel(self._seekers(), player_id)

    def pools(self) -> dict[str, dict[str, Any]]:
        return {k.decode(): codec.loads(v) for k, v in self.redis.hgetall(self._pools()).items()}

    def drop_pool_if_empty(self, pool: str) -> None:
        """Forgets an empty pool's wishes (in one script: a seeker joining meanwhile keeps them)."""
        self.redis.eval("if redis.call('ZCARD', KEYS[1]) == 0 then return redis.call('HDEL', KEYS[2], ARGV[1]) end "
                        "return 0", 2, self._pool(pool), self._pools(), pool)

    def waiting(self, pools: list[str]) -> int:
        """Seekers waiting in any of the pools (a range of seats' seekers counted once)."""
        if len(pools) == 1:
            return int(self.redis.zcard(self._pool(pools[0])))
        pipe = self.redis.pipeline(transaction=False)
        for pool in pools:
            pipe.zrange(self._pool(pool), 0, -1)
        return len({m for members in pipe.execute() for m in members})
