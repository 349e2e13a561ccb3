"""The ratings on the Redis Cluster (issue 50): each game type's keys in a slot of its own (the
hash tag `{ratings:<type>}`), so the cluster spreads the types over its primaries; two processes
counting at once count each game once; a void's re-rating, type by type, leaves exactly what a
rebuild without the voided games leaves; the old single-slot keys move with `migrate`
(tests/ratings/test_migration.py, here across the cluster's slots)."""

from __future__ import annotations

import threading
import uuid

import pytest
from redis.cluster import ClusterNode, RedisCluster, key_slot

from api.ratings.ledger import Ledger
from tests.ratings.test_migration import moves_old_keys
from tests.ratings.test_rerating import _entry, _rerate
from tests.ratings.test_seasons import DEC, NOV, FinishedLog

TYPES = ["splendor", "witches"]
PEOPLE = [f"p{i}" for i in range(5)]


def _client(cluster):
    return RedisCluster(
        startup_nodes=[ClusterNode("127.0.0.1", n.port) for n in cluster.nodes], require_full_coverage=False
    )


def _games(n=24):
    """Games of both types: Splendor between two people, Witches among three."""
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


def test_two_game_types_ratings_land_in_different_slots(redis_client):
    ledger = _ledger(redis_client, f"rc{uuid.uuid4().hex[:6]}:")
    ledger.catch_up(FinishedLog(_games()), tell=False)
    slots = {}
    for key in redis_client.scan_iter(match=f"{ledger.base}:*", count=1000):
        type_ = key.decode()[len(ledger.base) + 1 :].partition("}")[0]
        slots.setdefault(type_, set()).add(key_slot(key))
    assert sorted(slots) == TYPES
    assert all(len(found) == 1 for found in slots.values()), slots  # each type: one slot, all its keys
    assert slots["splendor"] != slots["witches"]
    voided = {t: key_slot(ledger.excluded_key(t).encode()) for t in TYPES}  # the type's moderation keys beside
    assert all({voided[t]} == slots[t] for t in TYPES)


def test_two_processes_counting_at_once_count_each_game_once(cluster):
    prefix = f"rc{uuid.uuid4().hex[:6]}:"
    games = _games(60)
    log = FinishedLog(games)
    ledgers = [_ledger(_client(cluster), prefix) for _ in range(2)]
    counted = []
    threads = [threading.Thread(target=lambda lg=lg: counted.append(lg.catch_up(log, tell=False))) for lg in ledgers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(counted) == 2
    single = _ledger(_client(cluster), f"rc{uuid.uuid4().hex[:6]}:")
    single.catch_up(log, tell=False)
    for type_ in TYPES:
        played = {f"player:{s['player']}": 0 for g in games if g["type"] == type_ for s in g["seats"]}
        for g in games:
            if g["type"] == type_:
                for who in {f"player:{s['player']}" for s in g["seats"]}:
                    played[who] += 1
        got = ledgers[0].ratings(type_, sorted(played))
        assert {w: r.games for w, r in got.items()} == played  # each game once, in its own type
        assert got == single.ratings(type_, sorted(played))  # and the same numbers as one process's


def test_a_void_type_by_type_equals_a_rebuild_without_the_voided_games(redis_client):
    prefix = f"rc{uuid.uuid4().hex[:6]}:"
    games = _games()
    log = FinishedLog(games)
    ledger = _ledger(redis_client, prefix)
    ledger.catch_up(log, tell=False)
    voided = frozenset({"player:p1"})
    assert _rerate(ledger, log, voided, incremental=True)  # a transaction per type, each in its slot
    rebuilt = _ledger(redis_client, f"rc{uuid.uuid4().hex[:6]}:")
    for type_ in TYPES:
        redis_client.sadd(rebuilt.excluded_key(type_), *voided)
    rebuilt.catch_up(log, tell=False)
    for type_ in TYPES:
        everyone = [f"player:{p}" for p in PEOPLE]
        assert ledger.ratings(type_, everyone) == rebuilt.ratings(type_, everyone)
        assert ledger.board(type_, 0, 10) == rebuilt.board(type_, 0, 10)


@pytest.mark.parametrize("stop_after", [None, 1])
def test_old_single_slot_keys_move_to_their_types_slots(redis_client, stop_after):
    moves_old_keys(redis_client, stop_after)
