"""The appends told to the processes that hold their games (events/redis_announcements.py,
issue 57): what the append script publishes, read back as the store keeps it; nothing decoded
for a game the listener does not want; a listener whose owner is gone ends, its connection
closed (a test's apps come and go)."""
from __future__ import annotations

import gc
import threading
import uuid

import pytest

from events.redis_store import RedisEventStore
from events.store import NewEvent
from tests.conftest import wait_for

pytestmark = pytest.mark.redis


def _store(redis_client, announcing: bool = True) -> RedisEventStore:
    store = RedisEventStore(redis_client, f"ann{uuid.uuid4().hex[:6]}:", finished_ttl=None)
    store.announcing = announcing
    return store


def _game(store: RedisEventStore) -> str:
    game_id = uuid.uuid4().hex[:12]
    store.create(game_id, {"type": "t"}, {}, [NewEvent("setup", {"n": 1}, None)])
    return game_id


def test_an_appends_events_reach_the_listener_as_stored_only_for_the_games_it_wants(redis_client):
    """A process (`store`) told of another's appends (`writer`, on the same prefix), not its own."""
    writer = _store(redis_client)
    store = RedisEventStore(redis_client, writer.keys.prefix, finished_ttl=None)
    store.announcing = True
    wanted_game, other = _game(store), _game(store)
    asked: list = []
    got: list = []
    arrived = threading.Event()

    def deliver(game_id, events):
        got.append((game_id, events))
        arrived.set()

    listener = store.listen_appends(lambda g, first: asked.append((g, first)) or g == wanted_game,
                                    deliver, lambda: True)
    try:
        assert listener is not None and listener.subscribed.is_set()  # subscribed before it returns
        store.append(wanted_game, 1, [NewEvent("mine", {}, 0)])  # its own: not told
        writer.append(other, 1, [NewEvent("move", {"x": "a\nb"}, 0)])
        writer.append(wanted_game, 2, [NewEvent("move", {"x": "é\n"}, 0), NewEvent("next", {}, "system")])
        wait_for(arrived.is_set)
        assert asked == [(other, 2), (wanted_game, 3)]  # the other game's entries never decoded
        assert got == [(wanted_game, store.read(wanted_game, after=2))]
    finally:
        listener.stop()


def test_a_store_that_does_not_announce_has_no_listener(redis_client):
    store = _store(redis_client, announcing=False)
    assert store.listen_appends(lambda g, f: True, lambda g, e: None, lambda: True) is None


def test_a_listener_whose_owner_is_gone_ends(redis_client):
    store = _store(redis_client)
    owner = [True]
    listener = store.listen_appends(lambda g, f: True, lambda g, e: None, lambda: owner[0])
    owner[0] = False
    listener._thread.join(30)  # within POLL_S; the timeout is a failure's only
    assert not listener._thread.is_alive() and not listener.subscribed.is_set()


def test_a_dropped_repository_ends_its_listener(redis_client):
    from api.games.service import GameService

    store = _store(redis_client)
    service = GameService(store)
    service.games.warm = True
    service.create("splendor", [{"name": "A"}, {"name": "B"}], {})  # the first game held starts it
    listener = service.games._listener
    assert listener is not None and listener.subscribed.is_set()
    del service
    gc.collect()
    listener._thread.join(30)
    assert not listener._thread.is_alive()



def test_a_listener_whose_connection_is_killed_subscribes_again_and_hears_later_appends(redis_client):
    """Its connection closed by the server (a restart, a CLIENT KILL): the listener reads the
    close, subscribes on a new connection within RETRY_S, and later appends reach it."""
    writer = _store(redis_client)
    store = RedisEventStore(redis_client, writer.keys.prefix, finished_ttl=None)
    store.announcing = True
    game = _game(store)
    got: list = []
    listener = store.listen_appends(lambda g, first: True, lambda g, events: got.append(events), lambda: True)
    try:
        assert listener is not None and listener.subscribed.is_set()
        first = listener._pubsub
        killed = [c["id"] for c in redis_client.client_list() if c["name"].endswith("-appends")]
        assert killed
        for client_id in killed:
            redis_client.client_kill_filter(_id=client_id)
        wait_for(lambda: listener._pubsub not in (None, first) and listener.subscribed.is_set())
        writer.append(game, 1, [NewEvent("move", {"n": 1}, 0)])
        wait_for(lambda: got)
        assert [e.type for e in got[0]] == ["move"]
    finally:
        listener.stop()
