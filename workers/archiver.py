"""The archiver: finished games leave Redis for the archive (events/archived_store.py says the
steps and why each is safe to die after). A reconciler sweep (every pass, on every node: a
lease per game keeps two nodes off one game) takes the games finished ARCHIVE_AFTER_S ago;
`python -m tools.archive` runs the same on a deployment's older finished games.

A game is archived once it has been logged for the harvest (GameService.finish logs it before
marking it finished; a private game is never logged) and only after its record was read back
from the archive equal to what Redis holds.
"""
from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from api.games.presenting import public_seat
from api.games.repository import GameRepository
from events import codec
from events.archive import ArchivedGame, Damaged, Expired
from events.archived_store import ArchivingStore
from events.store import StoreUnavailable

log = logging.getLogger(__name__)
ARCHIVE_AFTER_S = 300.0  # after the end: the rematch, the final reads and exports are served from Redis
LEASE_MS = 60_000
BATCH = 100


class NotVerified(Exception):
    """The archive's copy differs from what Redis holds: nothing is deleted."""


class Ratings(Protocol):
    """What the archiver asks of the ratings' ledger (api/ratings/ledger.py's Ledger)."""

    def counted(self, log_entry: str, type_: str | None = None) -> bool: ...

    def recorded(self, game_id: str, type_: str | None = None) -> list[dict[str, Any]] | None: ...

    def forget_game(self, game_id: str, expected: list[dict[str, Any]] | None = None,
                    type_: str | None = None) -> bool: ...

    def to_file(self, count: int = 100) -> list[str]: ...

    def filed(self, game_ids: list[str]) -> None: ...


class Analyses(Protocol):
    """What the archiver asks of the analyses (api/analysis/analyses.py's Analyses)."""

    def file(self, game_id: str) -> bool: ...


def archive_game(store: ArchivingStore, games: GameRepository, game_id: str,
                 step: Callable[[str], None] = lambda name: None, ratings: Ratings | None = None,
                 analyses: Analyses | None = None) -> str:
    """Moves one finished game to the archive; says what was done: `archived`, `repaired` (it
    was in the archive and evicted already: the sets are tidied), `gone`, `unfinished`,
    `changed` (a note was appended meanwhile: the next pass takes it) or `uncounted` (given the
    ratings' ledger: the game is logged for the harvest and not counted yet; the next pass takes
    it). With the ledger, the game's rating record goes with it: into the archive's summary,
    then out of Redis (a finished, archived game leaves only its marker); with the analyses, its
    done analysis too, once evicted (a pending one is filed by its job once computed). `step(name)`
    is told after each step (the fault tests stop the process there)."""
    source = store.archive_source(game_id)
    if source is None:
        repaired = store.archived_version(game_id) > 0
        if repaired and ratings is not None:
            _forget_rating(store, ratings, game_id)  # a crash after the eviction left it
        if repaired and analyses is not None:
            analyses.file(game_id)  # and its analysis
        store.evicted(game_id)
        if repaired:
            store.witness(game_id)  # a crash after the eviction left it unwitnessed too
        return "repaired" if repaired else "gone"
    log_entry = source.meta.get("finished_log")
    type_ = source.meta.get("type")  # its rating record is in its type's slot (api/ratings/ledger.py)
    if ratings is not None and log_entry and not ratings.counted(log_entry, type_):
        return "uncounted"  # the ratings' sweep counts it first: its record then goes with it
    rated = ratings.recorded(game_id, type_) if ratings is not None else None
    games.forget(game_id)
    game = games.load(game_id, whatever_its_age=True)  # one past the retention moves too (then is purged)
    if not game.finished:
        return "unfinished"
    if game.version != source.version:
        return "changed"
    record = ArchivedGame(game_id, source.meta, source.credentials, source.entries,
                          summary(store, game, source, rated))
    store.archive.put(record)
    step("written")
    back = store.archive.get(game_id)
    if back is None or (back.meta, back.credentials, back.entries) != (record.meta, record.credentials,
                                                                       record.entries) \
            or back.summary.get("ratings") != rated:
        raise NotVerified(f"game {game_id}: the archive's copy differs from Redis's; kept in Redis")
    step("verified")
    if not store.evict(game_id, record.version):
        return "changed"
    step("evicted")
    if ratings is not None and rated is not None:
        if not ratings.forget_game(game_id, rated, type_):  # the archive holds it (verified above)...
            file_ratings(store, ratings, [game_id])  # ...unless a void wrote another meanwhile: that one
        step("rating moved")
    if analyses is not None and analyses.file(game_id):  # after the eviction: see Analyses.compute
        step("analysis moved")
    store.evicted(game_id, log_entry)
    store.witness(game_id)  # the readiness probe's proof that this archive is the one (archive_state)
    step("done")
    store.archive.train_dictionary(game.definition.name)  # once it has enough games of the type
    return "archived"


def summary(store: ArchivingStore, game, source: ArchivedGame, ratings: list[dict[str, Any]] | None = None) -> dict:
    """What the archive keeps beside the history, to list and harvest it without replaying it;
    `ratings`: each seat's rating before and after the game, once counted (the ledger's record)."""
    first, last = codec.loads(source.entries[0]), codec.loads(source.entries[-1])
    found = {"id": game.id, "type": game.definition.name, "status": game.status, "version": game.version,
             "private": bool(game.platform.private), "seats": [public_seat(i, s) for i, s in enumerate(game.seats)],
             "result": game.result, "seed": game.seed, "created_at": first["at"], "finished_at": last["at"],
             "finished_log": source.meta.get("finished_log"), "harvest": _harvest_entry(store, source)}
    if ratings is not None:
        found["ratings"] = ratings
    return found


def _forget_rating(store: ArchivingStore, ratings: Ratings, game_id: str) -> None:
    """Redis's rating record of an archived game deleted, if the archive holds the same."""
    rated = ratings.recorded(game_id)
    if rated is None:
        return
    record = store.archive.get(game_id)
    if record is not None and record.summary.get("ratings") == rated:
        ratings.forget_game(game_id, rated)


def file_ratings(store: ArchivingStore, ratings: Ratings, keys: Iterable[str]) -> int:
    """Rating records Redis holds for games archived already (`keys`: the games' ids), moved
    into their archived records (the summary's `ratings`, written and read back) and deleted
    from Redis; how many. For a rebuild of the ratings (tools/ratings.py), which counts the
    archived games again, and for the records of games archived before the archiver carried
    them (tools/archive.py)."""
    moved = 0
    for game_id in keys:
        for _ in range(3):  # a void writing the record again meanwhile: the new one filed
            rated = ratings.recorded(game_id)
            if rated is None or not store.archived_version(game_id):
                break
            record = store.archive.get(game_id)
            if record is None:
                break
            if record.summary.get("ratings") != rated:
                store.archive.put(dataclasses.replace(record, summary={**record.summary, "ratings": rated}))
                back = store.archive.get(game_id)
                if back is None or back.summary.get("ratings") != rated:
                    break
            if ratings.forget_game(game_id, rated):
                moved += 1
                break
    return moved


def archived_ratings(store: ArchivingStore, game_id: str) -> list[dict[str, Any]] | None:
    """An archived game's rating record as its summary keeps it (the ledger's `archived`), read
    from the archive each time, never from a process's decoded copy: a void rewrites it
    (api/moderation/service.py), which no other process's copy would learn."""
    if not store.archived_version(game_id):
        return None
    try:
        found = store.archive.summary(game_id)
    except Damaged:  # this process's decoded copy, if it has one (a read of it kept), else Damaged
        record = store.archived(game_id)
        return record.summary.get("ratings") if record is not None else None
    if found is None:
        return None
    if store.expired(found.get("finished_at")):
        raise Expired(game_id, found.get("finished_at") or 0)
    return found.get("ratings")


def _harvest_entry(store: ArchivingStore, source: ArchivedGame) -> str | None:
    """The game's finished-log entry as the harvest shows it (read from the archive once the
    archiver has taken it out of Redis's log)."""
    entry_id = source.meta.get("finished_log")
    found = store.finished_log_entry(entry_id) if entry_id else None
    return found.decode() if found is not None else None


class Archiver:
    """The reconciler's sweep: archives the games marked finished at least after_s ago."""

    __name__ = "archive"

    def __init__(self, store: ArchivingStore, games: GameRepository, after_s: float = ARCHIVE_AFTER_S,
                 ratings: Ratings | None = None, analyses: Analyses | None = None):
        self.store = store
        self.games = games
        self.after_s = after_s
        self.ratings = ratings  # the ledger: a game waits for its count, its rating record goes with it
        self.analyses = analyses  # a game's done analysis goes with it
        self._witnessed = False  # the readiness witness back-filled (once a process: backfill_witness)

    def __call__(self, now_ms: int | None = None, limit: int = BATCH) -> dict[str, int]:
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        done: dict[str, int] = {}
        if not self._witnessed:  # games archived before the witnesses were kept: one of them noted
            witness = self.store.backfill_witness()
            if witness is not None:
                log.info("archiver: game %s, archived before the readiness witnesses were kept, noted as one", witness)
            self._witnessed = True
        for game_id in self.store.archive_due(now_ms - int(self.after_s * 1000), limit):
            if not self.store.lease(game_id, "archive", LEASE_MS):
                continue  # another node's archiver has it
            try:
                outcome = archive_game(self.store, self.games, game_id, ratings=self.ratings,
                                       analyses=self.analyses)
            except StoreUnavailable:
                raise  # Redis or the archive away: every game waits (the reconciler names the sweep)
            except Exception as e:  # this game's own (its record damaged, a copy that differs): the
                # others go on; it is tried again once its lease (LEASE_MS) ends
                log.error("archiver: game %s was not archived: %s", game_id, e)
                outcome = "failed"
            done[outcome] = done.get(outcome, 0) + 1
        if self.ratings is not None:  # records a void wrote for archived games, left by a crash
            noted = self.ratings.to_file(limit)
            if noted:
                filed = file_ratings(self.store, self.ratings, noted)
                self.ratings.filed(noted)
                if filed:
                    done["rating records filed"] = filed
        dropped = self.store.drop_archived_idempotency()
        if dropped:
            done["idempotency records dropped"] = dropped
        purged = self.store.purge_expired(limit)
        if purged:
            done["purged (past the retention)"] = purged
        if done:
            log.info("archiver: %s", ", ".join(f"{n} {k}" for k, n in sorted(done.items())))
        return done
