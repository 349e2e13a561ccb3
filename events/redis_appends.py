"""Writing a game's history on Redis: creation and appends (one Lua script each, with the
owing and clock marks in the same round trip), optionally acknowledged by replicas, and the
idempotency keys' answers."""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, cast

import redis
from redis.client import Pipeline
from redis.cluster import RedisCluster
from redis.commands.core import Script

from . import scripts
from .connection import unavailable
from .redis_base import RedisBase
from .redis_entries import decode_entry, encode_entries, pairs
from .replication import degraded_primaries
from .store import AppendResult, Conflict, DuplicateRequest, GameExists, NewEvent, StoredEvent, StoreUnavailable

IDEMPOTENCY_TTL_SECONDS = 24 * 3600


def _now_ms() -> int:
    return int(time.time() * 1000)


def _caught_up(reply: list[Any], held: int | None) -> list[StoredEvent] | None:
    """The events a refused append answered (the entries after `held`, each its fields flat)."""
    if held is None or len(reply) - 2 != int(reply[1]) - held:
        return None
    return [decode_entry(b"0-%d" % v, pairs(fields)) for v, fields in enumerate(reply[2:], start=held + 1)]


class NotReplicated(StoreUnavailable):
    """The append is on the primary, but not on the replicas REPLICAS_ACK asks for in time: its
    fate in a failover is unknown, so it is not acknowledged (503; a retry with the same
    Idempotency-Key answers what the append answered)."""


class Appends(RedisBase):
    """create, append, recall."""

    @unavailable
    def create(self, game_id: str, meta: dict[str, Any], credentials: dict[str, str], events: Sequence[NewEvent],
               owing: bool = False, at: int | None = None, due: int | None = None,
               clocked: bool = False, waiting: bool = False, anonymous: bool = False) -> int:
        """Creates the game; `owing`: a worker owes its first turn (a bot or the system acts);
        `due`: its first deadline (ms); `clocked`: it has a clock (the re-arm walks those);
        `waiting`, `anonymous`: in those sets (scored by creation)."""
        k = self.keys
        at = at or _now_ms()
        args: list[Any] = [len(meta)]
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
        if waiting:
            pipe.zadd(k.waiting(game_id), {game_id: at})
        if anonymous:
            pipe.zadd(k.anonymous(game_id), {game_id: at})
        if due is not None:
            pipe.zadd(k.clocks(game_id), {f"{game_id}:{int(reply[1])}": due}, lt=True)
        pipe.execute()
        return int(reply[1])

    def _game_script(self, script: Script, source: str, game_id: str, keys: list[str], args: list[Any],
                     after: Callable[[Pipeline], object] | None = None) -> Any:
        """Runs one of a game's scripts; then, with REPLICAS_ACK, waits on the same connection
        (WAIT counts that connection's writes) for the replicas online, and raises NotReplicated
        when too few have it in time (events/replication.py). `after(pipe)` queues more commands behind the script (the
        clocks set's cleanup). Returns the script's reply."""
        if not self.replicas and after is None:
            return script(keys=keys, args=args)  # (on a cluster too: the client loads a missing script)
        if not self.replicas and not self.clustered and after is not None:
            pipe = self.redis.pipeline(transaction=False)
            script(keys=keys, args=args, client=pipe)
            after(pipe)
            return pipe.execute()[0]
        primary, on_node = self._primary_of(keys[0])
        for attempt in (1, 2):
            pipe = self.redis.pipeline(transaction=False)
            if self.clustered:
                # A cluster pipeline does not load scripts: EVALSHA, and SCRIPT LOAD on a
                # NOSCRIPT (a primary promoted from a replica has an empty script cache).
                pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
            else:
                script(keys=keys, args=args, client=pipe)
            acks = self.acks.queue(pipe, primary, **on_node) if self.replicas else 0
            if after is not None:
                after(pipe)
            try:
                replies = pipe.execute()
            except redis.exceptions.NoScriptError:
                if attempt == 2:
                    raise
                self.redis.script_load(source)
                continue
            short = self.acks.shortfall(primary, replies[1:1 + acks]) if acks else None
            if short is not None:
                raise NotReplicated(f"{short[0]} of the {short[1]} replicas online have the write of game "
                                    f"{game_id} after {self.ack_timeout_ms} ms")
            return replies[0]
        raise AssertionError("unreachable")

    def _primary_of(self, key: str) -> tuple[str, dict[str, Any]]:
        """The name of the primary holding `key`, and what sends a command to it in a pipeline."""
        if isinstance(self.redis, RedisCluster):
            node = self.redis.get_node_from_key(key)
            return node.name, {"target_nodes": node}
        return "redis", {}

    @unavailable
    def replication(self) -> dict[str, Any] | None:
        """With REPLICAS_ACK: {"replicas_ack": N, "degraded": the primaries with fewer than N
        replicas online, whose appends fewer (or no) replicas acknowledge}; without: None."""
        if not self.replicas:
            return None
        if isinstance(self.redis, RedisCluster):
            reports = self.redis.info("replication", target_nodes=RedisCluster.PRIMARIES)
        else:
            reports = {"redis": self.redis.info("replication")}
        return {"replicas_ack": self.replicas, "degraded": degraded_primaries(reports, self.replicas)}

    @unavailable
    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        fingerprint: str = "",
        response: str = "",
        at: int | None = None,
        owing: bool = False,
        due: int | None = None,
        clocked: bool = False,
        held: int | None = None,
    ) -> AppendResult:
        """`owing`: after these events a worker owes a turn. The game is then marked in the owing
        set first, in the same round trip: if the append is written, so is the mark (a crash
        before the turn is enqueued cannot hide the game from the reconciler).
        `due`: the earliest deadline after these events (a clocked game, api/platform/clocks.py): marked
        the same way, `<game>:<new version>` in the clocks set, never later than a mark already
        there (a writer that loses the version race leaves at worst an early wake-up, which the
        poller re-judges); `clocked`: the previous version's mark is dropped after the script
        (stale whether the append won or lost). `held`: the version the writer's state is at;
        a conflict then answers the events after it, read by the script (Conflict.events)."""
        k = self.keys
        idem_key = k.idempotency(game_id, idempotency_key or "-")
        args = self._append_args(game_id, expected_version, events, idempotency_key, fingerprint, response,
                                 at, held)
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
            reply = self._game_script(self._append, scripts.APPEND, game_id,
                                      [k.events(game_id), idem_key, k.watchers(game_id)], args, after)
        elif owing or due is not None or clocked:
            pipe = self.redis.pipeline(transaction=False)
            if owing:
                pipe.zadd(k.owing(), {game_id: expected_version + len(events)}, gt=True)
            if due is not None:
                pipe.zadd(k.clocks(), {f"{game_id}:{expected_version + len(events)}": due}, lt=True)
            self._append(keys=[k.events(game_id), idem_key, k.watchers(game_id)], args=args, client=pipe)
            if clocked:
                pipe.zrem(k.clocks(), f"{game_id}:{expected_version}")
            replies = pipe.execute()
            reply = replies[int(owing) + int(due is not None)]
        else:
            reply = self._evalsha(self._append, [k.events(game_id), idem_key, k.watchers(game_id)], args)
        status = reply[0]
        if status == b"duplicate":
            if reply[1].decode() != fingerprint:
                raise DuplicateRequest(idempotency_key)
            return AppendResult(version=-1, response=reply[2].decode(), duplicate=True)
        if status == b"conflict":
            raise Conflict(int(reply[1]), _caught_up(reply, held))
        if status == b"missing":
            raise KeyError(game_id)
        version, watched = int(reply[1]), bool(int(reply[2])) if len(reply) > 2 else None
        if watched is not None:
            self.watched_hints.note(game_id, version, watched)
        return AppendResult(version=version, response=None, watched=watched)

    def _append_args(self, game_id: str, expected_version: int, events: Sequence[NewEvent],
                     idempotency_key: str | None, fingerprint: str, response: str, at: int | None,
                     held: int | None) -> list[Any]:
        """The APPEND script's ARGV (events/scripts.py): `held` ('' for none) when given or
        when the append is to be announced, then the channel, the game's id and the store's origin."""
        args: list[Any] = [expected_version, 1 if idempotency_key else 0, fingerprint, response,
                           IDEMPOTENCY_TTL_SECONDS, len(events)]
        args += encode_entries(events, at or _now_ms())
        if self.announcing:
            args += ["" if held is None else held, self.keys.appends(), game_id, self.origin]
        elif held is not None:
            args.append(held)
        return args

    @unavailable
    def recall(self, game_id: str, idempotency_key: str) -> tuple[str, str] | None:
        """The (fingerprint, response) remembered for an idempotency key, if any."""
        found = self.redis.hmget(self.keys.idempotency(game_id, idempotency_key), "fingerprint", "response")
        fp, resp = cast(list[bytes | None], found)
        if fp is None or resp is None:  # (both or neither: the append script writes them together)
            return None
        return fp.decode(), resp.decode()
