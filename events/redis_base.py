"""What every part of the Redis event store shares: the client, the key names, the registered
scripts, and the commands over every bucket of a global set (events/redis_store.py assembles
the parts)."""
from __future__ import annotations

import os
import sys
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol, cast

import redis
from redis.cluster import RedisCluster
from redis.commands.core import Script
from redis.exceptions import NoScriptError

from . import connection, scripts
from .keys import Keys
from .redis_entries import Entry, FlatEntry
from .replication import ReplicaAcks


def finished_ttl_from_env() -> int | None:
    raw = os.environ.get("FINISHED_TTL", "")
    return int(raw) if raw.strip() else None


class WatchedHints:
    """What this process's last appends of each game learnt in their round trip: whether a
    webhook subscription covers the game (the append script's third answer), at the version it
    wrote. The after-append step asks here first, so a move costs one round trip, not two."""

    KEPT = 10_000

    def __init__(self) -> None:
        self._seen: OrderedDict[str, tuple[int, bool]] = OrderedDict()
        self._lock = threading.Lock()

    def note(self, game_id: str, version: int, watched: bool) -> None:
        with self._lock:
            self._seen[game_id] = (version, watched)
            self._seen.move_to_end(game_id)
            while len(self._seen) > self.KEPT:
                self._seen.popitem(last=False)

    def at(self, game_id: str, version: int) -> bool | None:
        """Whether the game was watched when this process appended its version `version`, or a
        later one (None: this process appended neither). The after-append step of a version
        often runs once the game's next append is made (under gunicorn's gevent workers, while
        the next move waits for its reply): what that later append learnt is what a command of
        the step's own would find, both being asked after the version's append (issue 57)."""
        seen = self._seen.get(game_id)
        return seen[1] if seen is not None and seen[0] >= version else None


_ORDINARY = object()  # _evalsha: this reply is to be asked for the ordinary way


class _Lane:
    """The connections `_evalsha` keeps between its calls (at most KEPT idle), taken from the pool
    once. redis-py's `get_connection` checks that a pooled connection holds no unread reply
    (a poll of its socket) and `release` counts it back: about 40 us a command under gunicorn's
    gevent workers, whose poll() is gevent's, 8 us without (issue 57), on every append. A
    connection here never holds an unread reply: `_evalsha` reads the reply it asked for, and a
    send or read that fails in between disconnects it (redis-py does, on any exception), so its
    next send connects again. A forked child makes its own lane (its parent's sockets are not
    its own, as redis-py's pool resets in a child). Only from a plain pool of many connections
    (redis-py's default: 100): from a small or blocking one, connections held here could starve
    its other commands, so they go back after each append as before."""

    KEPT = 8

    def __init__(self, pool: Any = None) -> None:
        self.pid = os.getpid()
        self.idle: list[Any] = []
        roomy = type(pool) is redis.ConnectionPool and pool.max_connections >= 4 * self.KEPT
        self.kept = self.KEPT if roomy else 0
        self.pause = _greenlets_yield()


def _greenlets_yield() -> Callable[[float], None] | None:
    """gevent's sleep where gevent has patched this process (gunicorn's gevent workers), else
    None. An append yields once with it before it sends: the other requests ready to run go
    first, and the moves among them send their appends in the same pass of the loop. Redis then
    reads them in one pass of its own, and one AOF write and fsync serves them all
    (`appendfsync always`: one per pass). Sent at once each (redis-py's get_connection used to
    yield in its socket poll), they took about twice Redis's passes and writes a move and 30-40%
    more of its CPU (bench/README.md, issue 57). In plain threads a sleep(0) would only hand the
    GIL to whichever thread wants it (0.1 ms of waiting a move in-process), so it is not done."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("time"):
        return cast(Callable[[float], None], time.sleep)  # gevent's, as patched
    return None


class RedisBase:
    """`finished_ttl`: seconds a finished game is kept (None: forever; default: $FINISHED_TTL).
    `client`: a redis.Redis, or a RedisCluster (events/connection.py); `buckets`: the global
    sets' shards (default: KEY_BUCKETS, else 16 on a cluster and 1 on one Redis);
    `replicas_ack`: (replicas, timeout ms) an append waits for (default: $REPLICAS_ACK)."""

    def __init__(self, client: connection.Client, prefix: str = "", finished_ttl: int | None = -1,
                 buckets: int | None = None, replicas_ack: tuple[int, int] | None = None):
        self.redis = client
        self.clustered = connection.is_cluster(client)
        self.keys = Keys(prefix, buckets or connection.key_buckets(client))
        self.finished_ttl = finished_ttl_from_env() if finished_ttl == -1 else finished_ttl
        self.replicas, self.ack_timeout_ms = replicas_ack or connection.replicas_ack()
        self.acks = ReplicaAcks(self.replicas, self.ack_timeout_ms)
        self._create = client.register_script(scripts.CREATE)
        self._append = client.register_script(scripts.APPEND)
        self._save_snapshot = client.register_script(scripts.SAVE_SNAPSHOT)
        self._load_snapshot = client.register_script(scripts.LOAD_SNAPSHOT)
        self._settle = client.register_script(scripts.SETTLE)
        self._finish = client.register_script(scripts.FINISH)
        self._cache = client.register_script(scripts.CACHE)
        self._mark_finished = client.register_script(scripts.MARK_FINISHED)
        self._raw_client: RawXrange | None = None
        self._lane = _Lane(client.connection_pool if type(client) is redis.Redis else None)
        self.watched_hints = WatchedHints()
        # Each written append PUBLISHes its events (WARM_GAMES, set by wiring.py; never on a
        # cluster, whose PUBLISH every node would carry): events/redis_announcements.py.
        self.announcing = False
        self._origin: tuple[int, str] | None = None

    @property
    def origin(self) -> str:
        """This store's name in the appends it announces (its own listener skips them: the
        process already holds what it appended); new in a forked child."""
        if self._origin is None or self._origin[0] != os.getpid():
            self._origin = (os.getpid(), uuid.uuid4().hex[:12])
        return self._origin[1]

    def _evalsha(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """`script(keys=keys, args=args)`, the same reply, for a plain `redis.Redis` sent on a pooled
        connection straight away: redis-py's command path (its retry closure, the observability
        timings and hooks, the argument filters, `Script.__call__`'s checks) was about 15-20 us of
        the 40-55 a move's append cost in the client (issue 57, move57b). Anything but the plain
        reply (NOSCRIPT after a SCRIPT FLUSH or a failover, a connection or timeout error, any
        other client type) goes the ordinary way, which loads the script or retries as its client
        is configured to: a retried append is safe (its idempotency key answers the first one)."""
        client = self.redis
        if type(client) is not redis.Redis or client.connection is not None:
            return script(keys=keys, args=args)
        pool, lane = client.connection_pool, self._lane
        if lane.pid != os.getpid():
            lane = self._lane = _Lane(pool)
        if lane.pause is not None:
            lane.pause(0)
        conn = lane.idle.pop() if lane.idle else pool.get_connection()
        try:
            conn.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
            reply = conn.read_response()
        except NoScriptError:
            reply = _ORDINARY
        except (redis.ConnectionError, redis.TimeoutError):
            conn.disconnect()
            reply = _ORDINARY
        finally:
            if len(lane.idle) < lane.kept:
                lane.idle.append(conn)
            else:
                pool.release(conn)
        return script(keys=keys, args=args) if reply is _ORDINARY else reply

    @property
    def _raw(self) -> RawXrange:
        """The same connections, with XRANGE's reply left as Redis sent it (lists of bytes):
        whole-history reads skip making a dict per entry."""
        if self._raw_client is None:
            if isinstance(self.redis, RedisCluster):
                self._raw_client = _FlatXrange(self.redis)
                return self._raw_client
            raw = redis.Redis(connection_pool=self.redis.connection_pool)
            raw.set_response_callback("XRANGE", lambda response, **options: response)
            self._raw_client = cast(RawXrange, raw)
        return self._raw_client

    def _each(self, name: str, command: Callable[[Any, str], Any]) -> list[Any]:
        """One command on every bucket of a global set, in one pipeline (one round trip per node)."""
        keys = self.keys.every(name)
        if len(keys) == 1:
            return [command(self.redis, keys[0])]
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            command(pipe, key)
        return pipe.execute()


class RawXrange(Protocol):
    def xrange(self, name: str, min: str = "-", max: str = "+", count: int | None = None) -> list[FlatEntry]: ...


class _FlatXrange:
    """XRANGE on a cluster, its entries' fields as one flat list as Redis sends them (what the
    single-Redis path gets by leaving the reply unparsed)."""

    def __init__(self, client: RedisCluster):
        self.client = client

    def xrange(self, name: str, min: str = "-", max: str = "+", count: int | None = None) -> list[FlatEntry]:
        entries = cast(list[Entry], self.client.xrange(name, min, max, count))
        return [(i, [x for pair in f.items() for x in pair]) for i, f in entries]
