"""The archiver: finished games leave Redis for the archive (events/archived_store.py says the
steps and why each is safe to die after). A reconciler sweep (every pass, on every node: a
lease per game keeps two nodes off one game) takes the games finished ARCHIVE_AFTER_S ago;
`python -m tools.archive` runs the same on a deployment's older finished games.

A game is archived once it has been logged for the harvest (GameService.finish logs it before
marking it finished; a private game is never logged) and only after its record was read back
from the archive equal to what Redis holds.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable

from api.games.presenting import public_seat
from api.games.repository import GameRepository
from events import codec
from events.archive import ArchivedGame
from events.archived_store import ArchivingStore
from events.store import StoreUnavailable

log = logging.getLogger(__name__)
ARCHIVE_AFTER_S = 300.0  # after the end: the rematch, the final reads and exports are served from Redis
LEASE_MS = 60_000
BATCH = 100


class NotVerified(Exception):
    """The archive's copy differs from what Redis holds: nothing is deleted."""


def archive_game(store: ArchivingStore, games: GameRepository, game_id: str,
                 step: Callable[[str], None] = lambda name: None) -> str:
    """Moves one finished game to the archive; says what was done: `archived`, `repaired` (it
    was in the archive and evicted already: the sets are tidied), `gone`, `unfinished` or
    `changed` (a note was appended meanwhile: the next pass takes it). `step(name)` is told
    after each step (the fault tests stop the process there)."""
    source = store.archive_source(game_id)
    if source is None:
        repaired = store.archived_version(game_id) > 0
        store.evicted(game_id)
        return "repaired" if repaired else "gone"
    games.forget(game_id)
    game = games.load(game_id, whatever_its_age=True)  # one past the retention moves too (then is purged)
    if not game.finished:
        return "unfinished"
    if game.version != source.version:
        return "changed"
    record = ArchivedGame(game_id, source.meta, source.credentials, source.entries, summary(store, game, source))
    store.archive.put(record)
    step("written")
    back = store.archive.get(game_id)
    if back is None or (back.meta, back.credentials, back.entries) != (record.meta, record.credentials,
                                                                       record.entries):
        raise NotVerified(f"game {game_id}: the archive's copy differs from Redis's; kept in Redis")
    step("verified")
    if not store.evict(game_id, record.version):
        return "changed"
    step("evicted")
    store.evicted(game_id, source.meta.get("finished_log"))
    store.witness(game_id)  # the readiness probe's proof that this archive is the one (archive_state)
    step("done")
    store.archive.train_dictionary(game.definition.name)  # once it has enough games of the type
    return "archived"


def summary(store: ArchivingStore, game, source: ArchivedGame) -> dict:
    """What the archive keeps beside the history, to list and harvest it without replaying it."""
    first, last = codec.loads(source.entries[0]), codec.loads(source.entries[-1])
    return {"id": game.id, "type": game.definition.name, "status": game.status, "version": game.version,
            "private": bool(game.platform.private), "seats": [public_seat(i, s) for i, s in enumerate(game.seats)],
            "result": game.result, "seed": game.seed, "created_at": first["at"], "finished_at": last["at"],
            "finished_log": source.meta.get("finished_log"), "harvest": _harvest_entry(store, source)}


def _harvest_entry(store: ArchivingStore, source: ArchivedGame) -> str | None:
    """The game's finished-log entry as the harvest shows it (read from the archive once the
    archiver has taken it out of Redis's log)."""
    entry_id = source.meta.get("finished_log")
    found = store.finished_log_entry(entry_id) if entry_id else None
    return found.decode() if found is not None else None


class Archiver:
    """The reconciler's sweep: archives the games marked finished at least after_s ago."""

    __name__ = "archive"

    def __init__(self, store: ArchivingStore, games: GameRepository, after_s: float = ARCHIVE_AFTER_S):
        self.store = store
        self.games = games
        self.after_s = after_s

    def __call__(self, now_ms: int | None = None, limit: int = BATCH) -> dict[str, int]:
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        done: dict[str, int] = {}
        for game_id in self.store.archive_due(now_ms - int(self.after_s * 1000), limit):
            if not self.store.lease(game_id, "archive", LEASE_MS):
                continue  # another node's archiver has it
            try:
                outcome = archive_game(self.store, self.games, game_id)
            except StoreUnavailable:
                raise  # Redis or the archive away: every game waits (the reconciler names the sweep)
            except Exception as e:  # this game's own (its record damaged, a copy that differs): the
                # others go on; it is tried again once its lease (LEASE_MS) ends
                log.error("archiver: game %s was not archived: %s", game_id, e)
                outcome = "failed"
            done[outcome] = done.get(outcome, 0) + 1
        dropped = self.store.drop_archived_idempotency()
        if dropped:
            done["idempotency records dropped"] = dropped
        purged = self.store.purge_expired(limit)
        if purged:
            done["purged (past the retention)"] = purged
        if done:
            log.info("archiver: %s", ", ".join(f"{n} {k}" for k, n in sorted(done.items())))
        return done
