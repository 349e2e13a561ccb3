"""The upgrade from the single hash tag `{ratings}` to one per game type (api/ratings/migration.py):
the old keys move to their types' slots with the same values, a migration stopped anywhere and
run again finishes, a third run finds nothing, and nothing is counted twice after it. In memory
here (fakeredis), across a real cluster's slots in tests/cluster/test_ratings_on_cluster.py."""

from __future__ import annotations

import uuid
from unittest import mock

import fakeredis
import pytest

from api.ratings import migration
from api.ratings.ledger import Ledger
from api.ratings.migration import migrate, pending
from tests.ratings.test_rerating import _dump, _entry
from tests.ratings.test_seasons import DEC, NOV, FinishedLog

TYPES = ["splendor", "witches"]
PEOPLE = [f"p{i}" for i in range(5)]


def _games(n=24):
    return [
        _entry(
            i,
            NOV if i < n // 2 else DEC,
            TYPES[i % 2],
            [PEOPLE[i % 5], PEOPLE[(i + 1) % 5]] + ([PEOPLE[(i + 2) % 5]] if i % 2 else []),
            i % 2,
        )
        for i in range(n)
    ]


def _ledger(client, prefix):
    return Ledger(client, prefix, game_types=lambda: list(TYPES))


@pytest.mark.unit
@pytest.mark.parametrize("stop_after", [None, 1])
def test_old_single_slot_keys_move_to_their_types_slots(stop_after):
    moves_old_keys(fakeredis.FakeRedis(), stop_after)


@pytest.mark.parametrize("stop_after", [None, 1])
def moves_old_keys(redis_client, stop_after):
    """The old layout (`{ratings}`), written key by key as it was, moves to the new one with the
    same values; a migration stopped after its first type and run again finishes it, and a third
    run finds nothing."""
    prefix = f"rm{uuid.uuid4().hex[:6]}:"
    log = FinishedLog(_games())
    reference = _ledger(redis_client, prefix)
    reference.catch_up(log, tell=False)
    expected = _dump(reference)
    old = f"{prefix}ratings:{{ratings}}"
    redis_client.set(f"{old}:cursor", redis_client.get(reference.cursor_key("splendor")) or b"0")
    for key in list(expected):  # the same ratings under the old names, then the new ones deleted
        rest = key.decode()[len(reference.base) + 1 :].partition("}:")[2]
        if rest != "cursor":
            redis_client.restore(f"{old}:{rest}", 0, redis_client.dump(key), replace=True)
        redis_client.delete(key)
    redis_client.sadd(f"{prefix}moderation:{{ratings}}:voided", "player:nobody")
    ledger = _ledger(redis_client, prefix)
    assert pending(ledger)
    if stop_after:
        real, moved = migration._move_type, []

        def stopping(*args):
            if len(moved) == stop_after:
                raise KeyboardInterrupt  # the process stopped between two types
            moved.append(args[1])
            return real(*args)

        with mock.patch.object(migration, "_move_type", stopping), pytest.raises(KeyboardInterrupt):
            migrate(ledger, log)
        assert pending(ledger) and redis_client.exists(ledger.cursor_key(moved[0]))
    done = migrate(ledger, log)
    assert done["left"] == 0 and not pending(ledger)
    assert migrate(ledger, log) == {}
    assert _dump(ledger) == expected  # every key, the cursors included: the same values in the type's slot
    assert all(redis_client.smembers(ledger.excluded_key(t)) == {b"player:nobody"} for t in TYPES)
    assert not list(redis_client.scan_iter(match=f"{prefix}ratings:{{ratings}}*"))
    assert ledger.catch_up(log, tell=False) == 0  # nothing counted twice after the move
