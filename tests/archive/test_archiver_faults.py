"""The archiver killed (SIGKILL) after each of its steps: the game is never in neither place,
never archived twice, its reads never change, and the next sweep (a restart) finishes the move.
And an archive that cannot be read answers 503 (store_unavailable), then recovers."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.archive.test_archived_reads import _app, answers, play, redis_keys
from workers.archiver import Archiver

ROOT = Path(__file__).resolve().parent.parent.parent

# A process archiving one game that kills itself (SIGKILL: no cleanup, no finally) after a step.
KILLED_AFTER = """
import os, signal, sys
from api.settings import Settings
from domain import registry
from tests.platform import high_card
from workers.archiver import archive_game
from wiring import bootstrap

registry.register(high_card.GAME)
redis_url, prefix, archive_url, game_id, at = sys.argv[1:]
services = bootstrap(Settings(redis_url=redis_url, key_prefix=prefix, archive_url=archive_url))
def step(name):
    if name == at:
        os.kill(os.getpid(), signal.SIGKILL)
archive_game(services.store, services.service.games, game_id, step)
"""


def _killed_after(redis_url, prefix, archive_url, game_id, step):
    done = subprocess.run([sys.executable, "-c", KILLED_AFTER, redis_url, prefix, archive_url, game_id, step],
                          cwd=ROOT, capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr.decode()[-2000:]


@pytest.mark.process
@pytest.mark.parametrize("step", ["written", "verified", "evicted"])
def test_an_archiver_killed_after_each_step_loses_nothing_and_the_next_sweep_finishes(redis_url, tmp_path, step):
    from domain import registry

    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"arf{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    made = play(app, registry.get("high-card"), 3)
    before = answers(app, made)
    store = app.extensions["games"].store
    _killed_after(redis_url, prefix, url, made["id"], step)
    evicted = step == "evicted"
    assert (store.archived_version(made["id"]) > 0) is evicted
    assert (store.keys.events(made["id"]) in redis_keys(app, made["id"])) is not evicted
    assert store.archive.stats()[0] == 1  # in the archive from the first step on
    assert answers(_app(redis_url, url, prefix), made) == before  # read meanwhile: the same
    assert made["id"] in store.archive_due(2**50)  # still due: the next pass takes it
    done = _moves(Archiver(store, app.extensions["games"].games, after_s=0)())
    assert done == {"repaired" if evicted else "archived": 1}
    assert store.redis.hget(store.witness_key(), "last") == made["id"].encode()  # witnessed, repaired too
    assert store.archive.stats()[0] == 1 and store.archive_due(2**50) == []
    assert [k for k in redis_keys(app, made["id"]) if ":idem:" not in k and ":lease:" not in k] == [
        store.marker_key(made["id"])]
    assert answers(_app(redis_url, url, prefix), made) == before
    assert _moves(Archiver(store, app.extensions["games"].games, after_s=0)()) == {}  # nothing left to do


def _moves(done: dict) -> dict:
    return {k: n for k, n in done.items() if "idempotency" not in k}  # (the walk's, by the test Redis's keys)


def test_reads_answer_503_while_the_archive_is_unreadable_and_recover(redis_url, tmp_path):
    from domain import registry

    path = tmp_path / "archive.sqlite3"
    url, prefix = f"sqlite:///{path}", f"aru{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    made = play(app, registry.get("high-card"), 4)
    before = answers(app, made)
    store = app.extensions["games"].store
    Archiver(store, app.extensions["games"].games, after_s=0)()
    cold = _app(redis_url, url, prefix)
    os.rename(path, tmp_path / "away")
    os.mkdir(path)  # the file is away, and no new one can be made in its place
    r = cold.test_client().get(f"/games/{made['id']}")
    assert r.status_code == 503 and r.get_json()["code"] == "store_unavailable", r.get_json()
    assert cold.test_client().get(f"/games/{made['id']}/events?format=ndjson").status_code == 503
    os.rmdir(path)
    os.rename(tmp_path / "away", path)
    assert answers(cold, made) == before


def test_a_rematch_of_an_archived_game_is_refused_and_leaves_nothing_behind(redis_url, tmp_path):
    from domain import registry
    from tests.api.helpers import auth

    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"arr{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    made = play(app, registry.get("high-card"), 5)
    store, client = app.extensions["games"].store, app.test_client()
    before = answers(app, made)
    Archiver(store, app.extensions["games"].games, after_s=0)()
    waiting = client.get("/games?status=waiting").get_json()["games"]
    r = client.post(f"/games/{made['id']}/rematch", headers=auth(made["seat"]))
    body = r.get_json()
    assert (r.status_code, body["code"], body["version"]) == (409, "game_archived", made["version"]), body
    assert "archive" in body["detail"]
    assert client.get("/games?status=waiting").get_json()["games"] == waiting  # the new game withdrawn
    assert answers(_app(redis_url, url, prefix), made) == before


def test_postgresql_away_then_back_loses_nothing_and_reads_recover_by_themselves(redis_url, postgres_url):
    """PostgreSQL taken away (every connection to it broken, new ones refused: a relay of the
    test's own, the machine's server untouched) while a game waits to be archived, then while
    an archived game is read: the game stays in Redis and reads as before; reads of the
    archived game answer 503 store_unavailable; once it is back both recover with no restart."""
    from urllib.parse import urlsplit, urlunsplit

    from domain import registry
    from tests.archive.tcp_proxy import TcpProxy
    from tests.archive.test_archived_reads import _postgres_schema

    direct = urlsplit(_postgres_schema(postgres_url))
    proxy = TcpProxy((direct.hostname or "127.0.0.1", direct.port or 5432)).up()
    url = urlunsplit(direct._replace(netloc=f"{direct.username}@127.0.0.1:{proxy.port}"))
    prefix = f"arp{uuid.uuid4().hex[:6]}:"
    try:
        app = _app(redis_url, url, prefix)
        made = play(app, registry.get("high-card"), 6)
        before = answers(app, made)
        store, games = app.extensions["games"].store, app.extensions["games"].games
        proxy.down()
        with pytest.raises(Exception):  # noqa: B017 - whichever way the archive says it is away
            Archiver(store, games, after_s=0)()
        assert store.marker_key(made["id"]) not in redis_keys(app, made["id"])
        assert _game_reads(app, made) == _game_reads(app, made, before)  # still Redis's
        harvest = app.test_client().get("/games/ended?since=0")  # needs the archive's part
        assert harvest.status_code == 503 and harvest.get_json()["code"] == "store_unavailable"
        lines = app.test_client().get("/games/ended?since=0&format=ndjson")  # not a 200 broken off
        assert lines.status_code == 503 and lines.get_json()["code"] == "store_unavailable"
        proxy.up()
        store.redis.delete(store.keys.lease("archive", made["id"]))  # its LEASE_MS (60 s) passed
        assert Archiver(store, games, after_s=0)()["archived"] == 1
        cold = _app(redis_url, url, prefix)
        proxy.down()
        r = cold.test_client().get(f"/games/{made['id']}")
        assert r.status_code == 503 and r.get_json()["code"] == "store_unavailable", r.get_json()
        proxy.up()
        assert answers(cold, made) == before
    finally:
        proxy.down()


def _game_reads(app, made, found=None):
    """The game's own reads (view, pages, export, states) as `answers` gives them, from `found`
    or read now: those a server answers from Redis while the game waits to be archived."""
    if found is None:
        found = answers(app, made)
    return {k: v for k, v in found.items()
            if isinstance(k, tuple) and isinstance(k[1], str) and k[1].startswith("/games/")}
