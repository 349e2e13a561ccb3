"""Issue 49 (remainder a): an analysed game's analysis leaves Redis with the game. The archiver
moves a done analysis into the archive with the game (read back, then its Redis key deleted);
an analysis asked for or computed after the game was archived goes there once done; a read
answers the same bytes before and after."""
from __future__ import annotations

import uuid

from domain import registry
from tests.api.helpers import auth
from tests.archive.test_archived_reads import _app, play


def _analysed_app(redis_url, tmp_path):
    return _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", f"ana{uuid.uuid4().hex[:6]}:",
                ANALYSIS_ITERATIONS=4, ARCHIVE_AFTER_S=0)


def _answers(app, gid) -> list[bytes]:
    client = app.test_client()
    found = [client.get(f"/games/{gid}/analysis"), client.get(f"/games/{gid}/analysis?lang=ko")]
    assert all(r.status_code == 200 for r in found), [r.get_json() for r in found]
    return [r.get_data() for r in found]


def _archive(app) -> None:
    app.extensions["services"].rate_ended_games()  # counted first (the archiver waits for it)
    done = app.extensions["services"].archiver()  # the reconciler's sweep, as the root builds it
    assert done.get("archived"), done


def test_an_analysis_goes_to_the_archive_with_its_game_and_reads_the_same(redis_url, tmp_path):
    app = _analysed_app(redis_url, tmp_path)
    services, redis = app.extensions["services"], app.extensions["services"].connections.store
    made = play(app, registry.get("high-card"), 3)
    gid, analyses = made["id"], services.analyses
    assert app.test_client().post(f"/games/{gid}/analysis", headers=auth(made["key"])).status_code == 202
    assert analyses.compute(gid) == "done"
    before = _answers(app, gid)
    assert b'"status":"done"' in before[0].replace(b" ", b"")
    _archive(app)
    assert services.store.archived_version(gid) > 0
    assert not redis.exists(analyses.key(gid))  # the archive's now
    assert services.store.archive.analysis(gid) is not None
    assert _answers(app, gid) == before
    again = _app(redis_url, f"sqlite:///{tmp_path}/archive.sqlite3", services.settings.key_prefix)  # another process
    assert _answers(again, gid) == before
    r = again.test_client().post(f"/games/{gid}/analysis", headers=auth(made["key"]))  # asked again: what there is
    assert r.status_code == 200 and not redis.exists(analyses.key(gid))


def test_an_analysis_asked_for_or_done_after_the_archiving_goes_to_the_archive(redis_url, tmp_path):
    app = _analysed_app(redis_url, tmp_path)
    services, redis = app.extensions["services"], app.extensions["services"].connections.store
    analyses, client = services.analyses, app.test_client()
    pending = play(app, registry.get("high-card"), 4)  # asked before, computed after the archiving
    assert client.post(f"/games/{pending['id']}/analysis", headers=auth(pending["key"])).status_code == 202
    late = play(app, registry.get("high-card"), 5)  # asked after
    _archive(app)
    assert redis.exists(analyses.key(pending["id"]))  # pending: its job files it once done
    assert client.post(f"/games/{late['id']}/analysis", headers=auth(late["key"])).status_code == 202
    for made in (pending, late):
        assert analyses.compute(made["id"]) == "done"
        assert not redis.exists(analyses.key(made["id"]))
        assert services.store.archive.analysis(made["id"]) is not None
        assert client.get(f"/games/{made['id']}/analysis").get_json()["status"] == "done"
        assert analyses.compute(made["id"]) == "already"  # read from the archive: not computed again


def test_a_done_analysis_left_in_redis_by_a_dead_job_is_filed_by_the_next(redis_url, tmp_path):
    """The job wrote the analysis, then died before filing it (the game archived meanwhile): its
    next run (a read queues it again) files it rather than answering `already` and leaving it."""
    app = _analysed_app(redis_url, tmp_path)
    services, redis = app.extensions["services"], app.extensions["services"].connections.store
    analyses = services.analyses
    made = play(app, registry.get("high-card"), 6)
    assert app.test_client().post(f"/games/{made['id']}/analysis", headers=auth(made["key"])).status_code == 202
    filed, analyses.file = analyses.file, lambda game_id: False  # the job dies before it files
    try:
        _archive(app)
        assert analyses.compute(made["id"]) == "done"
    finally:
        analyses.file = filed
    before = _answers(app, made["id"])
    assert redis.exists(analyses.key(made["id"]))
    assert analyses.compute(made["id"]) == "already"
    assert not redis.exists(analyses.key(made["id"])) and _answers(app, made["id"]) == before
