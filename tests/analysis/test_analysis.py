"""Game analysis through the API and the real workers (issue 34): a player of a finished game
asks, the analysis workers (their own queue) compute it once, anyone reads it, it survives the
archive; bad requests are refused with their codes and change nothing."""
from __future__ import annotations

import pytest

from api.analysis.analyses import DONE
from domain import analysis
from tests.analysis.helpers import GAMES, analysed, person_game
from tests.api.helpers import auth, create, tokens
from tests.conftest import running_workers
from tests.lobby.helpers import player
from workers.archiver import archive_game

ITERATIONS = 8  # per decision: enough to search, a game analysed in seconds


@pytest.fixture(scope="module")
def analysts(redis_url, session_prefix, workers):
    """One analysis worker on the session's analysis queue, beside the session's turn workers."""
    with running_workers(redis_url, session_prefix, modes=("analysis",),
                         env={"ANALYSIS_ITERATIONS": str(ITERATIONS)}) as w:
        yield w


@pytest.mark.parametrize("type_", list(GAMES))
def test_a_finished_game_of_every_type_is_analysed_once_by_the_workers(client, app, analysts, type_):
    gid, ann, decided = person_game(client, type_)
    assert decided, "the person made no decision"
    r = client.post(f"/games/{gid}/analysis", headers=auth(ann["key"]))
    assert r.status_code in (200, 202), r.get_json()
    if r.status_code == 202:
        assert int(r.headers["Retry-After"]) >= 1 and r.get_json()["status"] == "pending"
    done = analysed(client, gid)
    assert done["status"] == DONE and done["level"] == "expert" and done["iterations"] == ITERATIONS
    # One entry per decision of the person, none of the bots' (nor the resignation).
    assert [d["version"] for d in done["decisions"]] == decided
    service = app.extensions["games"]
    for d in done["decisions"]:
        assert d["seat"] == 0
        assert 0 <= d["chance_before"] <= 1 and 0 <= d["chance_after"] <= 1
        assert d["drop"] == pytest.approx(d["chance_before"] - d["chance_after"], abs=1e-3)
        then = service.at_version(gid, d["version"])
        assert d["suggested"] in then.definition.legal_moves(then.state, 0), "not a move the seat had"
        assert isinstance(d["suggested_label"], str) and d["suggested_label"]
    marked = [d["version"] for d in done["decisions"] if d["marked"]]
    assert marked == done["marked"] and len(marked) <= analysis.MARKS
    assert all(d["drop"] >= analysis.MARK_DROP and not d["played_suggested"] for d in done["decisions"] if d["marked"])
    # Asked again: the same analysis, not computed again.
    again = client.post(f"/games/{gid}/analysis", headers=auth(ann["key"]))
    assert again.status_code == 200 and again.get_json()["computed_at"] == done["computed_at"]


def test_spectators_and_players_read_the_same_analysis_in_their_language(client, analysts):
    gid, ann, _ = person_game(client, "splendor", seed=11)
    client.post(f"/games/{gid}/analysis", headers=auth(ann["key"]))
    done = analysed(client, gid)
    as_player = client.get(f"/games/{gid}/analysis", headers=auth(ann["key"])).get_json()
    assert as_player == done
    korean = client.get(f"/games/{gid}/analysis?lang=ko").get_json()
    assert [d["suggested_label"] for d in korean["decisions"]] != [d["suggested_label"] for d in done["decisions"]]
    strip = lambda a: [{k: v for k, v in d.items() if k != "suggested_label"} for d in a["decisions"]]
    assert strip(korean) == strip(done)


def test_the_analysis_stays_with_the_game_once_it_is_archived(client, app, analysts):
    gid, ann, _ = person_game(client, "setup", seed=5)
    client.post(f"/games/{gid}/analysis", headers=auth(ann["key"]))
    done = analysed(client, gid)
    services = app.extensions["services"]
    assert archive_game(services.store, services.service.games, gid, analyses=services.analyses) == "archived"
    assert services.store.archived_version(gid) > 0  # its history is the archive's now, and its analysis
    assert not services.connections.store.exists(services.analyses.key(gid))
    services.service.games.forget(gid)
    r = client.get(f"/games/{gid}/analysis")
    assert r.status_code == 200 and r.get_json() == done


def test_bad_requests_are_refused_with_their_codes_and_change_nothing(client, app, analysts):
    redis, analyses = app.extensions["services"].connections.store, app.extensions["analyses"]
    r = client.get("/games/nosuchgame0000000000/analysis")
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_game")
    # A game still played: neither read nor asked for.
    gid, ann, _ = person_game(client, "splendor", seed=3, decisions=1, finish=False)
    for r in (client.get(f"/games/{gid}/analysis"), client.post(f"/games/{gid}/analysis", headers=auth(ann["key"]))):
        assert (r.status_code, r.get_json()["code"]) == (409, "game_not_finished")
    client.post(f"/games/{gid}/resign", headers=auth(ann["key"]))
    # Finished, asked by nobody yet.
    r = client.get(f"/games/{gid}/analysis")
    assert (r.status_code, r.get_json()) == (200, {"id": gid, "status": "none"})
    # Without a player's key, with a seat's token, by a player who did not play it.
    assert client.post(f"/games/{gid}/analysis").get_json()["code"] == "token_required"
    seat_token = tokens(create(client, "splendor", [{"name": "Cy"}, {"bot": "random"}]))[0]
    assert client.post(f"/games/{gid}/analysis", headers=auth(seat_token)).status_code == 401
    bob = player(client, "Bob")
    r = client.post(f"/games/{gid}/analysis", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "seat_not_yours")
    assert redis.get(analyses.key(gid)) is None, "a refused request left something behind"


def test_a_player_asks_for_a_few_analyses_a_day(client, analysts, redis_url, session_prefix):
    from app import create_app

    stingy = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": session_prefix, "TURN_QUEUE": f"{session_prefix}turns",
                         "ANALYSIS_QUEUE": f"{session_prefix}analysis", "ANALYSIS_PER_DAY": 1, "TESTING": True,
                         "RATE_LIMIT": 1_000_000, "ALLOW_CLIENT_SEEDS": True})
    from tests.api.spec import SpecCheckingClient

    limited = SpecCheckingClient(stingy, stingy.response_class)
    first, ann, _ = person_game(limited, "splendor", seed=21, decisions=1)
    second = limited.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]},
                          headers=auth(ann["key"])).get_json()["id"]
    limited.post(f"/games/{second}/resign", headers=auth(ann["key"]))
    assert limited.post(f"/games/{first}/analysis", headers=auth(ann["key"])).status_code in (200, 202)
    r = limited.post(f"/games/{second}/analysis", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (429, "analysis_limit_reached")
    assert 1 <= int(r.headers["Retry-After"]) <= 86400 and r.get_json()["details"]["limit"] == 1
    assert limited.get(f"/games/{second}/analysis").get_json()["status"] == "none"
    # The first one asked again counts nothing and answers as before.
    assert limited.post(f"/games/{first}/analysis", headers=auth(ann["key"])).status_code in (200, 202)


def test_a_request_whose_job_was_lost_is_answered_in_the_end(client, app, analysts):
    """Its worker died with the job (or it failed): the request stays pending, and a read a
    while later queues it again."""
    import json

    gid, _, _ = person_game(client, "splendor", seed=31, decisions=1)
    analyses = app.extensions["analyses"]
    redis = app.extensions["services"].connections.store
    lost = {"id": gid, "status": "pending", "requested_at": 0}  # long ago, and no job anywhere
    redis.set(analyses.key(gid), json.dumps(lost))
    assert client.get(f"/games/{gid}/analysis").status_code == 202
    assert analysed(client, gid)["status"] == DONE


def test_under_a_retention_the_analysis_expires_with_its_game(client, analysts, redis_url, session_prefix):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    kept = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": session_prefix, "TURN_QUEUE": f"{session_prefix}turns",
                       "ANALYSIS_QUEUE": f"{session_prefix}analysis", "ARCHIVE_RETENTION_S": 86400, "TESTING": True,
                       "RATE_LIMIT": 1_000_000, "ALLOW_CLIENT_SEEDS": True})
    limited = SpecCheckingClient(kept, kept.response_class)
    gid, ann, _ = person_game(limited, "splendor", seed=41, decisions=1)
    assert limited.post(f"/games/{gid}/analysis", headers=auth(ann["key"])).status_code == 202
    redis, key = kept.extensions["services"].connections.store, kept.extensions["analyses"].key(gid)
    assert 86000 < redis.ttl(key) <= 86400  # the pending request: a day from the game's end
    analysed(limited, gid)
    assert 86000 < redis.ttl(key) <= 86400  # the analysis keeps the request's
