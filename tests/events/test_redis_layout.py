"""Histories written in the store's first stream layout (a field each) still read the same."""
from __future__ import annotations

import uuid

from events.redis_store import RedisEventStore
from events.store import NewEvent


def test_entries_of_the_first_layout_read_like_new_ones(redis_client):
    store = RedisEventStore(redis_client, prefix=f"layout-{uuid.uuid4().hex[:6]}:")
    gid = uuid.uuid4().hex[:10]
    store.create(gid, {"type": "x"}, {}, [NewEvent("new", {"type": "new", "n": 2}, 0)])
    key = store.keys.events(gid)
    redis_client.xadd(key, {"type": "old", "data": '{"type": "old", "n": 1}', "actor": '"system"', "at": 5}, id="0-2")
    old, = store.read(gid, after=1)
    assert (old.version, old.type, old.data, old.actor, old.at) == (2, "old", {"type": "old", "n": 1}, "system", 5)
    new, = store.read(gid, limit=1)
    assert (new.version, new.type, new.data, new.actor) == (1, "new", {"type": "new", "n": 2}, 0)
