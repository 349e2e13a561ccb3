"""An in-memory event store: a real implementation (a lock, the same checks in the same order
as the Lua scripts), used by unit tests and as the second backend of the store contract suite."""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import codec
from .store import CATCH_UP, AppendResult, Conflict, DuplicateRequest, EventStore, GameExists, NewEvent, StoredEvent


class InMemoryEventStore:
    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._streams: dict[str, list[StoredEvent]] = {}
        self._meta: dict[str, dict[str, str]] = {}
        self._credentials: dict[str, dict[str, str]] = {}
        self._idempotency: dict[tuple[str, str], tuple[str, str]] = {}
        self._snapshots: dict[str, tuple[str, dict[int, bytes]]] = {}
        self._owing: dict[str, int] = {}  # game -> the version it was marked owing at
        self._idle: dict[str, int] = {}  # unfinished game -> last activity known (ms)
        self._cached: dict[tuple[str, str], tuple[bytes, float]] = {}  # (game, name) -> (blob, expiry)
        self._log: list[tuple[str, str, bytes]] = []  # the finished log
        self._log_seq = 0
        self._clocks: dict[tuple[str, int], int] = {}  # (game, version) -> deadline mark (ms)
        self._clocked: set[str] = set()
        self._waiting: dict[str, int] = {}  # game created waiting for seats -> its creation (ms)
        self._anonymous: dict[str, int] = {}  # unfinished game created without a player's key -> its creation
        self._leases: dict[tuple[str, str], float] = {}  # (game, name) -> when the lease ends (monotonic s)

    def _stored(self, stream: list[StoredEvent], events: Sequence[NewEvent], at: int | None = None) -> None:
        at = at or int(time.time() * 1000)
        for e in events:
            # Through JSON, as Redis stores it: callers must not rely on tuples surviving.
            data = json.loads(json.dumps(e.data))
            stream.append(StoredEvent(len(stream) + 1, e.type, data, json.loads(json.dumps(e.actor)), at))

    def create(self, game_id: str, meta: dict[str, Any], credentials: dict[str, str], events: Sequence[NewEvent],
               owing: bool = False, at: int | None = None, due: int | None = None,
               clocked: bool = False, waiting: bool = False, anonymous: bool = False) -> int:
        with self._lock:
            if game_id in self._streams:
                raise GameExists(game_id)
            self._streams[game_id] = []
            self._meta[game_id] = {k: str(v) for k, v in meta.items()}
            self._credentials[game_id] = dict(credentials)
            self._stored(self._streams[game_id], events, at)
            self._idle[game_id] = int(time.time() * 1000)
            if owing:
                self._owing[game_id] = len(events)
            if clocked:
                self._clocked.add(game_id)
            created = at or int(time.time() * 1000)
            if waiting:
                self._waiting[game_id] = created
            if anonymous:
                self._anonymous[game_id] = created
            if due is not None:
                self._lower((game_id, len(events)), due)
            self._lock.notify_all()
            return len(self._streams[game_id])

    def _lower(self, member: tuple[str, int], due: int) -> None:
        self._clocks[member] = min(due, self._clocks.get(member, due))

    def append(self, game_id: str, expected_version: int, events: Sequence[NewEvent],
               idempotency_key: str | None = None, fingerprint: str = "", response: str = "",
               at: int | None = None, owing: bool = False, due: int | None = None,
               clocked: bool = False, held: int | None = None) -> AppendResult:
        with self._lock:
            if owing:
                self._owing[game_id] = max(self._owing.get(game_id, 0), expected_version + len(events))
            if due is not None:
                self._lower((game_id, expected_version + len(events)), due)
            if clocked:
                self._clocks.pop((game_id, expected_version), None)
            if idempotency_key is not None and (game_id, idempotency_key) in self._idempotency:
                fp, first = self._idempotency[(game_id, idempotency_key)]
                if fp != fingerprint:
                    raise DuplicateRequest(idempotency_key)
                return AppendResult(version=-1, response=first, duplicate=True)
            stream = self._streams.get(game_id)
            if not stream:
                raise KeyError(game_id)
            if expected_version != len(stream):
                behind = held is not None and held < len(stream) and len(stream) - held <= CATCH_UP
                raise Conflict(len(stream), list(stream[held:]) if behind else None)
            self._stored(stream, events, at)
            if idempotency_key is not None:
                self._idempotency[(game_id, idempotency_key)] = (fingerprint, response)
            self._lock.notify_all()
            return AppendResult(version=len(stream), response=None)

    def recall(self, game_id: str, idempotency_key: str) -> tuple[str, str] | None:
        with self._lock:
            return self._idempotency.get((game_id, idempotency_key))

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        with self._lock:
            stream = self._streams.get(game_id, [])
            end = len(stream) if limit is None else after + limit
            return stream[after:end]

    def read_lines(self, game_id: str, after: int, limit: int, as_stored: Callable[[str], bool],
                   render: Callable[[StoredEvent], bytes]) -> tuple[bytes, int]:
        events = self.read(game_id, after, limit)
        lines = b"".join(codec.history_line(e.version, e.type, e.actor, e.at, e.data) if as_stored(e.type)
                         else render(e) for e in events)
        return lines, events[-1].version if events else after

    def log_finished(self, game_id: str, entry: bytes, kept: int | None) -> None:
        with self._lock:
            if game_id not in self._meta or "finished_log" in self._meta[game_id]:
                return
            self._log_seq += 1
            entry_id = f"1-{self._log_seq}"
            self._log.append((entry_id, game_id, bytes(entry)))
            if kept is not None:
                del self._log[:-kept]
            self._meta[game_id].setdefault("finished_log", entry_id)

    def read_finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        seq = int(after.split("-")[-1]) if after != "0" else 0
        with self._lock:
            return [e for e in self._log if int(e[0].split("-")[1]) > seq][:count]

    def finished_log_marks(self, game_ids: Sequence[str]) -> list[str | None]:
        with self._lock:
            return ["" if g not in self._meta else self._meta[g].get("finished_log") for g in game_ids]

    def cached(self, game_id: str, names: Sequence[str]) -> list[bytes | None]:
        with self._lock:
            now = time.monotonic()
            found = [self._cached.get((game_id, n)) for n in names]
            return [blob[0] if blob and blob[1] > now else None for blob in found]

    def cache(self, game_id: str, name: str, blob: bytes, ttl_s: int) -> None:
        with self._lock:
            if game_id in self._streams:
                self._cached[(game_id, name)] = (bytes(blob), time.monotonic() + ttl_s)

    def read_range(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        with self._lock:
            return self._streams.get(game_id, [])[max(first, 1) - 1:last]

    def version(self, game_id: str) -> int:
        with self._lock:
            return len(self._streams.get(game_id, []))

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return {g: len(self._streams.get(g, [])) for g in game_ids}

    def meta(self, game_id: str) -> dict[str, str] | None:
        with self._lock:
            meta = self._meta.get(game_id)
            return dict(meta) if meta else None

    def credentials(self, game_id: str) -> dict[str, str]:
        with self._lock:
            return dict(self._credentials.get(game_id, {}))

    def follow(self, game_id: str, after: int, block_ms: int) -> list[StoredEvent]:
        deadline = time.monotonic() + block_ms / 1000
        with self._lock:
            while len(self._streams.get(game_id, [])) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return []
                self._lock.wait(left)
            return self._streams[game_id][after:after + 100]

    def follower(self) -> MemoryFollower:
        return MemoryFollower(self)

    def save_snapshot(self, game_id: str, version: int, code: str, blob: bytes) -> None:
        with self._lock:
            stored_code, by_version = self._snapshots.get(game_id, (None, {}))
            if stored_code != code:
                by_version = {}
            by_version[version] = blob
            self._snapshots[game_id] = (code, by_version)

    def save_snapshots(self, game_id: str, code: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        for version, blob in snapshots:
            self.save_snapshot(game_id, version, code, blob)

    def load_snapshot(self, game_id: str, code: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        with self._lock:
            stored_code, by_version = self._snapshots.get(game_id, (None, {}))
            versions = [v for v in by_version if at_most is None or v <= at_most]
            if stored_code != code or not versions:
                return None
            return max(versions), by_version[max(versions)]

    def delete_snapshot(self, game_id: str) -> None:
        with self._lock:
            self._snapshots.pop(game_id, None)

    def active_games(self) -> list[str]:
        with self._lock:
            return sorted(self._idle)

    def owing_games(self) -> list[tuple[str, int]]:
        with self._lock:
            return sorted(self._owing.items(), key=lambda item: (item[1], item[0]))

    def settle(self, game_id: str, version: int) -> None:
        with self._lock:
            if game_id in self._owing and self._owing[game_id] <= version:
                del self._owing[game_id]

    def idle_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        with self._lock:
            return sorted(((g, at) for g, at in self._idle.items() if at <= before_ms), key=lambda i: i[1])[:limit]

    def touch(self, game_id: str, at_ms: int) -> None:
        with self._lock:
            if game_id in self._idle:
                self._idle[game_id] = at_ms

    def last_event(self, game_id: str) -> StoredEvent | None:
        with self._lock:
            stream = self._streams.get(game_id)
            return stream[-1] if stream else None

    def active_count(self) -> int:
        with self._lock:
            return len(self._idle)

    def clocks_due(self, now_ms: int, limit: int = 200) -> list[tuple[str, int, int]]:
        with self._lock:
            due = sorted((d, g, v) for (g, v), d in self._clocks.items() if d <= now_ms)[:limit]
            return [(g, v, d) for d, g, v in due]

    def clock_mark(self, game_id: str, version: int, due_ms: int, only_existing: bool = False) -> None:
        with self._lock:
            if not only_existing or (game_id, version) in self._clocks:
                self._clocks[(game_id, version)] = due_ms

    def clock_rearm(self, game_id: str, version: int, due_ms: int) -> None:
        with self._lock:
            self._lower((game_id, version), due_ms)

    def clock_done(self, game_id: str, version: int) -> None:
        with self._lock:
            self._clocks.pop((game_id, version), None)

    def clocked_games(self, after: str = "", limit: int = 500) -> list[str]:
        with self._lock:
            return sorted(g for g in self._clocked if g > after)[:limit]

    def waiting_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        with self._lock:
            return [(g, at) for at, g in sorted((at, g) for g, at in self._waiting.items() if at <= before_ms)[:limit]]

    def unwait(self, game_id: str) -> None:
        with self._lock:
            self._waiting.pop(game_id, None)

    def anonymous_count(self) -> int:
        with self._lock:
            return len(self._anonymous)

    def mark_finished(self, game_id: str) -> None:
        with self._lock:
            self._waiting.pop(game_id, None)
            self._anonymous.pop(game_id, None)
            self._clocked.discard(game_id)
            self._owing.pop(game_id, None)
            self._idle.pop(game_id, None)
            self._snapshots.pop(game_id, None)

    def migrate_active(self, batch: int = 1000) -> int:
        return 0

    def lease(self, game_id: str, name: str, ttl_ms: int) -> bool:
        with self._lock:
            now = time.monotonic()
            if self._leases.get((game_id, name), 0) > now:
                return False
            self._leases[(game_id, name)] = now + ttl_ms / 1000
            return True

    def closed(self, game_id: str) -> bool:
        return False  # no archive

    def watched_hint(self, game_id: str, version: int) -> bool | None:
        return None  # no webhooks here: the after-append step asks the subscriptions

    def ping(self) -> bool:
        return True


class MemoryFollower:
    """The in-memory twin of the Redis follower: waits on the store's condition."""

    def __init__(self, store: InMemoryEventStore):
        self.store = store
        self._interrupted = False
        self._blocked = False

    def _ready(self, positions: dict[str, int], count: int) -> dict[str, list[StoredEvent]]:
        streams = self.store._streams
        return {g: streams[g][after:after + count] for g, after in positions.items()
                if len(streams.get(g, [])) > after}

    def read(self, positions: dict[str, int], block_ms: int, count: int = 100) -> dict[str, list[StoredEvent]]:
        deadline = time.monotonic() + block_ms / 1000
        lock = self.store._lock
        with lock:
            self._blocked = True
            try:
                while True:
                    found = self._ready(positions, count)
                    left = deadline - time.monotonic()
                    if found or self._interrupted or left <= 0:
                        self._interrupted = False
                        return found
                    lock.wait(left)
            finally:
                self._blocked = False

    def interrupt(self) -> bool:
        with self.store._lock:
            self._interrupted = True
            blocked = self._blocked
            self.store._lock.notify_all()
            return blocked

    def close(self) -> None:
        pass


if TYPE_CHECKING:
    _: type[EventStore] = InMemoryEventStore  # mypy checks the adapter against the port
