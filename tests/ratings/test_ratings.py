"""Ratings per game type: who finished where (standings), OpenSkill's own numbers, counted once
per game whatever races, rebuilt from zero to the same numbers, fed by the real reconciler, read
as leaderboards and profiles."""
from __future__ import annotations

import threading
import uuid

import pytest
import redis
from openskill.models import PlackettLuce

from api.platform.events import ABANDONED, abandoned_event
from api.ratings.ledger import Ledger, displayed
from api.ratings.standings import standings
from events.store import NewEvent
from tests.api.helpers import auth
from tests.conftest import running_workers, wait_for
from tests.lobby.helpers import claim, listed, open_game, player


def _entry(type_, who, result, status="finished"):
    seats = [{"seat": i, "bot": w[4:], "name": w[4:]} if w.startswith("bot:")
             else {"seat": i, "name": w, "bot": None, **({"player": w[7:]} if w.startswith("player:") else {})}
             for i, w in enumerate(who)]
    return {"id": uuid.uuid4().hex[:12], "type": type_, "status": status, "seats": seats, "result": result,
            "last_move_at": 1}


# ---- standings ------------------------------------------------------------------------------

def _ranks(entry):
    return [(side.seats, side.rank) for side in standings(entry)]


def test_winners_first_then_by_score_in_the_game_s_direction_ties_shared():
    who = ["player:a", "player:b", "player:c", "player:d"]
    splendor = _entry("splendor", who, {"winners": [2], "scores": [9, 12, 15, 12]})
    assert _ranks(splendor) == [((2,), 0), ((1,), 1), ((3,), 1), ((0,), 3)]
    witches = _entry("witches", who, {"winners": [1], "scores": [40, 3, 25, 60]})  # lowest is best
    assert _ranks(witches) == [((1,), 0), ((2,), 1), ((0,), 2), ((3,), 3)]
    shared = _entry("splendor", who[:2], {"winners": [0, 1], "scores": [15, 15]})
    assert _ranks(shared) == [((0,), 0), ((1,), 0)]


def test_teams_are_ranked_as_teams_and_resigned_seats_last():
    who = ["player:a", "player:b", "player:c", "player:d"]
    setup = _entry("setup", who, {"winners": [1, 3], "scores": [5, 9, 4, 7], "teams": [[0, 2], [1, 3]]})
    assert _ranks(setup) == [((1, 3), 0), ((0, 2), 1)]
    sw = _entry("smallworld", who, {"winners": [0, 1], "scores": [50, 40, 45, 30], "teams": [
        {"faction": "alliance", "seats": [0, 1], "score": 40}, {"faction": "horde", "seats": [2, 3], "score": 30}]})
    assert _ranks(sw) == [((0, 1), 0), ((2, 3), 1)]
    resigned = _entry("splendor", who[:3], {"outcome": "resigned", "winners": [1, 2], "resigned": [0]})
    assert _ranks(resigned) == [((1,), 0), ((2,), 0), ((0,), 2)]


def test_unrated_games_anonymous_seats_abandoned_and_aborted():
    assert standings(_entry("splendor", ["player:a", "Ann"], {"winners": [0], "scores": [15, 3]})) is None
    assert standings(_entry("splendor", ["player:a", "player:b"], {"outcome": "abandoned", "winners": []},
                            status="abandoned")) is None
    assert standings(_entry("splendor", ["player:a", "player:b"], {"outcome": "aborted", "winners": []})) is None
    bots = standings(_entry("splendor", ["bot:random", "player:a"], {"winners": [1], "scores": [2, 15]}))
    assert [side.identities for side in bots] == [("player:a",), ("bot:random",)]


# ---- the ledger against openskill's own numbers ----------------------------------------------

@pytest.fixture
def ledger(redis_url):
    connection = redis.Redis.from_url(redis_url)
    yield Ledger(connection, f"rt{uuid.uuid4().hex[:6]}:")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_game_moves_ratings_as_openskill_computes_them(ledger, n):
    model = PlackettLuce()
    who = [f"player:p{i}" for i in range(n)]
    scores = [10 + i for i in range(n)]
    scores[-1] = scores[-2]  # the two best tie on points: the winner (the rules' tie-break) first
    entries = [_entry("splendor", who, {"winners": [n - 1], "scores": scores}),
               _entry("splendor", who, {"winners": [0], "scores": [15] + [1] * (n - 1)})]
    changed = ledger._rate(ledger.redis, entries)
    expected = [model.rating() for _ in who]
    for ranks in ([n - 1 - i for i in range(n)], [0] + [1] * (n - 1)):
        rated = model.rate([[r] for r in expected], ranks=ranks)
        expected = [team[0] for team in rated]
    for w, want in zip(who, expected):
        got = changed["table"][("splendor", w)]
        assert (got.mu, got.sigma, got.games) == pytest.approx((want.mu, want.sigma, 2))


def test_teams_and_an_identity_sitting_twice(ledger):
    model = PlackettLuce()
    entry = _entry("setup", ["player:a", "player:b", "player:c", "player:d"],
                   {"winners": [1, 3], "scores": [5, 9, 4, 7], "teams": [[0, 2], [1, 3]]})
    table = ledger._rate(ledger.redis, [entry])["table"]
    (a, c), (b, d) = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 0])
    assert table[("setup", "player:b")].mu == pytest.approx(b.mu)
    assert table[("setup", "player:a")].mu == pytest.approx(a.mu)
    twice = _entry("splendor", ["bot:random", "bot:random", "player:z"], {"winners": [2], "scores": [1, 2, 15]})
    changed = ledger._rate(ledger.redis, [twice])
    (z,), (second,), (third,) = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[0, 1, 2])
    bot = changed["table"][("splendor", "bot:random")]  # two seats of one level: the mean of their updates
    assert (bot.mu, bot.sigma, bot.games, bot.wins) == pytest.approx(
        ((second.mu + third.mu) / 2, (second.sigma + third.sigma) / 2, 1, 0))
    assert changed["table"][("splendor", "player:z")].mu == pytest.approx(z.mu)
    assert [c["identity"] for c in changed["games"][twice["id"]]] == ["bot:random", "bot:random", "player:z"]


# ---- real games, the reconciler, the API -------------------------------------------------------

@pytest.fixture(scope="module")
def prefix():
    return f"rating{uuid.uuid4().hex[:6]}:"


@pytest.fixture(scope="module")
def app(redis_url, prefix):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def decide_once_each(client, gid, keys):
    """Each seat (its key, in seat order: Splendor's turn order) makes one decision: a real game."""
    for key in keys:
        moves = client.get(f"/games/{gid}/moves", headers=auth(key)).get_json()
        sent = client.post(f"/games/{gid}/moves", headers=auth(key),
                           json={"expected_version": moves["version"], "move": moves["moves"][0]})
        assert sent.status_code == 201, sent.get_json()


def _play_and_resign(app, client, winner, loser) -> str:
    """A game between two players, one decision each, that the loser resigns: finished, rated."""
    gid = open_game(client, winner["key"])["id"]
    token = claim(client, gid, 1, loser["key"]).get_json()["token"]
    decide_once_each(client, gid, [winner["key"], token])
    assert client.post(f"/games/{gid}/resign", headers=auth(token)).status_code == 200
    store = app.extensions["games"].store
    wait_for(lambda: store.finished_log_marks([gid])[0])
    return gid


def _all_keys(connection, ledger):
    return {k: (connection.type(k), connection.dump(k)) for k in connection.scan_iter(match=f"{ledger.base}:*")}


def test_rated_games_rate_once_rebuild_equals_incremental_and_the_api_shows_them(app, client, redis_url, prefix):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    ledger = app.extensions["ratings"].ledger
    games = [_play_and_resign(app, client, ann, bob), _play_and_resign(app, client, ann, cy),
             _play_and_resign(app, client, cy, bob)]
    # Two processes catching up at once: each game counted once.
    from api.players.feed import RatedNotices

    rivals = [Ledger(redis.Redis.from_url(redis_url), prefix, RatedNotices(app.extensions["players"]))
              for _ in range(4)]
    threads = [threading.Thread(target=r.catch_up, args=(app.extensions["games"].store,)) for r in rivals]
    [t.start() for t in threads]
    [t.join() for t in threads]
    ledger.catch_up(app.extensions["games"].store)
    ratings = {p["id"]: ledger.rating("splendor", f"player:{p['id']}") for p in (ann, bob, cy)}
    assert [ratings[p["id"]].games for p in (ann, bob, cy)] == [2, 2, 2]
    assert [ratings[p["id"]].wins for p in (ann, bob, cy)] == [2, 0, 1]
    # openskill's own numbers, game by game
    model = PlackettLuce()
    r = {name: model.rating() for name in "abc"}
    for w, lost in (("a", "b"), ("a", "c"), ("c", "b")):
        (r[w],), (r[lost],) = model.rate([[r[w]], [r[lost]]], ranks=[0, 1])
    for name, p in zip("abc", (ann, bob, cy)):
        assert (ratings[p["id"]].mu, ratings[p["id"]].sigma) == pytest.approx((r[name].mu, r[name].sigma))
    # rebuilt from zero: the same bytes
    connection = redis.Redis.from_url(redis_url)
    before = _all_keys(connection, ledger)
    assert ledger.forget_everything() == len(before)
    ledger.catch_up(app.extensions["games"].store, tell=False)
    assert _all_keys(connection, ledger) == before
    # the leaderboard and the profile
    board = client.get("/leaderboards/splendor?provisional=include").get_json()
    assert [e["player"]["name"] for e in board["players"]] == ["Ann", "Cy", "Bob"]
    assert [e["rank"] for e in board["players"]] == [1, 2, 3]
    assert board["players"][0]["rating"] == displayed(r["a"].mu, r["a"].sigma) and board["players"][0]["provisional"]
    assert client.get("/leaderboards/splendor").get_json()["players"] == []  # all provisional yet
    mine = client.get("/leaderboards/splendor?provisional=include&around=me&limit=1", headers=auth(bob["key"]))
    assert [e["player"]["name"] for e in mine.get_json()["players"]] == ["Bob"]
    profile = client.get(f"/players/{cy['id']}").get_json()
    assert profile["name"] == "Cy" and profile["ratings"]["splendor"]["games"] == 2
    assert [p["game"] for p in profile["ratings"]["splendor"]["history"]] == games[1:]
    assert ledger.game_changes(games[0])[0]["before"] == 1500
    changes = client.get(f"/games/{games[0]}/ratings").get_json()["seats"]
    assert [(c["seat"], c["identity"], c["rank"]) for c in changes] == [
        (0, f"player:{ann['id']}", 0), (1, f"player:{bob['id']}", 1)]
    assert changes[0]["after"] > 1500 > changes[1]["after"] or changes[0]["after"] > changes[1]["after"]
    # each player was told, once (by whichever process counted the game; not again by the rebuild)
    told = [e for _, e in app.extensions["players"].inbox_after(bob["id"], "0-0") if e["type"] == "rated"]
    assert [e["game_id"] for e in told] == [games[0], games[2]]
    assert told[0]["before"] == 1500 and told[0]["after"] == changes[1]["after"]
    # the running season (issue 52): the same games, from an empty start, so here the same table
    season = client.get("/seasons/splendor/current/leaderboard").get_json()
    assert season["status"] == "running" and season["season"] == client.get("/seasons/splendor").get_json()["current"]
    assert [(e["player"]["name"], e["rating"], e["games"]) for e in season["players"]] == \
        [(e["player"]["name"], e["rating"], e["games"]) for e in board["players"]]
    assert client.get(f"/seasons/splendor/{season['season']}/leaderboard?limit=1").get_json()["next"] == \
        f"/seasons/splendor/{season['season']}/leaderboard?offset=1&limit=1&provisional=include"
    listed = client.get("/seasons/splendor").get_json()["seasons"]
    assert (listed[0]["season"], listed[0]["status"], listed[0]["rated"]) == (season["season"], "running", 3)
    results = client.get(f"/players/{cy['id']}").get_json()["seasons"]["splendor"]
    assert [(s["season"], s["rank"], s["games"], s["wins"]) for s in results] == [(season["season"], 2, 2, 1)]
    for path, code in (("/seasons/splendor/2026-13/leaderboard", "unknown_season"),
                       ("/seasons/splendor/9999-12/leaderboard", "season_not_started"),
                       ("/seasons/chess/current/leaderboard", "unknown_game_type"), ("/seasons/chess", "unknown_game_type")):
        for lang in ("en", "ko"):
            r = client.get(path, headers={"Accept-Language": lang})
            assert (r.status_code, r.get_json()["code"]) == (404, code), path
            if code != "unknown_game_type":
                assert ("시즌" if lang == "ko" else "season") in r.get_json()["detail"], (path, lang)


def test_unknown_boards_and_players_are_404(client):
    r = client.get("/leaderboards/chess")
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_game_type")
    r = client.get("/players/pnobody")
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_player")
    r = client.get("/leaderboards/splendor?around=me")
    assert r.status_code == 401
    r = client.get("/leaderboards/splendor?limit=0")
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")


@pytest.mark.process
def test_the_reconciler_rates_ended_games(app, client, redis_url, prefix):
    dee, eve = player(client, "Dee"), player(client, "Eve")
    _play_and_resign(app, client, dee, eve)
    ledger = Ledger(redis.Redis.from_url(redis_url), prefix)
    with running_workers(redis_url, prefix, modes=("reconciler",)):
        wait_for(lambda: ledger.rating("splendor", f"player:{dee['id']}") is not None, timeout=30)
    assert ledger.rating("splendor", f"player:{dee['id']}").wins == 1


@pytest.mark.process
def test_the_rebuild_command_counts_every_game_again(app, client, redis_url, prefix):
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    fay, gus = player(client, "Fay"), player(client, "Gus")
    _play_and_resign(app, client, fay, gus)
    ledger = app.extensions["ratings"].ledger
    ledger.catch_up(app.extensions["games"].store)
    before = ledger.rating("splendor", f"player:{fay['id']}")
    for name in ("Alt1", "Alt2"):  # throwaway accounts resigning at move 0: not rated, nor by the rebuild
        farmed = open_game(client, fay["key"])["id"]
        token = claim(client, farmed, 1, player(client, name)["key"]).get_json()["token"]
        assert client.post(f"/games/{farmed}/resign", headers=auth(token)).status_code == 200
        wait_for(lambda: app.extensions["games"].store.finished_log_marks([farmed])[0])
    ledger.catch_up(app.extensions["games"].store)
    assert ledger.rating("splendor", f"player:{fay['id']}") == before
    env = {**os.environ, "REDIS_URL": redis_url, "KEY_PREFIX": prefix, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tools.ratings", "rebuild"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "ended games" in done.stdout
    assert ledger.rating("splendor", f"player:{fay['id']}") == before


def test_a_game_resigned_before_every_seat_decided_is_unrated_and_says_why(app, client):
    """Only real games are rated (issue 50): the ratings' answer and the game's view say why not;
    GET /game-types names each type's threshold."""
    jo, kim = player(client, "Jo"), player(client, "Kim")
    gid = open_game(client, jo["key"])["id"]
    token = claim(client, gid, 1, kim["key"]).get_json()["token"]
    assert client.get(f"/games/{gid}/ratings").get_json() == {"id": gid, "seats": None, "unrated_reason": None}
    decide_once_each(client, gid, [jo["key"]])  # Jo moved; Kim resigns before her first decision
    assert client.post(f"/games/{gid}/resign", headers=auth(token)).status_code == 200
    store = app.extensions["games"].store
    wait_for(lambda: store.finished_log_marks([gid])[0])
    app.extensions["ratings"].ledger.catch_up(store)
    assert client.get(f"/games/{gid}/ratings").get_json() == {"id": gid, "seats": None, "unrated_reason": "too_short"}
    assert client.get(f"/games/{gid}").get_json()["unrated_reason"] == "too_short"
    assert app.extensions["ratings"].ledger.rating("splendor", f"player:{jo['id']}") is None
    ended = next(g for g in listed(client, "/games/ended?limit=100") if g["id"] == gid)
    assert ended["decisions"] == [1, 0] and ended["rated_after"] == {"decisions_per_seat": 1}
    types = client.get("/game-types").get_json()["game_types"]
    assert {t["type"]: t["rated_after"] for t in types}["splendor"] == {"decisions_per_seat": 1}


def test_a_casual_game_is_never_rated_nor_its_rematch(app, client):
    hal, ivy = player(client, "Hal"), player(client, "Ivy")
    gid = open_game(client, hal["key"], rated=False)["id"]
    token = claim(client, gid, 1, ivy["key"]).get_json()["token"]
    assert client.post(f"/games/{gid}/resign", headers=auth(token)).status_code == 200
    store = app.extensions["games"].store
    wait_for(lambda: store.finished_log_marks([gid])[0])
    ledger = app.extensions["ratings"].ledger
    ledger.catch_up(store)
    assert ledger.rating("splendor", f"player:{hal['id']}") is None
    assert next(g for g in listed(client, "/games/ended?limit=100") if g["id"] == gid)["rated"] is False
    assert client.get(f"/games/{gid}/ratings").get_json()["unrated_reason"] == "casual"
    rematch = client.post(f"/games/{gid}/rematch", headers=auth(hal["key"]))
    assert rematch.status_code in (200, 201), rematch.get_json()
    again = app.extensions["games"].load(rematch.get_json()["id"])
    assert again.platform.rated is False


def test_a_players_public_finished_games_are_listed_newest_first(app, client):
    """GET /players/{id}/games: the games a profile shows, paged; a private game and one still
    played are not shown to others."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    first, second = _play_and_resign(app, client, ann, bob), _play_and_resign(app, client, bob, ann)
    playing = open_game(client, ann["key"])["id"]
    hidden = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"name": "B"}],
                                         "private": True}, headers=auth(ann["key"])).get_json()["id"]
    service = app.extensions["games"]
    service.finish(service.append_platform(service.load(hidden), [NewEvent(ABANDONED, abandoned_event(1), None)]))
    listed = client.get(f"/players/{ann['id']}/games?limit=1").get_json()
    assert [g["id"] for g in listed["games"]] == [second] and listed["games"][0]["you"] == 1
    assert listed["games"][0]["result"]["winners"] == [0]
    rest = client.get(listed["next"]).get_json()
    assert [g["id"] for g in rest["games"]] == [first] and rest["games"][0]["you"] == 0
    everything = client.get(f"/players/{ann['id']}/games?limit=100").get_json()["games"]
    assert playing not in [g["id"] for g in everything] and hidden not in [g["id"] for g in everything]
    r = client.get("/players/pnobody/games")
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_player")


def test_a_rated_games_view_shows_its_ratings_once_counted_with_an_etag_of_its_own(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = _play_and_resign(app, client, ann, bob)
    before = client.get(f"/games/{gid}")
    assert "ratings" not in before.get_json()  # not counted yet
    app.extensions["ratings"].ledger.catch_up(app.extensions["games"].store)
    again = client.get(f"/games/{gid}", headers={"If-None-Match": before.headers["ETag"]})
    assert again.status_code == 200, "the view from before its counting is not current"
    changes = again.get_json()["ratings"]
    assert changes == client.get(f"/games/{gid}/ratings").get_json()["seats"]
    assert [c["seat"] for c in changes] == [0, 1] and changes[0]["after"] > changes[0]["before"]
    assert again.headers["ETag"] != before.headers["ETag"]
    assert client.get(f"/games/{gid}", headers={"If-None-Match": again.headers["ETag"]}).status_code == 304
    # an active game's view is answered 304 as before
    playing = open_game(client, ann["key"])["id"]
    first = client.get(f"/games/{playing}")
    assert client.get(f"/games/{playing}", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
