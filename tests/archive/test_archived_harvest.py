"""The harvest has no cap: the archiver takes an archived game's entry out of Redis's finished log
(Redis does not grow with the finished games), and the archive serves it, in the same order and to
the byte, so every finished public game is harvested once, for all time; entries that Redis lost
otherwise (a trim) are served from the archive as well."""
from __future__ import annotations

import uuid

from domain import registry
from tests.archive.test_archived_reads import _app, play
from workers.archiver import Archiver, archive_game


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


def test_the_harvest_reads_the_archived_games_entries_from_the_archive(redis_url, tmp_path):
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", f"arh{uuid.uuid4().hex[:6]}:")
    service = app.extensions["games"]
    store, client, log = service.store, app.test_client(), service.store.keys.finished_log()
    made = [play(app, registry.get("high-card"), seed)["id"] for seed in range(6)]
    before = _harvest(client)
    ids = [g["id"] for g in client.get("/games?status=finished&since=0").get_json()["games"]]
    assert ids == made
    for game_id in made[1:5:2]:  # archived out of order: Redis's log keeps 0, 2, 4, 5
        assert archive_game(store, service.games, game_id) == "archived"
    assert [f[b"g"].decode() for _, f in store.redis.xrange(log)] == [made[i] for i in (0, 2, 4, 5)]
    assert _harvest(client) == before  # pages of 2 and 3 cross both sides
    Archiver(store, service.games, after_s=0)()
    assert store.redis.xlen(log) == 0 and _harvest(client) == before
    last = play(app, registry.get("high-card"), 9)["id"]  # finished, not archived yet: Redis's
    assert [g["id"] for g in client.get("/games?status=finished&since=0").get_json()["games"]] == made + [last]
