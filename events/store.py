"""The event-store port: the types every backend speaks, and the interface they implement.

Version = number of events; the first event is version 1 and event N is addressable directly.
An append names the version the writer last saw (optimistic concurrency) and, optionally, an
idempotency key: a retried append with the same key is answered with the first answer and
writes nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class StoredEvent:
    version: int
    type: str
    data: dict[str, Any]
    actor: object  # a seat number, "system", or None for the server's own setup events
    at: int  # milliseconds since the epoch, when appended


@dataclass(frozen=True)
class NewEvent:
    type: str
    data: dict[str, Any]
    actor: object


@dataclass(frozen=True)
class AppendResult:
    version: int  # the stream's version after the append (or after the first append, on a retry)
    response: str | None  # what the first request answered, on a retry; else None
    duplicate: bool = False
    watched: bool | None = None  # some webhook subscription covers the game (None: not known)


CATCH_UP = 100  # the most events a refused append answers its writer (events/scripts.py's APPEND: `held`)


class Conflict(Exception):
    """The stream is not at the version the writer expected."""

    def __init__(self, current_version: int, events: list[StoredEvent] | None = None):
        super().__init__(f"stream is at version {current_version}")
        self.current_version = current_version
        # The events after the writer's `held` version up to current_version, when the store
        # answered them with the refusal (the writer catches up with no read of its own).
        self.events = events


class DuplicateRequest(Exception):
    """The idempotency key was used before with a different request."""


class GameExists(Exception):
    """A game with this id already exists."""


class StoreUnavailable(Exception):
    """The backing store cannot be reached; nothing was written."""


class Follower(Protocol):
    """Reads many streams at once on a connection of its own, blocking until one of them grows:
    one per process serves every live stream of that process (api/live/hub.py)."""

    def read(self, positions: dict[str, int], block_ms: int, count: int = 100) -> dict[str, list[StoredEvent]]:
        """The events after each game's version in `positions` (at most `count` per game),
        waiting up to block_ms for the first; {} when none came or interrupt() was called."""

    def interrupt(self) -> bool:
        """Ends a read blocked in another thread or greenlet early (the positions changed);
        True if one was blocked."""

    def close(self) -> None: ...


class EventStore(Protocol):
    """What the application asks of a store (RedisEventStore, InMemoryEventStore: both pass
    tests/events/test_store_contract.py). A backend that cannot be reached raises
    StoreUnavailable from any method, having written nothing it did not acknowledge."""

    # ---- writing a game's history ------------------------------------------------------------

    def create(self, game_id: str, meta: dict[str, Any], credentials: dict[str, str], events: Sequence[NewEvent],
               owing: bool = False, at: int | None = None, due: int | None = None,
               clocked: bool = False, waiting: bool = False, anonymous: bool = False) -> int:
        """Writes a new game's first events (stamped `at`, default now), meta and credentials,
        all or nothing; raises GameExists. `owing`: a worker owes its first turn (the game is
        marked in the owing set at its version); `due`: its first deadline (ms), marked as for
        append; `clocked`: it has a clock (in the clocked set the re-arm walks); `waiting`: it
        waits for seats (in the waiting set, by creation); `anonymous`: created without a
        player's key (in the anonymous set, counted). Returns the version."""

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
        """Appends if the stream is at expected_version (else Conflict, nothing written; KeyError
        for an unknown game). With an idempotency key seen before: the first answer (duplicate)
        if `fingerprint` matches, else DuplicateRequest. The marks are written whether or not
        the append wins (a loser leaves at worst a mark the reconcilers re-judge): `owing`
        marks the game owing at the new version (never lowering a later mark); `due` marks the
        new version's deadline (ms) in the clocks set, never later than a mark already there;
        `clocked` drops expected_version's mark. `held`: the version the writer's state is at;
        a Conflict then carries the events after it (`Conflict.events`, when the store has
        them at hand: the same round trip), so the writer judges again without reading."""

    def recall(self, game_id: str, idempotency_key: str) -> tuple[str, str] | None:
        """The (fingerprint, response) remembered for an idempotency key, if any."""

    # ---- reading it ---------------------------------------------------------------------------

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The events after version `after` (at most `limit`); [] for an unknown game."""

    def read_lines(self, game_id: str, after: int, limit: int, as_stored: Callable[[str], bool],
                   render: Callable[[StoredEvent], bytes]) -> tuple[bytes, int]:
        """Up to `limit` events after `after` as history lines (codec.history_line): those whose
        type as_stored(type) accepts with their stored data as it is, the others as
        render(event) makes them. Returns (the lines, the version of the last one; `after` if none)."""

    def read_range(self, game_id: str, first: int, last: int) -> list[StoredEvent]:
        """Events first..last inclusive (event N is addressable directly)."""

    def version(self, game_id: str) -> int:
        """How many events the game has (0 for an unknown game)."""

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """Many games' versions at once (0 for an unknown game)."""

    def meta(self, game_id: str) -> dict[str, str] | None:
        """The meta written at creation (values as strings); None for an unknown game."""

    def credentials(self, game_id: str) -> dict[str, str]:
        """The credentials written at creation ({} for an unknown game)."""

    def last_event(self, game_id: str) -> StoredEvent | None:
        """The newest event; None for an unknown game."""

    def follow(self, game_id: str, after: int, block_ms: int) -> list[StoredEvent]:
        """Events after `after` (at most 100), waiting up to block_ms for the first; [] if none came."""

    def follower(self) -> Follower:
        """A new reader of many streams (see Follower)."""

    # ---- caches beside the history: never the truth, never needing invalidation --------------

    def cached(self, game_id: str, names: Sequence[str]) -> list[bytes | None]:
        """Blobs cached beside a game's history (None for each one missing)."""

    def cache(self, game_id: str, name: str, blob: bytes, ttl_s: int) -> None:
        """Caches a blob derived from the game's history for ttl_s at most (never longer than the
        history is kept; not at all if the game is gone). It must never need invalidating."""

    def save_snapshot(self, game_id: str, version: int, code: str, blob: bytes) -> None:
        """Keeps a state at `version` made by `code`; snapshots made by other code are dropped."""

    def save_snapshots(self, game_id: str, code: str, snapshots: Sequence[tuple[int, bytes]]) -> None:
        """Keeps many states at once, each (version, blob) as save_snapshot keeps one (one
        round trip: a long replay's snapshots at each multiple of the interval)."""

    def load_snapshot(self, game_id: str, code: str, at_most: int | None = None) -> tuple[int, bytes] | None:
        """(version, blob) of the newest snapshot made by `code` at a version <= at_most (any if
        None); a snapshot made by other code is a stale cache and is never returned."""

    def delete_snapshot(self, game_id: str) -> None:
        """Drops every snapshot of the game."""

    # ---- the sets of games the background passes walk ----------------------------------------

    def active_games(self) -> list[str]:
        """Every unfinished game (a full scan: for tools and tests, not for a pass)."""

    def active_count(self) -> int:
        """How many games are unfinished."""

    def owing_games(self) -> list[tuple[str, int]]:
        """(game, version marked at) of games that may owe a worker's turn: those whose last
        append or creation said so, until the reconciler settles them."""

    def settle(self, game_id: str, version: int) -> None:
        """Unmarks a game judged at `version` to owe nothing, unless marked at a later version."""

    def idle_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        """(game, last activity known) of unfinished games with none known since before_ms,
        the longest idle first."""

    def touch(self, game_id: str, at_ms: int) -> None:
        """Records a game's last activity found (only for a game still unfinished)."""

    def waiting_since(self, before_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        """(game, created ms) of the games created waiting for seats before before_ms and not yet
        found started or ended, the oldest first."""

    def unwait(self, game_id: str) -> None:
        """Out of the waiting set (a game found started)."""

    def anonymous_count(self) -> int:
        """How many unfinished games were created without a player's key."""

    def mark_finished(self, game_id: str) -> None:
        """Out of the owing, idle, clocked, waiting and anonymous sets, snapshots dropped (and
        the keys expire, with a TTL)."""

    def migrate_active(self, batch: int = 1000) -> int:
        """Moves the first layout's set of unfinished games into the owing and idle sets (each is
        judged at the next pass); returns how many were moved."""

    def lease(self, game_id: str, name: str, ttl_ms: int) -> bool:
        """Takes a short lease `name` on a game's background work unless another holder has it
        (it expires after ttl_ms): several nodes' reconcilers judge each game one at a time."""

    # ---- clocks: the deadline marks the reconciler polls (workers/clocks.py) -----------------

    def clocks_due(self, now_ms: int, limit: int = 200) -> list[tuple[str, int, int]]:
        """(game, version, due ms) of the deadline marks due by now_ms, earliest first, at most
        `limit`."""

    def clock_mark(self, game_id: str, version: int, due_ms: int, only_existing: bool = False) -> None:
        """Sets a version's mark to due_ms, earlier or later; with only_existing, only a mark
        still there (one judged meanwhile and dropped stays dropped)."""

    def clock_rearm(self, game_id: str, version: int, due_ms: int) -> None:
        """Marks a version's deadline unless an earlier mark is there (the reconciler's re-arm)."""

    def clock_done(self, game_id: str, version: int) -> None:
        """Drops a version's mark (judged: timed out, stale or without a deadline)."""

    def clocked_games(self, after: str = "", limit: int = 500) -> list[str]:
        """Unfinished clocked games, a page at a time: up to `limit` ids after `after`, by id."""

    # ---- the finished log ----------------------------------------------------------------------

    def log_finished(self, game_id: str, entry: bytes, kept: int | None) -> None:
        """The finished log, for harvesting every ended game exactly once: an ended game's entry
        is appended (at most `kept` entries are kept, the oldest dropped; None: no cap), then the entry's id is
        written into the game's meta unless one is there already (a second logging, by a retry
        or a race, appends an entry the meta does not name: readers skip it). Logging a game
        whose meta names an entry, or that is gone, does nothing."""

    def read_finished_log(self, after: str, count: int) -> list[tuple[str, str, bytes]]:
        """(entry id, game id, entry) after the entry id `after` ("0": from the first), in order."""

    def finished_log_marks(self, game_ids: Sequence[str]) -> list[str | None]:
        """The entry id each game's meta names: None while it is being logged, "" when gone."""

    def watched_hint(self, game_id: str, version: int) -> bool | None:
        """Whether a webhook subscription covered the game when this process appended its
        version `version` (learnt in the append's round trip); None when not known."""

    def closed(self, game_id: str) -> bool:
        """True once the game's history takes no more events: it was moved to the archive
        (events/archived_store.py); never for a store without one."""

    def ping(self) -> bool:
        """True if the backend answers (the health check); StoreUnavailable if it cannot be reached."""
