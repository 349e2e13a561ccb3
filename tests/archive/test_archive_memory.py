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
