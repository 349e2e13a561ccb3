"""Harvesting every ended game once: `GET /games/ended?since=<cursor>`.

When a public game ends (finished by its rules or abandoned), GameService.finish appends its summary
(id, type, status, version, seats, result, when it ended) to the store's finished log, before
the game leaves the sets the reconciler and the abandonment pass watch: a logging lost in a
crash is done again by their repair. The log's order is the order of logging, and an entry's id
is the cursor: a reader given the id of the last entry it saw sees every entry logged since,
whatever finished meanwhile.

A game logged twice (a retry, or two writers racing) has two entries, of which its meta names
one (the first to write it): a reader shows an entry only when the game's meta names it, skips
the others and the entries of games gone since (FINISHED_TTL), and stops before an entry whose
game names none yet (logged between the append and the naming, this very moment): the page ends
there, so a crawler never passes a game about to be shown. An entry left unnamed for
UNSETTLED_S (its writer died between its two writes) is passed: the repair logs the game again.
With the archive (events/archived_store.py), Redis's log holds only the games not archived yet:
the archiver takes a game's entry out as it archives the game, and the archive serves it since,
in the same order and to the byte: the harvest has no cap, and Redis does not grow with it.
Flask-free.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from api.errors import Code
from api.games.presenting import public_seat
from api.games.repository import Game
from events import codec
from events.archive import DAMAGED_ENTRY
from events.store import EventStore

KEPT = 100_000  # entries in Redis's log without an archive (about 25 MB); with one, no cap is needed
UNSETTLED_S = 600
BATCH = 500
ARCHIVE_DAMAGED = str(Code.ARCHIVE_DAMAGED)


def log(store: EventStore, game: Game) -> None:
    """Logs an ended game (once: the store keeps the first); a private one never (it is not
    listed anywhere: its id is for those it was given to)."""
    if game.platform.private:
        return
    store.log_finished(game.id, codec.dumps_bytes(summary(game)), KEPT)


def summary(game: Game) -> dict[str, Any]:
    """The ended game's entry in the finished log (what the ratings read: api/ratings/standings.py)."""
    finished_at = game.last_at or int(time.time() * 1000)
    entry = {"id": game.id, "type": game.definition.name, "status": game.status, "version": game.version,
             "seats": [public_seat(i, s) for i, s in enumerate(game.seats)], "to_act": [],
             "last_move_at": finished_at, "result": game.result,
             # each seat's own decisions and the threshold the game ended under: the ratings judge
             # a game by its entry alone, so a rebuild judges it as it was judged (standings.py)
             "decisions": _decisions(game), "rated_after": {"decisions_per_seat": game.definition.rated_decisions}}
    if not game.platform.rated:
        entry["rated"] = False  # created casual
    return entry


def _decisions(game: Game) -> list[int]:
    counts = list(game.platform.decisions)
    return counts + [0] * (len(game.seats) - len(counts))


def page(store: EventStore, since: str, type_: str | None, limit: int, now_ms: int | None = None,
         retention_s: float | None = None, skipped: list[dict[str, Any]] | None = None) -> tuple[list[Any], str]:
    """(games ended after the cursor `since`, in order, at most `limit`; the cursor after them).
    `retention_s`: games that ended longer ago are passed over (ARCHIVE_RETENTION_S: gone); the
    ratings' projection reads them all. An entry the archive cannot read (its record damaged:
    events/archive.py) is passed over too, noted in `skipped` ({id, cursor, code}) to say so."""
    now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
    shown: list[dict[str, Any]] = []
    cursor = since
    while len(shown) < limit:
        batch = store.read_finished_log(cursor, BATCH if type_ else limit - len(shown) + 1)
        if not batch:
            break
        marks = store.finished_log_marks([game_id for _, game_id, _ in batch])
        for (entry_id, game_id, entry), mark in zip(batch, marks):
            if entry == DAMAGED_ENTRY:  # whatever its type: a damaged summary does not say it
                cursor = entry_id
                if skipped is not None:
                    skipped.append({"id": game_id, "cursor": entry_id, "code": ARCHIVE_DAMAGED})
                continue
            if mark is None and now_ms - _ms(entry_id) < UNSETTLED_S * 1000:
                return shown, cursor  # being logged right now: the page ends before it
            cursor = entry_id
            if mark != entry_id:
                continue  # a second logging, or a game gone
            item = codec.loads(entry)
            if type_ is not None and item["type"] != type_:
                continue
            if retention_s is not None and now_ms >= item["last_move_at"] + retention_s * 1000:
                continue
            item["cursor"] = entry_id
            shown.append(item)
            if len(shown) == limit:
                break
    return shown, cursor


def ndjson(store: EventStore, since: str, type_: str | None, retention_s: float | None = None) -> Iterator[bytes]:
    """Every game ended after `since` up to now, one per line (each with its cursor). The first
    batch is read before the answer starts, so a store that cannot be read is a 503 rather
    than a 200 whose body breaks off; later batches stream as they are read. A game passed
    over as damaged has a line of its own: {"id", "cursor", "skipped": "archive_damaged"}."""
    skipped: list[dict[str, Any]] = []
    first = page(store, since, type_, BATCH, retention_s=retention_s, skipped=skipped)
    return _lines(store, first, skipped, type_, retention_s)


def _lines(store: EventStore, found_cursor: tuple[list[dict[str, Any]], str], skipped: list[dict[str, Any]],
           type_: str | None, retention_s: float | None) -> Iterator[bytes]:
    found, cursor = found_cursor
    while True:
        told = [{"id": s["id"], "cursor": s["cursor"], "skipped": s["code"]} for s in skipped]
        lines = sorted(found + told, key=lambda item: _log_key(item["cursor"]))
        if lines:
            yield b"".join(codec.dumps_bytes(item) + b"\n" for item in lines)
        if len(found) < BATCH:
            return
        skipped = []
        found, cursor = page(store, cursor, type_, BATCH, retention_s=retention_s, skipped=skipped)


def _log_key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def _ms(entry_id: str) -> int:
    return int(entry_id.split("-")[0])
