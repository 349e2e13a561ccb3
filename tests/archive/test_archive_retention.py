"""ARCHIVE_RETENTION_S: a finished game is gone that long after its end, for every reader of
every process at once (judged by the clock from the game's end, not by when its bytes go):
`410 game_expired` for its view, moves, events, export, past states and stream, in a process
that held it warm and in a cold one alike, archived or still in Redis; it leaves the finished
lobby, the harvest and the players' games; the archiver's sweep then drops its history from
the archive, keeping a tombstone, and it stays 410."""
from __future__ import annotations

import time
import uuid

from domain import registry
from tests.api.helpers import auth
from tests.archive.test_archived_reads import _app, play
from workers.archiver import Archiver, archive_game

PATHS = ("", "/moves", "/events?limit=5", "/events?format=ndjson", "/state?version=3", "/stream")


def _reads(app, made):
    client = app.test_client()
    return {p: client.get(f"/games/{made['id']}{p}", headers=auth(made["seat"])).status_code for p in PATHS}


def _listed(app, made):
    client = app.test_client()
    lobby = [g["id"] for g in client.get("/games?status=finished&limit=100").get_json()["games"]]
    ended = [g["id"] for g in client.get("/games/ended?since=0&limit=100").get_json()["games"]]
    mine = [g["id"] for g in client.get("/players/me/games", headers=auth(made["key"])).get_json()["games"]]
    return made["id"] in lobby, made["id"] in ended, made["id"] in mine


def test_a_game_past_the_retention_is_gone_everywhere_at_once(redis_url, tmp_path):
    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"ret{uuid.uuid4().hex[:6]}:"
    plain = _app(redis_url, url, prefix)
    archived, kept = (play(plain, registry.get("high-card"), seed) for seed in (1, 2))
    store = plain.extensions["games"].store
    assert archive_game(store, plain.extensions["games"].games, archived["id"]) == "archived"
    ended_at = max(store.last_event(m["id"]).at for m in (archived, kept))
    # A retention that ends 4 s from now for the later of the two (both archived one, kept in
    # Redis the other), in two processes: one warm (it read both), one cold.
    retention = (time.time() * 1000 - ended_at) / 1000 + 4
    config = {"ARCHIVE_RETENTION_S": retention}
    warm = _app(redis_url, url, prefix, **config)
    for made in (archived, kept):
        assert set(_reads(warm, made).values()) == {200}
        assert _listed(warm, made) == (True, True, True)
    time.sleep(max(0.0, ended_at / 1000 + retention - time.time()) + 0.2)
    cold = _app(redis_url, url, prefix, **config)
    for made in (archived, kept):
        for app in (warm, cold):
            got = _reads(app, made)
            assert set(got.values()) == {410}, [(p, s) for p, s in got.items() if s != 410]
            assert _listed(app, made) == (False, False, False)
    answer = cold.test_client().get(f"/games/{archived['id']}")
    assert answer.get_json()["code"] == "game_expired" and "no longer kept" in answer.get_json()["detail"]
    assert set(_reads(plain, kept).values()) == {200}  # a process without the retention keeps it
    # The sweep drops the archived one's history; it stays gone, even where no retention is set.
    swept = Archiver(cold.extensions["games"].store, cold.extensions["games"].games, after_s=0)()
    assert swept.get("purged (past the retention)", 0) >= 1
    for app in (cold, _app(redis_url, url, prefix)):
        assert set(_reads(app, archived).values()) == {410}
