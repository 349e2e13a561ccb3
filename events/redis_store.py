"""The event store on Redis Streams.

One stream per game with explicit ids `0-<version>`: event N is `XRANGE key 0-N 0-N`, and
Redis itself refuses an out-of-order id. Appends and creation are single Lua scripts.
"""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Callable, Optional, Sequence

import redis

from . import connection, scripts
from .cluster_follower import ClusterFollower
from .connection import unavailable
from .keys import Keys
from .redis_entries import decode_entry, encode_entries, pairs
from .store import (
    AppendResult,
    Conflict,
    DuplicateRequest,
    EventStore,
    GameExists,
    NewEvent,
    StoredEvent,
    StoreUnavailable,
)

IDEMPOTENCY_TTL_SECONDS = 24 * 3600


def _now_ms() -> int:
    return int(time.time() * 1000)


def finished_ttl_from_env() -> Optional[int]:
    raw = os.environ.get("FINISHED_TTL", "")
    return int(raw) if raw.strip() else None


class NotReplicated(StoreUnavailable):
    """The append is on the primary, but not on the replicas REPLICAS_ACK asks for in time: its
    fate in a failover is unknown, so it is not acknowledged (503; a retry with the same
    Idempotency-Key answers what the append answered)."""


class RedisEventStore:
    """`finished_ttl`: seconds a finished game is kept (None: forever; default: $FINISHED_TTL).
    `client`: a redis.Redis, or a RedisCluster (events/connection.py); `buckets`: the global
    sets' shards (default: KEY_BUCKETS, else 16 on a cluster and 1 on one Redis);
    `replicas_ack`: (replicas, timeout ms) an append waits for (default: $REPLICAS_ACK)."""

    def __init__(self, client: redis.Redis, prefix: str = "", finished_ttl: Optional[int] = -1,
                 buckets: Optional[int] = None, replicas_ack: Optional[tuple[int, int]] = None):
        self.redis = client
        self.clustered = connection.is_cluster(client)
        self.keys = Keys(prefix, buckets or connection.key_buckets(client))
        self.finished_ttl = finished_ttl_from_env() if finished_ttl == -1 else finished_ttl
        self.replicas, self.ack_timeout_ms = replicas_ack or connection.replicas_ack()
        self._create = client.register_script(scripts.CREATE)
        self._append = client.register_script(scripts.APPEND)
        self._save_snapshot = client.register_script(scripts.SAVE_SNAPSHOT)
        self._load_snapshot = client.register_script(scripts.LOAD_SNAPSHOT)
        self._settle = client.register_script(scripts.SETTLE)
        self._finish = client.register_script(scripts.FINISH)
        self._cache = client.register_script(scripts.CACHE)
        self._raw_client: Optional[redis.Redis] = None

    @unavailable
    def create(self, game_id: str, meta: dict, credentials: dict, events: Sequence[NewEvent],
               owing: bool = False, at: Optional[int] = None, due: Optional[int] = None,
               clocked: bool = False) -> int:
        """Creates the game; `owing`: a worker owes its first turn (a bot or the system acts);
        `due`: its first deadline (ms); `clocked`: it has a clock (the re-arm walks those)."""
        k = self.keys
        at = at or _now_ms()
        args: list = [len(meta)]
        for key, value in meta.items():
            args += [key, value]
        args.append(len(credentials))
        for key, value in credentials.items():
            args += [key, value]
        args.append(len(events))
        args += encode_entries(events, at)
        reply = self._game_script(self._create, scripts.CREATE, game_id,
                                  [k.events(game_id), k.meta(game_id), k.credentials(game_id)], args)
        if reply[0] == b"exists":
            raise GameExists(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(k.idle(game_id), {game_id: _now_ms()})
        if owing:
            pipe.zadd(k.owing(game_id), {game_id: int(reply[1])})
        if clocked:
            pipe.zadd(k.clocked(game_id), {game_id: 0})  # one score: walked by id
        if due is not None:
            pipe.zadd(k.clocks(game_id), {f"{game_id}:{int(reply[1])}": due}, lt=True)
        pipe.execute()
        return int(reply[1])

    def _game_script(self, script, source: str, game_id: str, keys: list, args: list, after=None):
        """Runs one of a game's scripts; then, with REPLICAS_ACK, waits on the same connection
        (WAIT counts that connection's writes) for the replicas, and raises NotReplicated when
        too few have it in time. `after(pipe)` queues more commands behind the script (the
        clocks set's cleanup). Returns the script's reply."""
        if not self.replicas and after is None:
            return script(keys=keys, args=args)  # (on a cluster too: the client loads a missing script)
        if not self.replicas and not self.clustered:
            pipe = self.redis.pipeline(transaction=False)
            script(keys=keys, args=args, client=pipe)
            after(pipe)
            return pipe.execute()[0]
        for attempt in (1, 2):
            pipe = self.redis.pipeline(transaction=False)
            if self.clustered:
                # A cluster pipeline does not load scripts: EVALSHA, and SCRIPT LOAD on a
                # NOSCRIPT (a primary promoted from a replica has an empty script cache).
                pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            else:
                script(keys=keys, args=args, client=pipe)
            if self.replicas:
                if self.clustered:
                    pipe.execute_command("WAIT", self.replicas, self.ack_timeout_ms,
                                         target_nodes=self.redis.get_node_from_key(keys[0]))
                else:
                    pipe.execute_command("WAIT", self.replicas, self.ack_timeout_ms)
            if after is not None:
                after(pipe)
            try:
                replies = pipe.execute()
            except redis.exceptions.NoScriptError:
                if attempt == 2:
                    raise
                self.redis.script_load(source)
                continue
            if self.replicas and int(replies[1]) < self.replicas:
                raise NotReplicated(f"{int(replies[1])} of {self.replicas} replicas have the write of game "
                                    f"{game_id} after {self.ack_timeout_ms} ms")
            return replies[0]
        raise AssertionError("unreachable")

    @unavailable
    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: Optional[str] = None,
        fingerprint: str = "",
        response: str = "",
        at: Optional[int] = None,
        owing: bool = False,
        due: Optional[int] = None,
        clocked: bool = False,
    ) -> AppendResult:
        """`owing`: after these events a worker owes a turn. The game is then marked in the owing
        set first, in the same round trip: if the append is written, so is the mark (a crash
        before the turn is enqueued cannot hide the game from the reconciler).
        `due`: the earliest deadline after these events (a clocked game, api/platform/clocks.py): marked
        the same way, `<game>:<new version>` in the clocks set, never later than a mark already
        there (a writer that loses the version race leaves at worst an early wake-up, which the
        poller re-judges); `clocked`: the previous version's mark is dropped after the script
        (stale whether the append won or lost)."""
        k = self.keys
        idem_key = k.idempotency(game_id, idempotency_key or "-")
        args = [expected_version, 1 if idempotency_key else 0, fingerprint, response,
                IDEMPOTENCY_TTL_SECONDS, len(events)] + encode_entries(events, at or _now_ms())
        if self.clustered or self.replicas:
            # The marks go first, in a round trip of their own: a cluster sends a pipeline's
            # commands to their nodes in no promised order, and the mark must not come after.
            if owing or due is not None:
                pipe = self.redis.pipeline(transaction=False)
                if owing:
                    pipe.zadd(k.owing(game_id), {game_id: expected_version + len(events)}, gt=True)
                if due is not None:
                    pipe.zadd(k.clocks(game_id), {f"{game_id}:{expected_version + len(events)}": due}, lt=True)
                pipe.execute()
            after = (lambda p: p.zrem(k.clocks(game_id), f"{game_id}:{expected_version}")) if clocked else None
            reply = self._game_script(self._append, scripts.APPEND, game_id, [k.events(game_id), idem_key], args,
                                      after)
        elif owing or due is not None or clocked:
            pipe = self.redis.pipeline(transaction=False)
            if owing:
                pipe.zadd(k.owing(), {game_id: expected_version + len(events)}, gt=True)
            if due is not None:
                pipe.zadd(k.clocks(), {f"{game_id}:{expected_version + len(events)}": due}, lt=True)
            self._append(keys=[k.events(game_id), idem_key], args=args, client=pipe)
            if clocked:
                pipe.zrem(k.clocks(), f"{game_id}:{expected_version}")
            replies = pipe.execute()
            reply = replies[int(owing) + int(due is not None)]
        else:
            reply = self._append(keys=[k.events(game_id), idem_key], args=args)
        status = reply[0]
        if status == b"duplicate":
            if reply[1].decode() != fingerprint:
                raise DuplicateRequest(idempotency_key)
            return AppendResult(version=-1, response=reply[2].decode(), duplicate=True)
        if status == b"conflict":
            raise Conflict(int(reply[1]))
        if status == b"missing":
            raise KeyError(game_id)
        return AppendResult(version=int(reply[1]), response=None)

    @unavailable
    def recall(self, game_id: str, idempotency_key: str) -> Optional[tuple[str, str]]:
        """The (fingerprint, response) remembered for an idempotency key, if any."""
        fp, resp = self.redis.hmget(self.keys.idempotency(game_id, idempotency_key), "fingerprint", "response")
        if fp is None:
            return None
        return fp.decode(), resp.decode()

    @unavailable
    def read(self, game_id: str, after: int = 0, limit: Optional[int] = None) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        entries = self.redis.xrange(self.keys.events(game_id), min=f"0-{after + 1}", max="+", count=limit)
        return [decode_entry(i, f) for i, f in entries]

    @property
    def _raw(self) -> redis.Redis:
        """The same connections, with XRANGE's reply left as Redis sent it (lists of bytes):
        whole-history reads skip making a dict per entry."""
        if self._raw_client is None:
            if self.clustered:
                self._raw_client = _FlatXrange(self.redis)
                return self._raw_client
            raw = redis.Redis(connection_pool=self.redis.connection_pool)
            raw.set_response_callback("XRANGE", lambda response, **options: response)
            self._raw_client = raw
        return self._raw_client

    @unavailable
    def read_lines(self, game_id: str, after: int, limit: int, as_stored: Callable[[str], bool],
                   render: Callable[[StoredEvent], bytes]) -> tuple[bytes, int]:
        """Whole histories, fast: the entries come as Redis sends them (no reply parsing into
        dicts), and an event shown as stored becomes its line by cutting its stored bytes and
        putting them back in the line's order, with no decoding and no encoding."""
        if limit <= 0:
            return b"", after
        entries = self._raw.xrange(self.keys.events(game_id), min=f"0-{after + 1}", max="+", count=limit)
        if not entries:
            return b"", after
        lines, known = [], {}
        add = lines.append
        for entry_id, fields in entries:
            entry = fields[1] if len(fields) == 2 and fields[0] == b"e" else None
            if entry is not None and entry_id[:2] == b"0-" and entry[:6] == b'{"t":"':
                end = entry.find(b'"', 6)  # an event type is a name: no escaped quote in it
                passes = known.get(entry[6:end])
                if passes is None:
                    type_ = entry[6:end]
                    passes = known[type_] = b"\\" not in type_ and as_stored(type_.decode())
                if passes and entry[end:end + 6] == b'","d":':
                    # {"t":"<type>","d":<data>,"a":<actor>,"at":<ms>}: "at" is the last key and
                    # "a" the one before (an actor is a number, null or a string, and a quote in
                    # a JSON string is escaped, so neither key can be found inside a value).
                    at = entry.rfind(b',"at":')
                    actor = entry.rfind(b',"a":', 0, at)
                    add(b'{"version":%b,"type":%b,"actor":%b,"at":%b,"data":%b}\n' % (
                        entry_id[2:], entry[5:end + 1], entry[actor + 5:at], entry[at + 6:-1], entry[end + 6:actor]))
                    continue
            add(render(decode_entry(entry_id, pairs(fields))))
        return b"".join(lines), int(entries[-1][0].split(b"-")[1])

    @unavailable
    def cached(self, game_id: str, names: Sequence[str]) -> list[Optional[bytes]]:
        if not names:
            return []
        return self.redis.mget([self.keys.cached(game_id, n) for n in names])

    @unavailable
    def cache(self, game_id: str, name: str, blob: bytes, ttl_s: int) -> None:
        self._cache(keys=[self.keys.events(game_id), self.keys.cached(game_id, name)], args=[blob, ttl_s])

    @unavailable
    def read_range(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        if last < first:
            return []
        entries = self.redis.xrange(self.keys.events(game_id), min=f"0-{first}", max=f"0-{last}")
        return [decode_entry(i, f) for i, f in entries]

    @unavailable
    def version(self, game_id: str) -> int:
        return self.redis.xlen(self.keys.events(game_id))

    @unavailable
    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The versions of many games in one round trip (0 for a game with no stream)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.xlen(self.keys.events(game_id))
        return dict(zip(game_ids, pipe.execute()))

    @unavailable
    def meta(self, game_id: str) -> Optional[dict]:
        raw = self.redis.hgetall(self.keys.meta(game_id))
        if not raw:
            return None
        return {k.decode(): v.decode() for k, v in raw.items()}

    @unavailable
    def credentials(self, game_id: str) -> dict:
        raw = self.redis.hgetall(self.keys.credentials(game_id))
        return {k.decode(): v.decode() for k, v in raw.items()}

    @unavailable
    def follow(self, game_id: str, after: int, block_ms: int) -> list[StoredEvent]:
        """Events after `after`, waiting up to block_ms for the first one (XREAD BLOCK)."""
        reply = self.redis.xread({self.keys.events(game_id): f"0-{after}"}, block=block_ms, count=100)
        if not reply:
            return []
        return [decode_entry(i, f) for i, f in reply[0][1]]

    def follower(self):
        if self.clustered:
            return ClusterFollower(self)
        return RedisFollower(self)

    @unavailable
    def save_snapshot(self, game_id: str, version: int, code: str, blob: bytes) -> None:
        keys = [self.keys.snapshot_index(game_id), self.keys.snapshots(game_id)]
        self._save_snapshot(keys=keys, args=[code, version, blob])

    @unavailable
    def load_snapshot(self, game_id: str, code: str, at_most: Optional[int] = None) -> Optional[tuple[int, bytes]]:
        """The newest snapshot made by `code` at a version <= at_most (any version if None);
        a snapshot made by other code is a stale cache and is never returned."""
        keys = [self.keys.snapshot_index(game_id), self.keys.snapshots(game_id)]
        found = self._load_snapshot(keys=keys, args=[code, "+inf" if at_most is None else at_most])
        if not found:
            return None
        return int(found[0]), found[1]

    @unavailable
    def delete_snapshot(self, game_id: str) -> None:
        self.redis.delete(self.keys.snapshot_index(game_id), self.keys.snapshots(game_id))

    @unavailable
    def active_games(self) -> list[str]:
        """Every unfinished game (a full scan: for tools and tests, not for a pass)."""
        return [g.decode() for key in self.keys.every("idle") for g, _ in self.redis.zscan_iter(key, count=500)]

    @unavailable
    def owing_games(self) -> list[tuple[str, int]]:
        """(game, version it was marked at) of the games that may owe a worker's turn."""
        found = self._each("owing", lambda p, key: p.zrange(key, 0, -1, withscores=True))
        return [(g.decode(), int(v)) for part in found for g, v in part]

    def _each(self, name: str, command) -> list:
        """One command on every bucket of a global set, in one pipeline (one round trip per node)."""
        keys = self.keys.every(name)
        if len(keys) == 1:
            return [command(self.redis, keys[0])]
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            command(pipe, key)
        return pipe.execute()

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
    def last_event(self, game_id: str) -> Optional[StoredEvent]:
        found = self.redis.xrevrange(self.keys.events(game_id), "+", "-", count=1)
        return decode_entry(*found[0]) if found else None

    @unavailable
    def active_count(self) -> int:
        return sum(self._each("idle", lambda p, key: p.zcard(key)))

    # ---- clocks: the due-time set polled by the reconciler (workers/clocks.py) ----------------

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

    @unavailable
    def mark_finished(self, game_id: str) -> None:
        """A finished game leaves the sets of games that may owe work, its snapshots are dropped,
        and with a finished_ttl its keys expire."""
        k = self.keys
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(k.owing(game_id), game_id)
        pipe.zrem(k.idle(game_id), game_id)
        pipe.zrem(k.clocked(game_id), game_id)
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
    def log_finished(self, game_id: str, entry: bytes, kept: int) -> None:
        """Logs an ended game once (see FinishedLog in store.py): the entry is appended, then its
        id is written into the game's meta unless an earlier logging's is there already."""
        meta = self.keys.meta(game_id)
        if self.redis.hget(meta, "finished_log") is not None or not self.redis.exists(meta):
            return
        entry_id = self.redis.xadd(self.keys.finished_log(), {"g": game_id, "e": entry}, maxlen=kept, approximate=True)
        self.redis.hsetnx(meta, "finished_log", entry_id)

    @unavailable
    def read_finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        """(entry id, game id, entry) of the entries logged after `after` ("0": from the first)."""
        found = self._raw.xrange(self.keys.finished_log(), min=f"({after}" if after != "0" else "-", max="+",
                                 count=count)
        return [(i.decode(), f[1].decode(), f[3]) for i, f in found]

    @unavailable
    def finished_log_marks(self, game_ids: Sequence[str]) -> list[Optional[str]]:
        """Each game's logged entry id: None while being logged, "" for a game that is gone."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(self.keys.meta(game_id), "type", "finished_log")
        marks = []
        for type_, mark in pipe.execute():
            marks.append("" if type_ is None else None if mark is None else mark.decode())
        return marks

    @unavailable
    def migrate_active(self, batch: int = 1000) -> int:
        """Moves the first layout's set of unfinished games into the owing and idle sets (each
        is judged at the next pass); returns how many were moved."""
        k, moved = self.keys, 0
        while True:
            games = self.redis.srandmember(k.active(), batch)
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
    def ping(self) -> bool:
        return bool(self.redis.ping())


class _FlatXrange:
    """XRANGE on a cluster, its entries' fields as one flat list as Redis sends them (what the
    single-Redis path gets by leaving the reply unparsed)."""

    def __init__(self, client):
        self.client = client

    def xrange(self, key, min="-", max="+", count=None):
        return [(i, [x for pair in f.items() for x in pair]) for i, f in self.client.xrange(key, min, max, count)]


class RedisFollower:
    """XREAD BLOCK over many games' streams on a connection of its own (a blocked XREAD holds
    its connection: it must never be one a request waits for). interrupt() ends a blocked read
    with CLIENT UNBLOCK, sent on the store's own connections."""

    def __init__(self, store: RedisEventStore):
        self.store = store
        self.redis = connection.dedicated(store.redis, "follower", "events")
        self._client_id: Optional[int] = None
        self._blocked = False

    @unavailable
    def read(self, positions: dict[str, int], block_ms: int, count: int = 100) -> dict[str, list[StoredEvent]]:
        if not positions:
            return {}
        keys = self.store.keys
        by_key = {keys.events(g): g for g in positions}
        streams = {keys.events(g): f"0-{after}" for g, after in positions.items()}
        try:
            if self._client_id is None:
                self._client_id = self.redis.client_id()
            self._blocked = True
            reply = self.redis.xread(streams, count=count, block=block_ms)
        except (redis.ConnectionError, redis.TimeoutError):
            self._client_id = None  # a new connection has a new id
            raise
        finally:
            self._blocked = False
        found = {}
        for key, entries in reply or ():
            key = key.decode() if isinstance(key, bytes) else key
            found[by_key[key]] = [decode_entry(i, f) for i, f in entries]
        return found

    @unavailable
    def interrupt(self) -> bool:
        if not self._blocked or self._client_id is None:
            return False
        return bool(self.store.redis.client_unblock(self._client_id))

    def close(self) -> None:
        self.redis.connection_pool.disconnect()


if TYPE_CHECKING:
    _: type[EventStore] = RedisEventStore  # mypy checks the adapter against the port
