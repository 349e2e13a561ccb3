"""The harvest has no cap: the finished log's entries Redis trims (the oldest, past KEPT) are
read from the archive, in the same order and to the byte, so every finished public game is
harvested once, for all time."""
from __future__ import annotations

import uuid

from domain import registry
from tests.archive.test_archived_reads import _app, play
from workers.archiver import Archiver


def _harvest(client) -> list:
    found = []
    for query in ("since=0", "since=0&limit=2", "since=0&type=high-card&limit=3", "since=0&format=ndjson"):
        url = f"/games?status=finished&{query}"
        while url:  # every page, following `next` until one is empty
            r = client.get(url)
            found.append((url, r.status_code, r.get_data()))
            body = r.get_json() if "ndjson" not in url else None
            url = body["next"] if body and body["games"] else None
    return found


def test_the_harvest_reads_what_redis_trimmed_from_the_archive(redis_url, tmp_path):
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", f"arh{uuid.uuid4().hex[:6]}:")
    store, client = app.extensions["games"].store, app.test_client()
    made = [play(app, registry.get("high-card"), seed) for seed in range(5)]
    Archiver(store, app.extensions["games"].games, after_s=0)()
    last = play(app, registry.get("high-card"), 9)  # finished, not archived yet
    before = _harvest(client)
    ids = [g["id"] for g in client.get("/games?status=finished&since=0").get_json()["games"]]
    assert ids == [m["id"] for m in made] + [last["id"]]
    log = store.keys.finished_log()
    store.redis.xtrim(log, maxlen=3)  # the oldest three entries trimmed (KEPT)
    assert _harvest(client) == before
    store.redis.xtrim(log, maxlen=0)  # all of them
    after = [g["id"] for g in client.get("/games?status=finished&since=0").get_json()["games"]]
    assert after == [m["id"] for m in made]  # (the game not archived was only in Redis's log)
