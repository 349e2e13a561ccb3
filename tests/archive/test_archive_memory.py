"""Redis's memory drops when finished games are archived: of a game played by people (each move
with an Idempotency-Key), only the marker stays once the idempotency walk has passed."""
from __future__ import annotations

import uuid

from domain import registry
from tests.archive.test_archived_reads import _app, play, redis_keys
from workers.archiver import Archiver


def _bytes(store, keys):
    return sum(store.redis.memory_usage(k, samples=0) or 0 for k in keys)


def test_archiving_leaves_a_marker_of_under_200_bytes_of_a_finished_game(redis_url, tmp_path):
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", f"arm{uuid.uuid4().hex[:6]}:")
    store, games = app.extensions["games"].store, app.extensions["games"].games
    made = [play(app, registry.get("splendor"), seed) for seed in (1, 2)]
    held = {m["id"]: redis_keys(app, m["id"]) for m in made}
    assert all(any(":idem:" in k for k in keys) for keys in held.values())  # people's moves' records
    before = {gid: _bytes(store, keys) for gid, keys in held.items()}
    archiver = Archiver(store, games, after_s=0)
    done = archiver()
    assert done["archived"] == 2
    store.drop_all_archived_idempotency()  # the walk over the idempotency records, whole
    for gid, size in before.items():
        assert redis_keys(app, gid) == [store.marker_key(gid)]
        after = _bytes(store, [store.marker_key(gid)])
        assert after < 200 < size / 50, (size, after)
    assert store.due_count() == 0


def test_the_idempotency_walk_ends_within_its_passes_however_large_the_keyspace(redis_url, tmp_path):
    """A step looks at a share of the keyspace, so a walk ends within WALK_PASSES passes even
    when the archived games' markers have made it large (a fixed step of 2,000 keys needed
    50 passes at 100,000 keys: the records of games archived meanwhile lingered)."""
    from events.archived_store import WALK_PASSES, WALK_STEP_MIN

    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", f"arw{uuid.uuid4().hex[:6]}:")
    store, games = app.extensions["games"].store, app.extensions["games"].games
    filler = f"{store.keys.prefix}filler:"
    with store.redis.pipeline(transaction=False) as pipe:
        for i in range(3 * WALK_PASSES * WALK_STEP_MIN):
            pipe.set(f"{filler}{i}", b"", ex=600)
        pipe.execute()
    try:
        made = play(app, registry.get("splendor"), 3)
        archiver = Archiver(store, games, after_s=0)
        assert archiver()["archived"] == 1
        for _ in range(WALK_PASSES + 1):
            archiver()
        assert redis_keys(app, made["id"]) == [store.marker_key(made["id"])]  # its ~80 records spread over the keyspace
    finally:
        for i in range(0, 3 * WALK_PASSES * WALK_STEP_MIN, 10_000):
            store.redis.delete(*[f"{filler}{j}" for j in range(i, i + 10_000)])
