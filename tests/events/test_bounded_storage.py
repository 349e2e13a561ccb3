"""Bounded storage on Redis (issue 14): the sets the reconciler reads hold only games that may
owe work (owing) and unfinished games (idle, scored by last activity); a finished game leaves
both, its snapshots are dropped, and with FINISHED_TTL its keys expire. Before: every game
stayed in `games:active` for ever and every pass read all of them."""
from __future__ import annotations

import uuid

from events.redis_store import RedisEventStore
from events.store import Conflict, NewEvent


def _store(redis_client, **kw):
    return RedisEventStore(redis_client, prefix=f"bound-{uuid.uuid4().hex[:6]}:", **kw)


def _created(store, owing=False):
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {"0": "h"}, [NewEvent("game_created", {"type": "game_created"}, None)],
                 owing=owing)
    return gid


def test_the_append_that_makes_a_game_owe_a_turn_marks_it_with_its_version(redis_client):
    store = _store(redis_client)
    waiting, owing = _created(store), _created(store, owing=True)
    assert store.owing_games() == [(owing, 1)]
    store.append(waiting, 1, [NewEvent("a", {"type": "a"}, 0)])  # a person is to act next: no mark
    assert [g for g, _ in store.owing_games()] == [owing]
    store.append(waiting, 2, [NewEvent("b", {"type": "b"}, 0), NewEvent("c", {"type": "c"}, 0)], owing=True)
    assert dict(store.owing_games()) == {owing: 1, waiting: 4}
    store.settle(waiting, 3)  # judged at an older version: the newer mark stays
    assert dict(store.owing_games())[waiting] == 4
    store.settle(waiting, 4)
    assert store.owing_games() == [(owing, 1)]
    try:
        store.append(waiting, 2, [NewEvent("d", {"type": "d"}, 0)], owing=True)  # stale: refused
    except Conflict:
        pass
    assert dict(store.owing_games()).get(waiting, 0) <= store.version(waiting)  # a stale mark settles


def test_idle_games_are_found_by_last_activity_only(redis_client):
    store = _store(redis_client)
    old, new = _created(store), _created(store)
    redis_client.zadd(store.keys.idle(), {old: 1000})
    assert [g for g, _ in store.idle_since(5000)] == [old]
    store.touch(old, 9000)
    assert store.idle_since(5000) == []
    assert sorted(store.active_games()) == sorted([old, new])
    assert store.last_event(old).type == "game_created"


def test_a_finished_game_leaves_the_sets_and_its_snapshots_go(redis_client):
    store = _store(redis_client)
    gid = _created(store, owing=True)
    store.save_snapshot(gid, 1, "code", b"blob")
    store.mark_finished(gid)
    assert store.owing_games() == [] and gid not in store.active_games()
    assert store.load_snapshot(gid, "code") is None
    assert redis_client.ttl(store.keys.events(gid)) == -1  # kept: histories are the product
    assert store.read(gid)[0].type == "game_created"


def test_with_finished_ttl_a_finished_games_keys_expire(redis_client):
    store = _store(redis_client, finished_ttl=3600)
    gid = _created(store)
    store.mark_finished(gid)
    for key in (store.keys.events(gid), store.keys.meta(gid), store.keys.credentials(gid)):
        assert 3500 < redis_client.ttl(key) <= 3600


def test_the_first_layouts_active_set_is_migrated(redis_client):
    store = _store(redis_client)
    redis_client.sadd(store.keys.active(), "g1", "g2")
    assert store.migrate_active() == 2
    assert not redis_client.exists(store.keys.active())
    assert sorted(g for g, _ in store.owing_games()) == ["g1", "g2"]
    assert sorted(g for g, _ in store.idle_since(0)) == ["g1", "g2"]
