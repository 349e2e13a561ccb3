"""Issue 49, items 14 and 8: an archive that cannot be read or written (its SQLite file gone
with nothing to be made in its place, its PostgreSQL stopped) fails the reconciler's sweeps
that need it (the archiver's, and the ratings', which read the harvest) and no other part of a
pass, nor its heartbeat: the node stays ready, `/health/ready` naming the archive degraded.
And an archive that answers without the games Redis knows archived (an empty one, a container
made again without its volume) fails readiness."""
from __future__ import annotations

import os
import uuid

import pytest
from rq import Worker

from domain import registry
from tests.archive.test_archived_reads import _app, play
from workers import heartbeat
from workers.archiver import Archiver
from workers.reconciler import Watch, _pass


def _alive(app) -> None:
    """A turn worker's heartbeat (no worker runs in this tier): readiness then hangs on the rest."""
    scheduler = app.extensions["services"].turn_scheduler()
    worker = Worker([scheduler.queue], connection=scheduler.connection, name=f"w{uuid.uuid4().hex[:8]}")
    worker.register_birth()
    worker.heartbeat()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.process)])
def outage(request, tmp_path):
    """(archive URL, take it away, give it back)."""
    if request.param == "sqlite":
        path = tmp_path / "archive.sqlite3"

        def away():  # the file gone, nothing can be made in its place: unreadable and unwritable
            os.rename(path, tmp_path / "away")
            os.mkdir(path)

        def back():
            os.rmdir(path)
            os.rename(tmp_path / "away", path)
        yield f"sqlite:///{path}", away, back
        return
    from urllib.parse import urlsplit, urlunsplit

    from tests.archive.tcp_proxy import TcpProxy
    from tests.archive.test_archived_reads import _postgres_schema

    direct = urlsplit(_postgres_schema(request.getfixturevalue("postgres_url")))
    proxy = TcpProxy((direct.hostname or "127.0.0.1", direct.port or 5432)).up()
    try:
        yield urlunsplit(direct._replace(netloc=f"{direct.username}@127.0.0.1:{proxy.port}")), proxy.down, proxy.up
    finally:
        proxy.down()


def test_an_archive_outage_fails_its_sweeps_only_and_the_node_stays_ready(redis_url, outage):
    url, away, back = outage
    prefix = f"aro{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    services = app.extensions["services"]
    archived = play(app, registry.get("high-card"), 3)
    Archiver(services.store, services.service.games, after_s=0)()  # one archived (a witness)
    due = play(app, registry.get("high-card"), 4)  # one ended since, due to be archived and rated
    _alive(app)
    away()
    ran: list[str] = []

    def later_sweep() -> None:
        ran.append("later")
    later_sweep.__name__ = "later"
    scheduler = services.turn_scheduler()
    sweeps = (services.rate_ended_games, Archiver(services.store, services.service.games, after_s=0), later_sweep)
    failed = _pass(services.service, scheduler, Watch(), None, sweeps, 2.0, {"migrated": True})
    assert ran == ["later"]  # the sweeps after the failing ones ran
    assert set(failed) == {"rate_ended_games", "archive"} and all("archive" in why for why in failed.values())
    assert scheduler.connection.exists(heartbeat.reconciler_key(prefix))  # and the heartbeat was written
    r = app.test_client().get("/health/ready")
    assert r.status_code == 200, r.get_json()
    checks = r.get_json()["checks"]
    assert checks["archive"].startswith("degraded") and checks["reconciler"].startswith("degraded")
    assert "archive" in checks["reconciler"] and (checks["redis"], checks["workers"]) == ("ok", "ok")
    live = app.test_client().get(f"/games/{due['id']}")  # a game Redis holds is served
    assert live.status_code == 200
    assert app.test_client().get(f"/games/{archived['id']}/events?format=ndjson").status_code in (200, 503)
    back()
    services.store.redis.delete(services.store.keys.lease("archive", due["id"]))  # its LEASE_MS (60 s) passed
    assert _pass(services.service, scheduler, Watch(), None, sweeps, 2.0, {"migrated": True}) == {}
    assert not scheduler.connection.exists(heartbeat.degraded_key(prefix))
    assert services.store.archived_version(due["id"]) > 0  # archived once the archive is back


def test_ready_fails_when_redis_knows_archived_games_the_archive_does_not_have(redis_url, tmp_path):
    prefix = f"arw{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    services = app.extensions["services"]
    made = [play(app, registry.get("high-card"), seed) for seed in (5, 6)]
    Archiver(services.store, services.service.games, after_s=0)()
    _alive(app)
    scheduler = services.turn_scheduler()
    heartbeat.beat_reconciler(scheduler.connection, prefix, 2.0)
    r = app.test_client().get("/health/ready")
    assert r.status_code == 200 and r.get_json()["checks"]["archive"] == "ok", r.get_json()
    # The server's container made again without its volume: the same Redis, an empty archive.
    again = _app(redis_url, f"sqlite:///{tmp_path}/empty/archive.sqlite3", prefix)
    r = again.test_client().get("/health/ready")
    assert r.status_code == 503 and r.get_json()["code"] == "not_ready", r.get_json()
    found = r.get_json()["details"]["checks"]["archive"]
    assert found.startswith("missing") and made[0]["id"] in found, found
    assert "archive" in r.get_json()["detail"]


def test_games_archived_before_the_witnesses_were_kept_are_witnessed_too(redis_url, tmp_path):
    """Games archived by a server from before the witnesses (Redis has their markers, no
    witness): the archiver's first sweep in a process notes one of them (and tools.archive
    does), so an empty archive in place of theirs fails readiness before any game is archived
    again."""
    prefix = f"arb{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    services = app.extensions["services"]
    made = play(app, registry.get("high-card"), 5)
    Archiver(services.store, services.service.games, after_s=0)()
    services.store.redis.delete(services.store.witness_key())  # archived before the witnesses were kept
    again = _app(redis_url, f"sqlite:///{tmp_path}/empty/archive.sqlite3", prefix)  # its volume lost
    store = again.extensions["services"].store
    assert store.archive_state() == "ok"  # blind: no witness
    Archiver(store, again.extensions["services"].service.games, after_s=0)()  # its first sweep: nothing due
    found = store.archive_state()
    assert found.startswith("missing") and made["id"] in found, found
    store.redis.delete(store.witness_key())
    assert store.backfill_witness() == made["id"]  # what tools.archive calls, once the same
    assert store.backfill_witness() is None  # a witness kept already: nothing scanned


def test_an_archived_games_export_during_an_outage_is_503_before_its_first_byte(redis_url, outage):
    """Item 15: the NDJSON export of an archived game this process has met (its meta kept: the
    route reads nothing of the archive) read the archive first inside the streamed body, past
    the error handlers: a 500, or a 200 broken off. It is a 503 store_unavailable now."""
    url, away, back = outage
    app = _app(redis_url, url, f"are{uuid.uuid4().hex[:6]}:")
    services = app.extensions["services"]
    made = play(app, registry.get("high-card"), 7)
    Archiver(services.store, services.service.games, after_s=0)()
    client, path = app.test_client(), f"/games/{made['id']}/events?format=ndjson"
    before = client.get(path).get_data()
    assert before.count(b"\n") == made["version"]
    services.store._archived.clear()  # its record passed out of the process's cache (ARCHIVED_CACHE)
    away()
    r = client.get(path)
    assert r.status_code == 503 and r.headers["Retry-After"], r.get_data()[:300]
    assert r.get_json()["code"] == "store_unavailable"
    back()
    r = client.get(path)
    assert r.status_code == 200 and r.get_data() == before


def test_a_full_archive_fails_the_archivers_sweep_only_and_the_node_stays_ready(redis_url, tmp_path, monkeypatch):
    """The SQLite archive on a full filesystem: every connection the archive opens can grow the
    file no more (SQLITE_FULL on a write, as a full disk answers; reads go on). The archiver's
    sweep fails, the ratings' (which only read) does not, and the node is ready, saying so."""
    from events.archive_sqlite import SqliteArchive

    prefix = f"arf{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", prefix)
    services = app.extensions["services"]
    archived = play(app, registry.get("high-card"), 8)
    Archiver(services.store, services.service.games, after_s=0)()
    due = play(app, registry.get("splendor"), 9)  # a record of several pages
    _alive(app)
    opened = SqliteArchive._connect

    def full(self):
        connection = opened(self)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        return connection
    monkeypatch.setattr(SqliteArchive, "_connect", full)
    services.store.archive.close()  # its next connection is one of the full disk's
    scheduler = services.turn_scheduler()
    sweeps = (services.rate_ended_games, Archiver(services.store, services.service.games, after_s=0))
    failed = _pass(services.service, scheduler, Watch(), None, sweeps, 2.0, {"migrated": True})
    assert list(failed) == ["archive"] and "full" in failed["archive"], failed
    r = app.test_client().get("/health/ready")
    assert r.status_code == 200 and r.get_json()["checks"]["archive"] == "ok", r.get_json()
    assert r.get_json()["checks"]["reconciler"].startswith("degraded: sweeps failing (archive:")
    assert app.test_client().get(f"/games/{archived['id']}").status_code == 200  # read from the archive
    assert app.test_client().get(f"/games/{due['id']}").status_code == 200  # still Redis's
    assert services.store.archived_version(due["id"]) == 0


def test_the_probe_looks_at_the_archive_at_most_every_five_seconds_and_says_degraded():
    from events.archive import ArchiveUnavailable

    now, calls, answers = [0.0], [], ["ok", ArchiveUnavailable("connection refused")]

    def state() -> str:
        calls.append(now[0])
        found = answers[min(len(calls), len(answers)) - 1]
        if isinstance(found, Exception):
            raise found
        return found
    check = heartbeat.ArchiveCheck(state, every_s=5, clock=lambda: now[0])
    assert [check(), check()] == ["ok", "ok"] and calls == [0.0]
    now[0] = 5.0
    said = check()
    assert said.startswith("degraded: the archive cannot be read (connection refused)") and calls == [0.0, 5.0]
    now[0] = 9.9
    assert check() == said and len(calls) == 2
