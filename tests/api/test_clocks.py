"""Turn clocks (issue 21): a silent seat times out, a bot takes it over and the game ends by
itself; the person returns and plays again; a Fischer bank runs out once; Witches' passing with
an absent seat; the timeouts replay from the history. Real RQ workers and the reconciler (its
clock poll) enforce the deadlines; clocks of one or two seconds."""
from __future__ import annotations

import time
import uuid

import pytest
import redis

from api.errors import ApiError
from api.platform import clocks
from api.platform import events as pe
from events.memory_store import InMemoryEventStore
from events.redis_store import RedisEventStore
from tests import fakes
from tests.api.helpers import auth, create, move, read, tokens
from tests.conftest import Workers, wait_for
from workers.clocks import fire_due

PLATFORM = {pe.TIMED_OUT, pe.TAKEN_BY_BOT, pe.RETURNED, pe.RESIGNED, pe.ABORTED}


def history(client, gid, token=None):
    return client.get(f"/games/{gid}/events?limit=1000", headers=auth(token)).get_json()["events"]


def of_type(events, type_):
    return [e for e in events if e["type"] == type_]


# ---- the option ----------------------------------------------------------------------------

@pytest.mark.parametrize("clock, says", [
    ("fast", "is an object"),
    ({}, "either per_move_s"),
    ({"per_move_s": 10, "initial_s": 60}, "not both"),
    ({"per_move_s": 0}, "between 1 and"),
    ({"per_move_s": True}, "number of seconds"),
    ({"initial_s": 60, "increment_s": -1}, "between 0 and"),
    ({"per_move_s": 10, "increment_s": 2}, "goes with initial_s"),
    ({"per_move_s": 10, "on_timeout": "nap"}, "on_timeout"),
    ({"per_move_s": 10, "takeover_bot": "genius"}, "takeover_bot"),
    ({"per_move_s": 10, "tick": 1}, "no field tick"),
])
def test_a_bad_clock_is_refused_and_creates_nothing(client, app, clock, says):
    store = app.extensions["games"].store
    before = store.active_count()
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                    "clock": clock})
    assert r.status_code == 400, r.get_json()
    problem = r.get_json()
    assert problem["code"] == "invalid_clock" and says in problem["detail"]
    assert store.active_count() == before


def test_the_clock_is_stored_with_its_defaults_and_shown_to_everyone(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"initial_s": 600, "increment_s": 5})
    game = read(client, created["id"])  # a spectator sees the clocks too
    clock = game["clock"]
    assert clock["on_timeout"] == "bot" and clock["takeover_bot"] == "bold"  # the last (strongest) level
    assert [s["deadline"] is not None for s in clock["seats"]] == [True, True]  # both bid at once
    assert all(0 < s["remaining_ms"] <= 600_000 for s in clock["seats"])
    assert clock["deadline"] == min(s["deadline"] for s in clock["seats"])
    created_event = history(client, created["id"])[0]
    assert created_event["data"]["clock"] == {"initial_s": 600, "increment_s": 5, "on_timeout": "bot",
                                              "takeover_bot": "bold"}
    untimed = read(client, create(client)["id"])
    assert "clock" not in untimed


def test_a_move_after_its_deadline_loses_to_the_timeout():
    services = fakes.services(InMemoryEventStore())
    service = services.service
    created = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5, clock={"per_move_s": 1})
    game = service.load(created["id"])
    due = clocks.deadline(game.platform, 0)
    clocks.check_in_time(game, 0, due)  # at the deadline: still in time
    with pytest.raises(ApiError) as refused:
        clocks.check_in_time(game, 0, due + 1)
    assert refused.value.status == 409 and refused.value.code == "time_expired"
    # The timeout judged at that version wins; a poll that comes again finds nothing to do.
    control = services.seat_control
    assert fire_due(service, control, now=due + 1) == 2
    assert fire_due(service, control, now=due + 5000) == 0
    types = [e.type for e in service.store.read(created["id"])]
    assert types.count(pe.TIMED_OUT) == 2 and types.count(pe.TAKEN_BY_BOT) == 2


# ---- with the workers ------------------------------------------------------------------------

def test_a_silent_seat_is_taken_over_by_a_bot_and_the_game_ends(client, workers):
    created = create(client, seats=[{"name": "Silent"}, {"bot": "random"}], clock={"per_move_s": 1})
    gid = created["id"]
    final = wait_for(lambda: (g := read(client, gid))["status"] == "finished" and g, timeout=30)
    events = history(client, gid)
    timed = of_type(events, pe.TIMED_OUT)
    assert [e["data"]["seat"] for e in timed] == [0] and timed[0]["actor"] == "system"
    assert of_type(events, pe.TAKEN_BY_BOT)[0]["data"] == {"type": pe.TAKEN_BY_BOT, "seat": 0, "bot": "bold"}
    assert timed[0]["at"] >= timed[0]["data"]["deadline"]
    # The bot played seat 0's bids after the takeover, in its name.
    takeover = of_type(events, pe.TAKEN_BY_BOT)[0]["version"]
    assert [e for e in events if e["type"] == "bid" and e["actor"] == 0 and e["version"] > takeover]
    assert final["seats"][0]["played_by_bot"] == "bold" and final["seats"][0]["timed_out"] == 1
    assert final["clock"]["seats"][0]["remaining_ms"] is None and final["clock"]["deadline"] is None
    # Every decision that ended the game is in its history (how late a timeout fires: bench/clocks.py).
    assert {e["type"] for e in events} >= {pe.TIMED_OUT, pe.TAKEN_BY_BOT}


def test_the_person_returns_and_plays_again(client, workers):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"per_move_s": 2},
                     options={"rounds": 3})
    gid, t = created["id"], tokens(created)
    first = read(client, gid)
    assert move(client, gid, t[1], {"type": "bid", "chips": 0}, first["version"]).status_code == 201
    wait_for(lambda: read(client, gid)["seats"][0].get("played_by_bot"))
    for _ in range(20):  # (a bot's or the system's append may come between the read and the move)
        busy = move(client, gid, t[0], {"type": "bid", "chips": 1}, read(client, gid)["version"])
        if busy.get_json()["code"] != "version_conflict":
            break
    assert busy.status_code == 409 and busy.get_json()["code"] == "seat_played_by_bot"  # return first
    r = client.post(f"/games/{gid}/seats/0/return", headers=auth(t[0]))
    assert r.status_code == 200 and r.get_json()["changed"] is True, r.get_json()
    again = client.post(f"/games/{gid}/seats/0/return", headers=auth(t[0]))
    assert again.status_code == 200 and again.get_json()["changed"] is False
    assert client.post(f"/games/{gid}/seats/0/return", headers=auth(t[1])).status_code == 403
    # From now on seat 0's decisions are Ann's: she bids herself in the next round she owes.
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        g = read(client, gid, t[0])
        if g["status"] == "finished":
            break
        if 1 in g["to_act"]:
            move(client, gid, t[1], {"type": "bid", "chips": 0}, g["version"])
        elif 0 in g["to_act"]:
            r = move(client, gid, t[0], {"type": "bid", "chips": 1}, g["version"])
            assert r.status_code in (201, 409), r.get_json()
        time.sleep(0.02)
    events = history(client, gid)
    returned = of_type(events, pe.RETURNED)[0]["version"]
    assert [e for e in events if e["type"] == "bid" and e["actor"] == 0 and e["version"] > returned], \
        "Ann never bid after returning"
    assert len(of_type(events, pe.TIMED_OUT)) == 1
    assert len(of_type(events, pe.RETURNED)) == 1  # the second return appended nothing


def test_a_fischer_bank_runs_out_exactly_once(client, app, workers):
    created = create(client, seats=[{"name": "Slow"}, {"name": "Quick"}],
                     clock={"initial_s": 1, "increment_s": 1}, options={"rounds": 3})
    gid, t = created["id"], tokens(created)
    service, control = app.extensions["games"], app.extensions["seat_control"]
    give_up = time.monotonic() + 30
    while (g := read(client, gid, t[1]))["status"] != "finished" and time.monotonic() < give_up:
        fire_due(service, control)  # a second poller, racing the reconciler's: still once
        if 1 in g["to_act"]:
            assert move(client, gid, t[1], {"type": "bid", "chips": 0}, g["version"]).status_code in (201, 409)
        time.sleep(0.02)
    events = history(client, gid)
    assert [e["data"]["seat"] for e in of_type(events, pe.TIMED_OUT)] == [0]
    final = read(client, gid)
    assert final["seats"][0]["timed_out"] == 1 and "timed_out" not in final["seats"][1]
    game = service.load(gid)
    assert game.seats[0]["bank_ms"] == 0  # emptied by its timeout
    assert 0 < game.seats[1]["bank_ms"] <= 1000 + 3 * 1000  # spent little, earned an increment a bid


def test_witches_passing_with_one_absent_seat(client, workers):
    created = create(client, "witches", [{"name": "Absent"}, {"name": "Here"}, {"bot": "careful"}],
                     # 6 s a move: "Here" moves within it on a loaded host too (at 2 s its time expired at load 20)
                     options={"rounds": 1}, seed=21, clock={"per_move_s": 6})
    gid, t = created["id"], tokens(created)
    start = read(client, gid)
    clock = start["clock"]
    assert clock["seats"][0]["deadline"] and clock["seats"][1]["deadline"]  # one clock per seat owing
    mine = client.get(f"/games/{gid}/moves", headers=auth(t[1])).get_json()
    version = start["version"]
    for _ in range(20):  # the bot's pass may land between a read and the move (409): read again
        posted = move(client, gid, t[1], mine["moves"][0], version)
        if posted.status_code != 409:
            break
        version = read(client, gid)["version"]
    assert posted.status_code == 201, posted.get_json()
    after = read(client, gid)["clock"]
    assert after["seats"][1]["deadline"] is None and after["seats"][0]["deadline"] == clock["seats"][0]["deadline"]
    events = wait_for(lambda: (e := history(client, gid)) and of_type(e, "cards_exchanged") and e)
    exchanged = of_type(events, "cards_exchanged")[0]["version"]
    timed = [e for e in of_type(events, pe.TIMED_OUT) if e["version"] < exchanged]
    assert [e["data"]["seat"] for e in timed] == [0]
    passes = [e for e in of_type(events, "cards_passed") if e["version"] < exchanged]
    assert sorted(e["actor"] for e in passes) == [0, 1, 2]


@pytest.mark.process
def test_a_killed_reconciler_and_worker_still_time_the_seat_out_once(redis_url):
    prefix = f"clk{uuid.uuid4().hex[:6]}:"
    w = Workers(redis_url, prefix, f"{prefix}turns")
    connection = redis.Redis.from_url(redis_url)
    service = fakes.services(RedisEventStore(connection, prefix), redis=connection, key_prefix=prefix,
                             turn_queue=f"{prefix}turns").service
    try:
        worker, reconciler = w.start("worker"), w.start("reconciler")
        created = service.create("high-card", [{"name": "Silent"}, {"bot": "random"}], {"rounds": 1}, 3,
                                 clock={"per_move_s": 2})
        gid = created["id"]
        time.sleep(0.5)
        reconciler.kill()  # SIGKILL, with the deadline pending
        worker.kill()
        reconciler.wait(), worker.wait()
        assert not [e for e in service.store.read(gid) if e.type == pe.TIMED_OUT]
        time.sleep(2)  # the deadline passes with nobody to enforce it
        w.start("worker"), w.start("reconciler")
        wait_for(lambda: service.load(gid).finished, timeout=30)
        types = [e.type for e in service.store.read(gid)]
        assert types.count(pe.TIMED_OUT) == 1 and types.count(pe.TAKEN_BY_BOT) == 1
    finally:
        w.stop()


def test_timeouts_replay_identically_from_the_history(client, app, workers):
    created = create(client, seats=[{"name": "Silent"}, {"name": "Also silent"}, {"bot": "random"}],
                     clock={"initial_s": 1, "increment_s": 0.5})
    gid = created["id"]
    wait_for(lambda: read(client, gid)["status"] == "finished", timeout=30)
    live = app.extensions["games"].load(gid)
    cold = fakes.service(app.extensions["games"].store)  # no cache: a replay of the whole history
    replayed = cold.load(gid)
    assert replayed.platform == live.platform and replayed.state == live.state
    stored = cold.store.read(gid)
    # One event at a time (as the live stream folds them) gives the same end.
    state, platform = None, pe.START
    for e in stored:
        state, platform = pe.fold_stored(live.definition, [e], state, platform)
    assert platform == live.platform
    # Each timeout's deadline is the one the history before it gives: no wall clock involved.
    for e in stored:
        if e.type == pe.TIMED_OUT:
            before = cold.at_version(gid, e.version - 1)
            assert clocks.deadline(before.platform, e.data["seat"]) == e.data["deadline"] <= e.at
    assert {e.type for e in stored} >= {pe.TIMED_OUT, pe.TAKEN_BY_BOT}


# ---- resigning and aborting ----------------------------------------------------------------

def test_resigning_a_two_seat_game_ends_it_with_the_other_seat_winning(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    r = client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    assert r.status_code == 200, r.get_json()
    answer = r.get_json()
    assert answer["changed"] is True and answer["status"] == "finished"
    assert answer["result"] == {"outcome": "resigned", "winners": [1], "resigned": [0], "reason": "seat 0 resigned"}
    again = client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    assert again.status_code == 200 and again.get_json()["changed"] is False
    assert again.get_json()["version"] == answer["version"]  # nothing appended
    late = client.post(f"/games/{gid}/resign", headers=auth(t[1]))
    assert late.status_code == 409 and late.get_json()["code"] == "game_over"
    game = read(client, gid, t[1])
    assert game["seats"][0]["resigned"] is True and game["result"]["resigned"] == [0]
    assert of_type(history(client, gid), pe.RESIGNED)[0]["actor"] == 0
    assert move(client, gid, t[1], {"type": "bid", "chips": 0}, game["version"]).status_code == 422


def test_resigning_with_enough_seats_left_hands_the_seat_to_a_bot(client, workers):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], options={"rounds": 1})
    gid, t = created["id"], tokens(created)
    r = client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    assert r.status_code == 200 and r.get_json()["status"] == "active", r.get_json()
    final = wait_for(lambda: (g := read(client, gid))["status"] == "finished" and g, timeout=60)
    assert final["seats"][0]["played_by_bot"] == "bold" and final["seats"][0]["resigned"] is True
    assert of_type(history(client, gid), pe.RESIGNED)[0]["data"]["bot"] == "bold"
    returned = client.post(f"/games/{gid}/seats/0/return", headers=auth(t[0]))
    assert returned.status_code == 409 and returned.get_json()["code"] in ("seat_resigned", "game_over")


def test_seat_commands_need_the_seats_credentials(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    assert client.post(f"/games/{gid}/resign").status_code == 401
    assert client.post(f"/games/{gid}/abort").status_code == 401
    assert client.post(f"/games/{gid}/resign", headers=auth("nope")).status_code == 401
    # The table token names its seat; a seat's token cannot act as another.
    assert client.post(f"/games/{gid}/resign?seat=1", headers=auth(t[0])).status_code == 403
    r = client.post(f"/games/{gid}/resign", headers=auth(created["table_token"]))
    assert r.status_code == 400 and r.get_json()["code"] == "seat_required"
    r = client.post(f"/games/{gid}/seats/1/return", headers=auth(created["table_token"]))
    assert r.status_code == 200 and r.get_json()["changed"] is False
    assert client.post("/games/nosuchgame/resign", headers=auth(t[0])).status_code in (401, 404)


def test_abort_before_any_persons_move_after_abort_after_s(client, app, monkeypatch):
    monkeypatch.setattr(app.extensions["seat_control"], "abort_after_s", 0.5)
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    early = client.post(f"/games/{gid}/abort", headers=auth(t[1]))
    assert early.status_code == 409 and early.get_json()["code"] == "abort_not_allowed"
    time.sleep(0.6)
    r = client.post(f"/games/{gid}/abort", headers=auth(t[1]))
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["status"] == "aborted" and r.get_json()["result"]["outcome"] == "aborted"
    again = client.post(f"/games/{gid}/abort", headers=auth(t[0]))
    assert again.status_code == 200 and again.get_json()["changed"] is False
    game = read(client, gid)
    assert game["status"] == "aborted" and game["result"]["by"] == 1 and game["to_act"] == []
    assert move(client, gid, t[0], {"type": "bid", "chips": 0}, game["version"]).status_code == 422
    assert of_type(history(client, gid), pe.ABORTED)[0]["data"]["seat"] == 1
    # Once a person has moved, a game is resigned, not aborted.
    moved = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    mt = tokens(moved)
    assert move(client, moved["id"], mt[0], {"type": "bid", "chips": 0}, read(client, moved["id"])["version"]).status_code == 201
    time.sleep(0.6)
    r = client.post(f"/games/{moved['id']}/abort", headers=auth(mt[1]))
    assert r.status_code == 409 and "has moved" in r.get_json()["detail"]


def test_the_new_events_show_no_secret_and_reach_the_players_stream(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"per_move_s": 60})
    gid, t = created["id"], tokens(created)
    client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    for token in (None, t[0], t[1]):
        for e in history(client, gid, token):
            assert "token_sha256" not in e["data"]
    resigned = of_type(history(client, gid), pe.RESIGNED)[0]["data"]
    assert resigned == {"type": pe.RESIGNED, "seat": 0, "bot": None, "forfeit": False, "ends_game": True,
                        "reason": "seat 0 resigned"}


def test_a_live_event_carries_the_clock():
    from api.live.feeds import Feed

    service = fakes.service(InMemoryEventStore())
    created = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5, clock={"per_move_s": 30})
    game = service.load(created["id"])
    service.move(created["id"], 0, {"type": "bid", "chips": 1}, game.version)
    stored = service.store.read(created["id"])
    feed = Feed(service.at_version(created["id"], game.version))
    feed.extend(stored[game.version:])
    clock = feed.entries[-1].clock
    bid_at = stored[-1].at
    assert clock["seats"][0] == {"seat": 0, "remaining_ms": 30_000, "deadline": None}  # its next decision's time
    assert clock["seats"][1]["deadline"] == clocks.iso(clocks.deadline(service.load(created["id"]).platform, 1))
    assert clock["seats"][1]["remaining_ms"] == clocks.deadline(service.load(created["id"]).platform, 1) - bid_at


def test_players_resign_with_their_key_and_hear_the_game_finish(client, app):
    from tests.lobby.helpers import claim, open_game, player

    ann, bob = player(client, "Ann"), player(client, "Bob")
    created = open_game(client, ann["key"], type_="high-card", clock={"per_move_s": 60})
    gid = created["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    listed = wait_for(lambda: [g for g in client.get("/players/me/games", headers=auth(bob["key"])).get_json()["games"]
                               if g["id"] == gid])
    assert listed[0]["clock"]["per_move_s"] == 60 and listed[0]["clock"]["seats"][1]["deadline"]
    r = client.post(f"/games/{gid}/resign", headers=auth(bob["key"]))
    assert r.status_code == 200 and r.get_json()["seat"] == 1, r.get_json()
    assert r.get_json()["result"]["winners"] == [0]
    # The players' feed hears of it after the answer has left (api/games/deferred.py).
    wait_for(lambda: [g["id"] for g in client.get("/players/me/games?status=finished", headers=auth(ann["key"]))
                      .get_json()["games"]] == [gid], timeout=10)
    wait_for(lambda: [e for _, e in app.extensions["players"].inbox_after(ann["id"], "0")
                      if e["type"] == "game_finished" and e["game_id"] == gid], timeout=10)
    # A player seated nowhere in the game cannot resign it.
    carl = player(client, "Carl")
    assert client.post(f"/games/{gid}/resign", headers=auth(carl["key"])).status_code == 403


def test_forfeit_on_time_hands_the_seat_to_a_bot_or_ends_the_game():
    services = fakes.services(InMemoryEventStore())
    service, control = services.service, services.seat_control
    three = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}], {}, 5,
                           clock={"per_move_s": 1, "on_timeout": "forfeit"})
    two = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5,
                         clock={"per_move_s": 1, "on_timeout": "forfeit"})
    for created in (three, two):
        game = service.load(created["id"])
        service.move(created["id"], 1, {"type": "bid", "chips": 0}, game.version)  # Bob is in time
    # The later of the two deadlines: the games are created a moment apart (more than a
    # millisecond on a loaded machine, when the first game's deadline alone left the second unfired).
    due = max(clocks.deadline(service.load(g["id"]).platform, 0) for g in (three, two))
    assert fire_due(service, control, now=due + 1) == 2  # seat 0 of each game, once
    left = [e.data for e in service.store.read(three["id"]) if e.type == pe.RESIGNED]
    assert left == [{"type": pe.RESIGNED, "seat": 0, "bot": "bold", "forfeit": True, "ends_game": False,
                     "reason": "seat 0's time ran out"}]
    assert service.load(three["id"]).status == "active" and service.load(three["id"]).bot_level(0) == "bold"
    ended = service.load(two["id"])
    assert ended.status == "finished" and ended.result["winners"] == [1] and ended.result["resigned"] == [0]


def test_a_lost_deadline_mark_is_re_armed(redis_client):
    from workers.clocks import rearm

    prefix = f"rearm{uuid.uuid4().hex[:6]}:"
    services = fakes.services(RedisEventStore(redis_client, prefix))
    service = services.service
    created = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5, clock={"per_move_s": 1})
    due = clocks.deadline(service.load(created["id"]).platform, 0)
    redis_client.delete(f"{prefix}games:clocks")  # as if lost (a Redis restored from an older file)
    control = services.seat_control
    assert fire_due(service, control, now=due + 1) == 0  # nothing marked: nothing fires
    assert rearm(service) == 1
    assert rearm(service) == 1  # again: the same mark, not a second one
    assert redis_client.zcard(f"{prefix}games:clocks") == 1
    assert fire_due(service, control, now=due + 1) == 2
    assert [e.data["seat"] for e in service.store.read(created["id"]) if e.type == pe.TIMED_OUT] == [0, 1]


@pytest.mark.process
def test_a_pending_deadline_survives_a_redis_crash_and_restart(tmp_path):
    from tests.robustness.servers import RedisServer

    server = RedisServer(tmp_path / "redis").start()
    try:
        service = fakes.service(RedisEventStore(server.client(), "crash:"))
        created = service.create("high-card", [{"name": "Ann"}, {"bot": "random"}], {}, 5, clock={"per_move_s": 1})
        due = clocks.deadline(service.load(created["id"]).platform, 0)
        server.kill()  # SIGKILL with the deadline pending
        server.start()  # from its append-only file
        after = fakes.services(RedisEventStore(server.client(), "crash:"))  # a fresh process's view
        assert fire_due(after.service, after.seat_control, now=due + 1) == 1
        assert [e.type for e in after.service.store.read(created["id"])][-2:] == [pe.TIMED_OUT, pe.TAKEN_BY_BOT]
    finally:
        server.stop()
