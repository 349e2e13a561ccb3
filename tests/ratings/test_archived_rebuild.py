"""Redis keeps only the records of the games not yet archived, and a rebuild still equals the
incremental state (issue 50): games of two types counted, half of them archived (their records
moved into the archive, out of Redis), a player voided and restored in turn (a void's re-rating
of an archived game writes its new record, noted, then filed into the archive), and at each step
a rebuild from nothing (then the archived games' records filed again, as `python -m tools.ratings
rebuild` does) leaves the same Redis keys, byte for byte, and the same archived records. In
memory: fakeredis, a finished log and an archive of the test's own."""
from __future__ import annotations

import fakeredis
import pytest

from api.ratings.ledger import Ledger
from tests.ratings.test_rerating import _dump, _entry, _rerate
from tests.ratings.test_seasons import DEC, NOV, FinishedLog

pytestmark = pytest.mark.unit

TYPES = ["splendor", "witches"]
PEOPLE = [f"p{i}" for i in range(5)]


def _games(n=30):
    return [_entry(i, NOV if i < n // 2 else DEC, TYPES[i % 2],
                   [PEOPLE[i % 5], PEOPLE[(i + 2) % 5]] + ([PEOPLE[(i + 3) % 5]] if i % 2 else []), i % 2)
            for i in range(n)]


class Archive:
    """The archive's summaries' `ratings`, by game (workers/archiver.py's filing, in memory)."""

    def __init__(self):
        self.records: dict[str, list] = {}

    def archive(self, ledger, game_id):
        """What archive_game does with the record: carried into the archive, then out of Redis."""
        self.records[game_id] = ledger.recorded(game_id)
        assert ledger.forget_game(game_id, self.records[game_id])

    def file(self, ledger, game_ids):
        """What file_ratings does: each archived game's record Redis holds moved into the archive."""
        for game_id in game_ids:
            if game_id in self.records and ledger.recorded(game_id) is not None:
                self.archive(ledger, game_id)
        ledger.filed(list(game_ids))


def _ledger(archive):
    return Ledger(fakeredis.FakeRedis(), "a:", archived=archive.records.get, game_types=lambda: list(TYPES))


def _rebuilt(log, archive, excluded):
    """A rebuild from nothing without the `excluded` players' games, its archived records filed."""
    copy = Archive()
    copy.records = dict(archive.records)
    ledger = _ledger(copy)
    for type_ in TYPES:
        if excluded:
            ledger.redis.sadd(ledger.excluded_key(type_), *excluded)
    ledger.catch_up(log, tell=False)
    copy.file(ledger, ledger.recorded_games())
    return ledger, copy


def test_a_rebuild_after_archiving_and_voids_equals_the_incremental_state():
    games = _games()
    log = FinishedLog(games)
    archive = Archive()
    ledger = _ledger(archive)
    ledger.catch_up(log, tell=False)
    archived = [g["id"] for g in games[::2]]  # half of them, of both types
    for game_id in archived:
        archive.archive(ledger, game_id)
    live = sorted(g["id"] for g in games[1::2])
    assert sorted(ledger.recorded_games()) == live  # Redis: the records of the games not archived only
    excluded: frozenset[str] = frozenset()
    for step in ("player:p1", "player:p3", "player:p1"):  # voided, another voided, the first restored
        excluded = excluded ^ {step}
        before = dict(archive.records)
        _rerate(ledger, log, excluded, incremental=True, archived=frozenset(archived))
        noted = ledger.to_file(1000)  # the archived games it re-rated, their new records in Redis meanwhile
        assert noted and set(noted) <= set(archived) and all(ledger.recorded(g) is not None for g in noted)
        archive.file(ledger, ledger.to_file(1000))
        assert archive.records != before  # the archived games it re-rated: their new records filed
        assert sorted(ledger.recorded_games()) == live and ledger.to_file() == []
        rebuilt, its_archive = _rebuilt(log, archive, excluded)
        assert _dump(ledger) == _dump(rebuilt), step  # every key of both types, byte for byte
        assert archive.records == its_archive.records, step  # and every archived record
        assert [ledger.game_changes(g) for g in sorted(archived)] == [rebuilt.game_changes(g) for g in sorted(archived)]
