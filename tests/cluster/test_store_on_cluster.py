"""The event-store contract (tests/events/test_store_contract.py) on the Redis Cluster, and
what is particular to a cluster: the global sets sharded into hash-tag buckets, the live
reader grouping streams by slot, the appends acknowledged by a replica."""
from __future__ import annotations

import uuid

import pytest
from redis.cluster import key_slot

from events.redis_store import RedisEventStore
from tests.events import test_store_contract as contract

globals().update({name: test for name, test in vars(contract).items() if name.startswith("test_")})
ev, new_game = contract.ev, contract.new_game


@pytest.fixture
def store(redis_client):
    return RedisEventStore(redis_client, prefix=f"store-{uuid.uuid4().hex[:8]}:")


def test_the_global_sets_are_sharded_into_buckets_in_many_slots(store, redis_client):
    assert store.clustered and store.keys.buckets == 16
    games = [new_game(store) for _ in range(40)]
    for gid in games:
        store.append(gid, 2, [ev(1)], owing=True)
    keys = store.keys.every("owing")
    assert {key_slot(k.encode()) for k in keys} == {key_slot(k.encode()) for k in store.keys.every("idle")}
    assert len({key_slot(k.encode()) for k in keys}) == 16
    filled = [k for k in keys if redis_client.zcard(k)]
    assert len(filled) > 5  # spread, not one hot key
    assert sorted(g for g, _ in store.owing_games()) == sorted(games)
    assert store.active_count() >= 40 and set(games) <= set(store.active_games())
    assert all(v == 3 for g, v in store.owing_games() if g in games)


def test_clocks_and_idle_pages_merge_the_buckets_in_order(store):
    games = sorted(new_game(store) for _ in range(12))
    for i, gid in enumerate(games):
        store.clock_mark(gid, 2, 1000 + i)
        store.touch(gid, 500 + i)
    due = store.clocks_due(2000, limit=5)
    assert [d for _, _, d in due] == [1000, 1001, 1002, 1003, 1004]
    assert [g for g, _ in store.idle_since(505, limit=100) if g in games] == games[:6]


def test_the_follower_reads_games_of_every_node_at_once(store):
    games = [new_game(store, 1) for _ in range(30)]
    follower = store.follower()
    assert follower.read({g: 1 for g in games}, block_ms=100) == {}
    store.append(games[3], 1, [ev(7)])
    store.append(games[17], 1, [ev(8)])
    found = follower.read({g: 1 for g in games}, block_ms=2000)
    assert {g: [e.version for e in es] for g, es in found.items()} == {games[3]: [2], games[17]: [2]}


def test_an_append_waits_for_a_replica_when_asked(redis_client):
    store = RedisEventStore(redis_client, prefix=f"ack-{uuid.uuid4().hex[:6]}:", replicas_ack=(1, 2000))
    gid = new_game(store)
    assert store.append(gid, 2, [ev(1)], owing=True, clocked=True, due=5).version == 3
    assert store.replication() == {"replicas_ack": 1, "degraded": []}
    # More replicas asked for than each primary has (1): acknowledged by the one online, and
    # every primary reported short (degraded) instead of every append refused.
    wanting = RedisEventStore(redis_client, prefix=store.keys.prefix, replicas_ack=(5, 50))
    assert wanting.append(gid, 3, [ev(2)]).version == 4
    degraded = wanting.replication()["degraded"]
    assert len(degraded) == 3 and {d["online_replicas"] for d in degraded} == {1}
