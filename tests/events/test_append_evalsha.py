"""The append's EVALSHA sent on a pooled connection straight away (events/redis_base.py
`_evalsha`, issue 57): the reply redis-py's Script call gives, and the ordinary way whenever that
reply is not plain: the script gone from Redis (NOSCRIPT), the pooled connection dead."""
from __future__ import annotations

import sys
import types
import uuid

import pytest
import redis

from events import scripts
from events.redis_store import RedisEventStore
from events.store import Conflict, NewEvent

pytestmark = pytest.mark.redis


def _game(redis_url: str) -> tuple[RedisEventStore, str]:
    store = RedisEventStore(redis.Redis.from_url(redis_url), f"sha{uuid.uuid4().hex[:6]}:", finished_ttl=None)
    game_id = uuid.uuid4().hex[:12]
    store.create(game_id, {"type": "t"}, {}, [NewEvent("setup", {"n": 1}, None)])
    store.redis.script_load(scripts.APPEND)
    return store, game_id


def _sent_straight(store: RedisEventStore, monkeypatch) -> list[int]:
    """Counts the appends that went the ordinary way (redis-py's Script call)."""
    ordinary = []
    script = type(store._append)
    call = script.__call__
    monkeypatch.setattr(script, "__call__", lambda self, *a, **k: ordinary.append(1) or call(self, *a, **k))
    return ordinary


def test_an_append_is_sent_straight_and_lands_as_the_ordinary_way_does(redis_url, monkeypatch):
    store, game_id = _game(redis_url)
    ordinary = _sent_straight(store, monkeypatch)
    assert store.append(game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp").version == 2
    assert store.append(game_id, 2, [NewEvent("moved", {"a": 2}, 1)], "k2", "fp").version == 3
    with pytest.raises(Conflict) as refused:  # a stale writer: the events it lacks come back
        store.append(game_id, 2, [NewEvent("moved", {"a": 3}, 0)], "k3", "fp", held=2)
    assert [e.data for e in refused.value.events] == [{"a": 2}]
    assert store.append(game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp").duplicate  # a retry
    assert ordinary == []
    # the same replies as redis-py's own call of the script, conflict and duplicate alike
    keys = [store.keys.events(game_id), store.keys.idempotency(game_id, "k1"), store.keys.watchers(game_id)]
    args = store._append_args(game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp", "", 5, None)
    assert store._evalsha(store._append, keys, args) == store._append(keys=keys, args=args)
    args = store._append_args(game_id, 2, [NewEvent("moved", {"a": 1}, 0)], "k9", "fp", "", 5, 1)
    assert store._evalsha(store._append, keys, args) == store._append(keys=keys, args=args)
    assert [e.data for e in store.read(game_id)] == [{"n": 1}, {"a": 1}, {"a": 2}]


def test_a_script_flushed_from_redis_is_loaded_again_by_the_ordinary_way(redis_url, monkeypatch):
    store, game_id = _game(redis_url)
    ordinary = _sent_straight(store, monkeypatch)
    store.redis.script_flush()
    assert store.append(game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp").version == 2
    assert ordinary == [1]
    assert store.append(game_id, 2, [NewEvent("moved", {"a": 2}, 0)], "k2", "fp").version == 3
    assert ordinary == [1]  # loaded again: straight from then on
    assert [e.data for e in store.read(game_id)] == [{"n": 1}, {"a": 1}, {"a": 2}]


@pytest.mark.parametrize("step", ["send_command", "read_response"])
def test_a_connection_failing_is_dropped_and_the_append_lands_once(redis_url, monkeypatch, step):
    """The connection fails sending the script (the append was not made: the ordinary way makes
    it) or reading its reply (it was: the ordinary way's retry finds its idempotency key)."""
    store, game_id = _game(redis_url)
    ordinary = _sent_straight(store, monkeypatch)
    failed = []
    connection = store.redis.connection_pool.connection_class
    real = getattr(connection, step)

    def once(self, *args, **kwargs):
        if not failed and (step == "read_response" or args[0] == "EVALSHA"):
            if step == "read_response":
                real(self, *args, **kwargs)  # the reply arrives, and is lost
            failed.append(self)
            raise redis.ConnectionError("the connection broke")
        return real(self, *args, **kwargs)

    store.redis.ping()  # a connection in the pool, made before
    monkeypatch.setattr(connection, step, once)
    dropped = []
    disconnect = connection.disconnect
    # (ids: a connection held here would be freed, and disconnect itself, while this lambda is undone)
    monkeypatch.setattr(connection, "disconnect", lambda self, *a, **k: dropped.append(id(self)) or disconnect(self, *a, **k))
    result = store.append(game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp")
    assert ordinary == [1] and len(failed) == 1
    assert result.version == 2 if step == "send_command" else result.duplicate
    assert dropped[:1] == [id(failed[0])]  # dropped before it goes back to the pool, no reply left unread in it
    assert [e.data for e in store.read(game_id)] == [{"n": 1}, {"a": 1}]


def test_appends_keep_their_connection_out_of_the_pool_a_forked_child_its_own(redis_url, monkeypatch):
    """The straight append keeps its connection (redis-py's get_connection polls the socket for
    unread data and release counts it back: ~40 us a command under gevent); a connection that
    failed was dropped and connects again; a forked child takes its own from its pool."""
    store, game_id = _game(redis_url)
    ordinary = _sent_straight(store, monkeypatch)
    pool = store.redis.connection_pool
    taken = []
    get_connection = pool.get_connection
    monkeypatch.setattr(pool, "get_connection", lambda: taken.append(1) or get_connection())
    for version in range(1, 6):
        assert store.append(game_id, version, [NewEvent("moved", {"a": version}, 0)], f"k{version}", "fp").version \
            == version + 1
    assert taken == [1] and ordinary == []
    store._lane.idle[0].disconnect()  # as a failed send or read leaves it
    assert store.append(game_id, 6, [NewEvent("moved", {"a": 6}, 0)], "k6", "fp").version == 7
    assert taken == [1] and ordinary == []
    monkeypatch.setattr("events.redis_base.os.getpid", lambda: -1)
    assert store.append(game_id, 7, [NewEvent("moved", {"a": 7}, 0)], "k7", "fp").version == 8
    assert taken == [1, 1] and ordinary == []
    assert [e.data["a"] for e in store.read(game_id)[1:]] == list(range(1, 8))


def test_a_small_pools_connections_go_back_after_each_append(redis_url, monkeypatch):
    """Held between appends, a small (or blocking) pool's connections could starve its other
    commands: from such a pool each append takes one and gives it back, as redis-py's call does."""
    store = RedisEventStore(redis.Redis.from_url(redis_url, max_connections=2), f"sha{uuid.uuid4().hex[:6]}:",
                            finished_ttl=None)
    game_id = uuid.uuid4().hex[:12]
    store.create(game_id, {"type": "t"}, {}, [NewEvent("setup", {"n": 1}, None)])
    for version in range(1, 4):
        assert store.append(game_id, version, [NewEvent("moved", {"a": version}, 0)], f"k{version}", "fp").version \
            == version + 1
        assert store.redis.connection_pool._in_use_connections == set() and store._lane.idle == []
    assert store.redis.ping()


def test_an_append_lets_the_requests_ready_to_run_go_first(redis_url, monkeypatch):
    """Where gevent has patched the process (gunicorn's gevent workers: `time.sleep` is gevent's,
    as faked here), an append yields once before it sends, so the moves ready at the same moment
    send theirs in the same pass of the loop and Redis serves them in one pass, one AOF write and
    fsync for all: sent at once each, they cost Redis about twice the passes and writes a move
    (bench/README.md). Unpatched (this process, an RQ worker) it does not yield."""
    gevent = pytest.importorskip("gevent")
    store, game_id = _game(redis_url)
    assert store._lane.pause is None
    patched = types.SimpleNamespace(is_module_patched=lambda name: name == "time")
    monkeypatch.setitem(sys.modules, "gevent.monkey", patched)
    monkeypatch.setattr("events.redis_base.time.sleep", gevent.sleep)
    monkeypatch.setattr("events.redis_base.os.getpid", lambda: -1)  # a new worker process: a new lane
    order: list[str] = []
    connection = store.redis.connection_pool.connection_class
    send = connection.send_command
    monkeypatch.setattr(connection, "send_command",
                        lambda self, *a, **k: (a[0] == "EVALSHA" and order.append("append sent")) or send(self, *a, **k))
    move = gevent.spawn(store.append, game_id, 1, [NewEvent("moved", {"a": 1}, 0)], "k1", "fp")
    other = gevent.spawn(order.append, "another request ran")
    gevent.joinall([move, other], raise_error=True)
    assert order == ["another request ran", "append sent"]
    assert move.value.version == 2
