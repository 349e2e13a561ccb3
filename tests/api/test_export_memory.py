"""A finished game's export chunks kept in the web process's memory (api/history/export_memory.py):
kept from the second time they are asked for, bounded in bytes and in time, and the export
served from them is the export served from Redis, to the byte."""
from __future__ import annotations

from api.games.repository import snapshot_code
from api.history import export
from api.history.export_memory import SEEN, ChunkMemory
from api.platform.events import ABANDONED, abandoned_event
from events.store import NewEvent
from tests.api.test_history_export import _played_splendor
from tests.conftest import wait_for


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_chunk_is_kept_from_its_second_ask():
    memory = ChunkMemory(1000, 60, Clock())
    memory.offer("a", b"x" * 10)
    assert memory.get(["a"]) == {} and memory.size == 0  # asked once: only noted
    memory.offer("a", b"x" * 10)
    assert memory.get(["a", "b"]) == {"a": b"x" * 10} and memory.size == 10


def test_memory_is_bounded_in_bytes_least_recently_used_first():
    memory = ChunkMemory(25, 60, Clock())
    for name in ("a", "b", "a", "b"):
        memory.offer(name, name.encode() * 10)
    assert memory.get(["a"]) == {"a": b"a" * 10}  # a is now the most recently used
    memory.offer("c", b"c" * 10)
    memory.offer("c", b"c" * 10)
    assert set(memory.get(["a", "b", "c"])) == {"a", "c"} and memory.size == 20
    memory.offer("big", b"z" * 26)
    memory.offer("big", b"z" * 26)  # larger than the whole memory: never kept
    assert memory.get(["big"]) == {} and memory.size == 20


def test_memory_keeps_nothing_longer_than_its_ttl():
    clock = Clock()
    memory = ChunkMemory(1000, 60, clock)
    memory.offer("a", b"a")
    clock.now += 61
    memory.offer("a", b"a")  # the first ask is too old: noted again, not kept
    assert memory.get(["a"]) == {}
    memory.offer("a", b"a")
    clock.now += 59
    assert memory.get(["a"]) == {"a": b"a"}
    clock.now += 2
    assert memory.get(["a"]) == {} and memory.size == 0


def test_names_asked_once_are_bounded_and_zero_bytes_keeps_nothing():
    memory = ChunkMemory(10**9, 60, Clock())
    for i in range(SEEN + 10):
        memory.offer(str(i), b"x")
    assert len(memory._seen) == SEEN
    memory.offer("0", b"x")  # forgotten: noted again
    assert memory.get(["0"]) == {}
    off = ChunkMemory(0, 60, Clock())
    off.offer("a", b"a")
    off.offer("a", b"a")
    assert off.get(["a"]) == {} and off._seen == {}


class CountingStore:
    """The app's real store, counting the reads of cached chunks."""

    def __init__(self, store):
        self.store, self.cached_reads = store, 0

    def cached(self, game_id, names):
        self.cached_reads += 1
        return self.store.cached(game_id, names)

    def __getattr__(self, name):
        return getattr(self.store, name)


def test_a_hot_finished_game_is_exported_from_memory_byte_for_byte(app, client, monkeypatch):
    monkeypatch.setattr(export, "CHUNK", 7)
    service = app.extensions["games"]
    memory = app.extensions["export_memory"]
    assert memory.max_bytes == 64 * 1024 * 1024  # EXPORT_MEMORY_MB's default
    gid, _ = _played_splendor(client, moves=20)
    ended = service.append_platform(service.load(gid), [NewEvent(ABANDONED, abandoned_event(1), None)])
    prefix = f"ndjson|{snapshot_code(ended.definition)}|{export.PRESENTING}|7|"
    names = [f"{prefix}{k}" for k in range(ended.version // 7)]
    assert wait_for(lambda: all(service.store.cached(gid, names)))  # made by the ending append
    counting = CountingStore(service.store)
    monkeypatch.setattr(service, "store", counting)
    bodies = []
    for _ in range(3):
        response = client.get(f"/games/{gid}/events?format=ndjson")
        assert response.status_code == 200
        bodies.append(response.get_data())
    reads_from_redis = counting.cached_reads
    assert reads_from_redis > 0 and bodies[0] == bodies[1] == bodies[2]
    assert memory.size == len(b"".join(counting.store.cached(gid, names)))
    assert client.get(f"/games/{gid}/events?format=ndjson").get_data() == bodies[0]
    assert counting.cached_reads == reads_from_redis  # the fourth export asked Redis for no chunk
    # a seat's export of a finished game is everyone's: the same bytes from the same memory
    assert client.get(f"/games/{gid}/events?format=ndjson&after=3").get_data() == \
        b"".join(line + b"\n" for line in bodies[0].split(b"\n")[3:-1])
