"""Stream slots shared by every web process on one Redis: the per-address and per-seat limits.

Counted in each process alone, a client reaching N processes (gunicorn's workers, several API
nodes behind a balancer) would hold N times its limit. Here each open stream holds a lease: a
member of a sorted set per address or per seat (`{prefix}live:streams:<kind>:<who>`), scored by
its expiry on Redis's clock. Opening a stream is one script (drop the expired leases, count,
add one if under the limit): at most one round trip, refused or not, on the live path's own
pool, never the requests' one, so moves never wait on it. Closing removes the lease (one
command). While a stream lives, one timer per process renews all its leases every third of the
lease time (a pipeline, one command per address or seat held): a process that dies without
closing its streams stops renewing, and its slots free themselves within `lease_s` (60 s by
default, SSE_STREAM_LEASE_S).

If Redis cannot be reached when a stream opens, the stream is counted in its process only (its
lease is written by the next renewal that reaches Redis): the limits fail open to the
per-process ones rather than refuse every viewer while Redis restarts.
"""
from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from itertools import count

from events.connection import UNAVAILABLE, Client, is_cluster

log = logging.getLogger(__name__)

DEFAULT_LEASE_S = 60.0

# -> {1, held} when the lease was taken, {0, held} when `limit` leases are held already.
_ACQUIRE = """
redis.replicate_commands()
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[1]) then return {0, held} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, held + 1}
"""

# Re-dates (or re-adds, if they expired meanwhile) this process's leases in one set.
_RENEW = """
redis.replicate_commands()
local t = redis.call('TIME')
local expiry = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return #ARGV - 1
"""

# -> for each key, how many unexpired leases it holds (on Redis's clock).
_COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('ZCOUNT', key, '(' .. now, '+inf') end
return out
"""


class Lease:
    __slots__ = ("key", "member")

    def __init__(self, key: str, member: str):
        self.key = key
        self.member = member


class SharedLeases:
    def __init__(self, connection: Client, prefix: str, lease_s: float = DEFAULT_LEASE_S):  # one Redis, or a cluster
        self.redis = connection
        self.prefix = prefix
        self.lease_ms = max(1000, int(lease_s * 1000))
        self._acquire = connection.register_script(_ACQUIRE)
        self._renew = connection.register_script(_RENEW)
        self._count = connection.register_script(_COUNT)
        self._lock = threading.Lock()
        self._fresh()

    def _fresh(self) -> None:
        self._pid = os.getpid()
        self._node = secrets.token_hex(6)  # this process: a lease's member is unique across processes
        self._numbers = count()
        self._held: dict[str, set[str]] = {}  # key -> members this process holds
        self._renewer: threading.Thread | None = None

    def key(self, kind: str, who: str) -> str:
        return f"{self.prefix}live:streams:{kind}:{who}"

    def acquire(self, kind: str, who: str, limit: int) -> tuple[Lease | None, int]:
        """(a lease, the count held with it) or (None, the count held) when `limit` are held."""
        if self._pid != os.getpid():  # a forked child holds none of its parent's leases
            with self._lock:
                self._fresh()
        key = self.key(kind, who)
        lease = Lease(key, f"{self._node}:{next(self._numbers)}")
        try:
            taken, held = self._acquire(keys=[key], args=[limit, self.lease_ms, lease.member])
        except UNAVAILABLE as e:
            log.warning("live stream leases: %s; counted in this process only", e)
            taken, held = 1, None
        if not taken:
            return None, int(held)
        with self._lock:
            self._held.setdefault(key, set()).add(lease.member)
            if self._renewer is None:
                self._renewer = threading.Thread(target=self._renew_while_held, name="live-leases", daemon=True)
                self._renewer.start()
        return lease, held

    def release(self, lease: Lease) -> None:
        with self._lock:
            members = self._held.get(lease.key)
            if members is None or lease.member not in members:
                return
            members.discard(lease.member)
            if not members:
                del self._held[lease.key]
        try:
            self.redis.zrem(lease.key, lease.member)
        except UNAVAILABLE:
            pass  # it expires within the lease time

    def holding(self, kind: str, whos: list[str]) -> list[bool]:
        """Whether each of `whos` holds a lease now, in any process (a seat's presence): one
        round trip (one per key in a cluster, where a script's keys share a slot)."""
        keys = [self.key(kind, who) for who in whos]
        if not keys:
            return []
        if is_cluster(self.redis):
            return [bool(self._count(keys=[key])[0]) for key in keys]
        return [bool(n) for n in self._count(keys=keys)]

    def held(self) -> int:
        with self._lock:
            return sum(len(m) for m in self._held.values())

    def renew(self) -> None:
        """Re-dates every lease of this process: one pipelined command per address or seat."""
        with self._lock:
            held = [(key, list(members)) for key, members in self._held.items()]
        if not held:
            return
        if is_cluster(self.redis):  # no script in a cluster pipeline: one call per key
            for key, members in held:
                self._renew(keys=[key], args=[self.lease_ms, *members])
            return
        pipe = self.redis.pipeline(transaction=False)
        for key, members in held:
            self._renew(keys=[key], args=[self.lease_ms, *members], client=pipe)
        pipe.execute()

    def _renew_while_held(self) -> None:
        pid = self._pid
        while self._pid == pid:
            time.sleep(self.lease_ms / 3000)
            try:
                self.renew()
            except UNAVAILABLE as e:
                log.warning("live stream leases not renewed: %s", e)
            except Exception:
                log.exception("live stream leases not renewed")
