"""The event store with its archive tier: Redis for the games being played, the archive
(events/archive.py) for the finished ones, behind the one EventStore port.

A finished game is moved in steps (workers/archiver.py), each safe to die after:
1. `archive_due` lists it (mark_finished put it in the due set, before its other writes);
2. `archive_source` reads its stored entries, meta and credentials as Redis holds them;
3. the archive writes them and they are read back and compared (the archiver's work);
4. `evict` replaces its keys with a marker, in one script, only if the stream is still at the
   version archived (a note appended meanwhile makes it wait for the next pass);
5. `evicted` takes it out of the global sets (and the due set).
A game is in Redis until 4, in the archive from 3: never in neither place. A repeat of any
step does the same again (the archive's write is an upsert; a marker found at 2 skips to 5).

Reads: every read that finds nothing in Redis looks for the marker (`game:{id}:archived`,
holding the version) and then answers from the archive, so a read that raced the eviction
answers as it would have before it. An archived game never changes again, so a process keeps
the newest ones it read (ARCHIVED_CACHE): no other process can disagree with it.
"""
from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from .archive import Archived, ArchivedGame, ArchiveStore, ArchiveUnavailable, Damaged, Expired
from .connection import Client, unavailable
from .keys import glob_escaped, sharded
from .redis_entries import FlatEntry, decode_entry, pairs
from .redis_reads import cut_lines
from .redis_store import RedisEventStore
from .store import AppendResult, StoredEvent

log = logging.getLogger(__name__)
WALK_PASSES = 20  # passes of the archiver that walk the whole keyspace for idempotency records
WALK_STEP_MIN = 2000  # keys a walk's step looks at, at least
ARCHIVED_CACHE = 256  # archived games a process keeps decoded (each read alike by every process)

# KEYS: events, meta, credentials, snapshot index, snapshots, marker. ARGV: the version archived.
EVICT = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('SET', KEYS[6], ARGV[1])
return 1
"""


class ArchivingStore(RedisEventStore):
    """RedisEventStore whose reads of an archived game are answered from `archive`. Finished
    games are kept in Redis until archived (no FINISHED_TTL: the archive replaces it)."""

    def __init__(self, client: Client, archive: ArchiveStore, prefix: str = "", buckets: int | None = None,
                 replicas_ack: tuple[int, int] | None = None, retention_s: float | None = None):
        super().__init__(client, prefix, None, buckets, replicas_ack)
        self.archive = archive
        self.retention_s = retention_s  # ARCHIVE_RETENTION_S: an archived game is gone this long after its end
        self._archived: OrderedDict[str, ArchivedGame] = OrderedDict()
        self._evict = client.register_script(EVICT)
        self._idempotency_cursor = 0  # where the walk of the idempotency records is (drop_archived_idempotency)
        self._damaged: set[str] = set()  # the damaged games this process has logged (once each, until read again)

    def on(self, client: Client) -> ArchivingStore:
        """The same store on another client (the live path's own pool), sharing the archive."""
        store = ArchivingStore(client, self.archive, self.keys.prefix, self.keys.buckets,
                               (self.replicas, self.ack_timeout_ms), self.retention_s)
        store.announcing = self.announcing
        return store

    # ---- keys ------------------------------------------------------------------------------------

    def marker_key(self, game_id: str) -> str:
        return f"{self.keys.prefix}game:{{{game_id}}}:archived"

    def due_key(self, game_id: str | None = None, bucket: int | None = None) -> str:
        """Finished games to archive (sorted set; score: when they were marked finished, ms)."""
        return sharded(f"{self.keys.prefix}games:archive-due", self.keys.buckets, game_id, bucket)

    # ---- the archived games' reads --------------------------------------------------------------

    @unavailable
    def archived_version(self, game_id: str) -> int:
        """The version the marker says a game was archived at (0: not archived)."""
        found = self.redis.get(self.marker_key(game_id))
        return int(found) if found is not None else 0

    @unavailable
    def archived_among(self, game_ids: Sequence[str]) -> set[str]:
        """Those of `game_ids` that are archived (their markers, a thousand a round trip)."""
        found: set[str] = set()
        ids = list(game_ids)
        for i in range(0, len(ids), 1000):
            part = ids[i:i + 1000]
            markers = cast(list[bytes | None], self.redis.mget([self.marker_key(g) for g in part]))
            found.update(g for g, m in zip(part, markers, strict=True) if m is not None)
        return found

    def archived(self, game_id: str) -> ArchivedGame | None:
        """The game's archived record if it is archived (it has a marker); Expired past the
        retention, in every process alike (judged from its end by the clock)."""
        found = self._record(game_id)
        return self._unexpired(found) if found is not None else None

    def _record(self, game_id: str) -> ArchivedGame | None:
        """The archived record (a purged game's tombstone too), kept decoded for the next reads."""
        kept = self._archived.get(game_id)
        if kept is not None:
            self._archived.move_to_end(game_id)
            return kept
        if not self.archived_version(game_id):
            return None
        try:
            found = self.archive.get(game_id)
        except Damaged as e:  # logged once (a process, a game), raised at every read until repaired
            if game_id not in self._damaged:
                self._damaged.add(game_id)
                log.error("archive_damaged: game %s: %s (python -m tools.archive verify lists the damaged rows)",
                          game_id, e.reason)
            raise
        self._damaged.discard(game_id)  # repaired: a damage after this is logged again
        if found is None:  # a marker without its record: the archive lost it, or is another one
            raise ArchiveUnavailable(f"game {game_id} is archived, but the archive has no record of it")
        self._archived[game_id] = found
        while len(self._archived) > ARCHIVED_CACHE:
            self._archived.popitem(last=False)
        return found

    def witness_key(self) -> str:
        """Two archived games Redis names (hash: `first`, the first archived since it was kept,
        and `last`): an archive that has neither is not the one those games went to."""
        return f"{self.keys.prefix}archive:witnesses"

    @unavailable
    def witness(self, game_id: str) -> None:
        """Notes a game just archived (and evicted) as a witness (archive_state)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hsetnx(self.witness_key(), "first", game_id)
        pipe.hset(self.witness_key(), "last", game_id)
        pipe.execute()

    @unavailable
    def backfill_witness(self, count: int = 1000) -> str | None:
        """When no witness is kept (the games archived so far were archived before witnesses
        were: archive_state would be blind to their archive being replaced), notes one archived
        game Redis knows (a marker found by SCAN, `count` keys a step) as the `first` witness;
        the game noted, or None (a witness kept already, or no game archived). Once a process
        (the archiver's first sweep) and by `python -m tools.archive`: it scans the keyspace
        until it meets a marker, so only a deployment with no archived game walks it whole."""
        if self.redis.exists(self.witness_key()):
            return None
        head = f"{self.keys.prefix}game:{{"
        for key in self.redis.scan_iter(match=f"{glob_escaped(head)}*}}:archived", count=count):
            name = key.decode() if isinstance(key, bytes) else key
            game_id = name[len(head):].rsplit("}:archived", 1)[0]
            self.redis.hsetnx(self.witness_key(), "first", game_id)
            return game_id
        return None

    def archive_state(self) -> str:
        """"ok" if the archive holds the witnessed games (or none was witnessed yet); what is
        missing otherwise (an empty archive where Redis knows archived games: a container made
        again without its volume). ArchiveUnavailable if the archive cannot be read."""
        found = cast(dict[bytes, bytes], unavailable(self.redis.hgetall)(self.witness_key()))
        if not found:
            self.archive.ping()  # none witnessed yet: whether it answers
        for name, game_id in sorted(found.items()):
            if not self.archive.has(game_id.decode()):
                return (f"missing: Redis knows game {game_id.decode()} ({name.decode()} witness) archived, "
                        "and the archive has no record of it")
        return "ok"

    def expired(self, finished_at: int | None, now_ms: int | None = None) -> bool:
        """Whether a game that ended at `finished_at` (ms) is past the retention."""
        if self.retention_s is None or finished_at is None:
            return False
        return (now_ms if now_ms is not None else time.time() * 1000) >= finished_at + self.retention_s * 1000

    def _unexpired(self, game: ArchivedGame) -> ArchivedGame:
        finished_at = game.summary.get("finished_at")
        if self.expired(finished_at) or not game.entries:  # no entries: purged, gone for good
            raise Expired(game.game_id, finished_at or 0)
        return game

    def purge_expired(self, limit: int = 100) -> int:
        """The histories past the retention dropped from the archive (their tombstones kept)."""
        if self.retention_s is None:
            return 0
        purged = self.archive.purge(int(time.time() * 1000 - self.retention_s * 1000), limit)
        if purged:
            self._archived.clear()
        return purged

    def _events(self, game_id: str, first: int, last: int | None = None) -> list[StoredEvent]:
        game = self.archived(game_id)
        if game is None:
            return []
        entries = game.entries[max(0, first - 1):last]
        return [decode_entry(b"0-%d" % v, {b"e": e}) for v, e in enumerate(entries, start=max(1, first))]

    @unavailable
    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if limit is not None and limit <= 0:
            return []
        # The marker comes in the same round trip: the hot path (a load's tail) costs nothing more.
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(self.keys.events(game_id), min=f"0-{after + 1}", max="+", count=limit)
        pipe.get(self.marker_key(game_id))
        entries, marker = pipe.execute()
        if entries or marker is None or int(marker) <= after:
            return [decode_entry(i, f) for i, f in entries]
        return self._events(game_id, after + 1, None if limit is None else after + limit)

    def read_range(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        found = super().read_range(game_id, first, last)
        return found if found or last < first else self._events(game_id, first, last)

    def read_lines(self, game_id: str, after: int, limit: int, as_stored: Callable[[str], bool],
                   render: Callable[[StoredEvent], bytes]) -> tuple[bytes, int]:
        lines, last = super().read_lines(game_id, after, limit, as_stored, render)
        if lines or limit <= 0:
            return lines, last
        game = self.archived(game_id)
        if game is None or game.version <= after:
            return lines, last
        entries = game.entries[after:after + limit]
        flat: list[FlatEntry] = [(b"0-%d" % v, [b"e", e]) for v, e in enumerate(entries, start=after + 1)]
        return cut_lines(flat, as_stored, render), after + len(entries)

    def version(self, game_id: str) -> int:
        return super().version(game_id) or self.archived_version(game_id)

    @unavailable
    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        found = super().versions(game_ids)
        missing = [g for g, v in found.items() if not v]
        if missing:
            markers = cast(list[bytes | None], self.redis.mget([self.marker_key(g) for g in missing]))
            found.update({g: int(m) for g, m in zip(missing, markers, strict=True) if m is not None})
        return found

    def meta(self, game_id: str) -> dict[str, str] | None:
        found = super().meta(game_id)
        if found is not None:
            return found
        game = self.archived(game_id)
        return dict(game.meta) if game is not None else None

    def credentials(self, game_id: str) -> dict[str, str]:
        found = super().credentials(game_id)
        if found:
            return found
        game = self.archived(game_id)
        return dict(game.credentials) if game is not None else {}

    def last_event(self, game_id: str) -> StoredEvent | None:
        found = super().last_event(game_id)
        if found is not None:
            return found
        game = self.archived(game_id)
        return self._events(game_id, game.version)[0] if game is not None and game.version else None

    @unavailable
    def finished_log_entry(self, entry_id: str) -> bytes | None:
        """The finished log's entry `entry_id`, if Redis still has it."""
        found = self._raw.xrange(self.keys.finished_log(), min=entry_id, max=entry_id, count=1)
        return found[0][1][3] if found else None

    @unavailable
    def log_finished(self, game_id: str, entry: bytes, kept: int | None) -> None:
        """Logs an ended game with no cap on Redis's log: the archiver takes each entry out as it
        archives the game (evicted()), so the log holds only the games not archived yet (a cap
        could trim one of those, and the archive would never learn its entry)."""
        super().log_finished(game_id, entry, None)

    def read_finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        """The finished log: its entries still in Redis (the games not archived yet) merged, in
        order, with the archived games' (every archived public game stays harvestable for all
        time). Redis is read first: an entry gone from it by then was archived before, so the
        archive's read finds it; and a side that answered `count` entries bounds the merge at its
        last, past which the other side's may not be all it holds."""
        newer = super().read_finished_log(after, count)
        older = self.archive.finished_log(after, count)
        merged = sorted({e[0]: e for e in older + newer}.values(), key=lambda e: _log_key(e[0]))
        bounds = [_log_key(side[-1][0]) for side in (newer, older) if len(side) >= count]
        if bounds:
            merged = [e for e in merged if _log_key(e[0]) <= min(bounds)]
        return merged[:count]

    def finished_log_marks(self, game_ids: Sequence[str]) -> list[str | None]:
        marks = super().finished_log_marks(game_ids)
        for i, (game_id, mark) in enumerate(zip(game_ids, marks, strict=True)):
            if mark == "":  # gone from Redis: archived (past the retention too: the ratings'
                # projection counts every game; the harvest's pages leave those out), or never there
                try:
                    game = self._record(game_id)
                except Damaged as e:  # its summary, if that part is sound; "" (passed) if not
                    marks[i] = (e.summary or {}).get("finished_log") or ""
                    continue
                marks[i] = (game.meta.get("finished_log") or game.summary.get("finished_log", "")
                            if game is not None else "")
        return marks

    def closed(self, game_id: str) -> bool:
        return self.archived_version(game_id) > 0

    def append(self, game_id: str, *args: Any, **kwargs: Any) -> AppendResult:
        try:
            return super().append(game_id, *args, **kwargs)
        except KeyError:
            if self.archived_version(game_id):
                raise Archived(game_id) from None
            raise

    # ---- moving a finished game to the archive (workers/archiver.py) -----------------------------

    @unavailable
    def mark_finished(self, game_id: str) -> None:
        # Due first: a crash before the sets' writes leaves a game the archiver takes anyway.
        self.redis.zadd(self.due_key(game_id), {game_id: int(time.time() * 1000)}, nx=True)
        super().mark_finished(game_id)

    @unavailable
    def archive_due(self, before_ms: int, limit: int = 100) -> list[str]:
        """Games marked finished before before_ms and not yet archived, the oldest first."""
        parts = self._each_due(lambda p, key: p.zrangebyscore(key, "-inf", before_ms, start=0, num=limit,
                                                               withscores=True))
        return [g.decode() for _, g in sorted((at, g) for part in parts for g, at in part)[:limit]]

    @unavailable
    def due_count(self) -> int:
        return sum(self._each_due(lambda p, key: p.zcard(key)))

    def _each_due(self, command: Callable[[Any, str], Any]) -> list[Any]:
        """One command on every bucket of the due set, in one pipeline (as RedisBase._each)."""
        pipe = self.redis.pipeline(transaction=False)
        for b in range(self.keys.buckets):
            command(pipe, self.due_key(bucket=b))
        return pipe.execute()

    @unavailable
    def archive_source(self, game_id: str) -> ArchivedGame | None:
        """The game as Redis holds it (its entries as stored); None if Redis has no meta for it."""
        meta = super().meta(game_id)
        if meta is None:
            return None
        raw = self._raw.xrange(self.keys.events(game_id), min="-", max="+")
        return ArchivedGame(game_id, meta, super().credentials(game_id), tuple(_entry(i, f) for i, f in raw))

    @unavailable
    def evict(self, game_id: str, version: int) -> bool:
        """Replaces the game's keys with its marker if its stream is still at `version`."""
        k = self.keys
        keys = [k.events(game_id), k.meta(game_id), k.credentials(game_id), k.snapshot_index(game_id),
                k.snapshots(game_id), self.marker_key(game_id)]
        return bool(self._evict(keys=keys, args=[version]))

    @unavailable
    def evicted(self, game_id: str, log_entry: str | None = None) -> None:
        """Out of every global set (a crash may have kept it in some) and of the finished log
        (its entry is the archive's now: read_finished_log), and of the due set, last: a crash
        before that takes the game again (archive_game's repair). `log_entry`: the entry's id
        (the meta's `finished_log`), read from the archive's record when not given."""
        super().mark_finished(game_id)
        if log_entry is None:
            record = self._record(game_id)
            log_entry = record.meta.get("finished_log") if record is not None else None
        if log_entry:
            self.redis.xdel(self.keys.finished_log(), log_entry)
        self.redis.delete(self.keys.lease("archive", game_id))  # the archiver's (workers/archiver.py): done
        self.redis.zrem(self.due_key(game_id), game_id)

    @unavailable
    def drop_archived_idempotency(self, count: int | None = None) -> int:
        """One step of a walk over the idempotency records (SCAN, `count` keys looked at), dropping
        those of archived games; returns how many. A record's key names no game the archiver can
        list (the client chose it), so they are found by walking, a step a pass, rather than by
        a scan per game. On a cluster they are left to expire (IDEMPOTENCY_TTL_SECONDS).

        A step looks at a share of the keyspace (its size over WALK_PASSES, at least 2,000 keys),
        so a walk ends within about WALK_PASSES passes however many markers the archived games
        left: with a fixed step, 100,000 markers took 50 passes to walk, and the records of the
        games archived meanwhile waited for it (bench.archive_scale: 230 B a game still in Redis)."""
        if count is None and not self.clustered:
            count = max(WALK_STEP_MIN, int(self.redis.dbsize()) // WALK_PASSES)
        self._idempotency_cursor, dropped = self._drop_idempotency_step(self._idempotency_cursor, count or 0)
        return dropped

    @unavailable
    def drop_all_archived_idempotency(self, count: int = 10_000) -> int:
        """A whole walk of its own, from the start (python -m tools.archive): the sweep's walk
        may be anywhere in the keyspace, and a walk begun midway would miss the records it had
        passed before the games they belong to were archived."""
        cursor, total = None, 0
        while cursor != 0:
            cursor, dropped = self._drop_idempotency_step(cursor or 0, count)
            total += dropped
        return total

    @unavailable
    def drop_archived_log_entries(self, count: int = 1000) -> int:
        """Deletes from Redis's finished log the entries of games archived already (by a server
        from before the archiver took them out: python -m tools.archive); returns how many."""
        after, dropped = "-", 0
        while found := self._raw.xrange(self.keys.finished_log(), min=after, max="+", count=count):
            after = "(" + found[-1][0].decode()
            games = [fields[1].decode() for _, fields in found]
            markers = cast(list[bytes | None], self.redis.mget([self.marker_key(g) for g in games]))
            gone = [entry_id for (entry_id, _), m in zip(found, markers, strict=True) if m is not None]
            dropped += int(self.redis.xdel(self.keys.finished_log(), *gone)) if gone else 0
        return dropped

    def _drop_idempotency_step(self, cursor: int, count: int) -> tuple[int, int]:
        if self.clustered:
            return 0, 0
        pattern = f"{glob_escaped(self.keys.prefix)}game:*:idem:*"
        cursor, found = cast(tuple[int, list[bytes]], self.redis.scan(cursor, match=pattern, count=count))
        if not found:
            return cursor, 0
        games = [k.decode().split("{", 1)[1].split("}:idem:", 1)[0] for k in found]
        markers = cast(list[bytes | None], self.redis.mget([self.marker_key(g) for g in games]))
        gone = [k for k, m in zip(found, markers, strict=True) if m is not None]
        return cursor, int(self.redis.delete(*gone)) if gone else 0


def _log_key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)



def _entry(entry_id: bytes, fields: list[bytes]) -> bytes:
    """A stream entry's JSON as stored ({"t","d","a","at"}); the first layout's made so."""
    if len(fields) == 2 and fields[0] == b"e" and entry_id[:2] == b"0-":
        return fields[1]
    from . import codec
    e = decode_entry(entry_id, pairs(fields))
    return codec.dumps_bytes({"t": e.type, "d": e.data, "a": e.actor, "at": e.at})


if TYPE_CHECKING:
    from .store import EventStore
    _: type[EventStore] = ArchivingStore
