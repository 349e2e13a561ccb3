"""Correspondence time (issue 36): days per move, abandonment that waits for a clocked seat's
deadline, vacations and a pause everyone agrees to. Time is driven as the other clock tests
drive it: the pollers (abandonment, clocks, vacations) are called with the moment they judge."""
from __future__ import annotations

import dataclasses
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest

import wiring
from api.platform import clocks
from api.platform import events as pe
from tests import fakes
from tests.api.helpers import auth, create, read, tokens
from tests.conftest import wait_for
from workers.abandon import abandon_idle
from workers.clocks import fire_due

DAY_MS = 24 * 3600 * 1000
WEEK_S = 7 * 24 * 3600


# ---- days per move ---------------------------------------------------------------------------

@pytest.mark.parametrize("clock, says", [
    ({"days_per_move": 15}, "between 1 and 14 days"),
    ({"days_per_move": 0}, "between 1 and 14 days"),
    ({"days_per_move": 2.5}, "whole number of days"),
    ({"days_per_move": True}, "whole number of days"),
    ({"days_per_move": 3, "per_move_s": 60}, "not both"),
    ({"days_per_move": 3, "increment_s": 5}, "goes with initial_s"),
])
def test_a_bad_days_per_move_is_refused_and_creates_nothing(client, app, clock, says):
    store = app.extensions["games"].store
    before = store.active_count()
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                    "clock": clock})
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["code"] == "invalid_clock" and says in r.get_json()["detail"]
    assert store.active_count() == before


def test_a_whole_float_of_days_is_that_many_days(client):
    """3.0 is an `integer` to JSON Schema, so a client's float of a whole number is accepted."""
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"days_per_move": 3.0})
    assert read(client, created["id"])["clock"]["days_per_move"] == 3


def test_days_per_move_gives_each_decision_that_many_days(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"days_per_move": 14})
    clock = read(client, created["id"])["clock"]
    assert clock["days_per_move"] == 14 and clock["on_timeout"] == "bot"
    for seat in clock["seats"]:
        assert 14 * DAY_MS - 60_000 < seat["remaining_ms"] <= 14 * DAY_MS


# ---- abandonment waits for the deadline ------------------------------------------------------

def _service():
    return fakes.service()


def test_a_14_day_game_is_not_abandoned_at_7():
    service = _service()
    slow = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5, clock={"days_per_move": 14})
    untimed = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5)
    created_at = service.store.last_event(slow["id"]).at
    due = clocks.next_deadline(service.load(slow["id"]).platform)
    assert due == created_at + 14 * DAY_MS
    # Eight days without a move: the untimed game is abandoned, the 14-day one is not.
    assert abandon_idle(service, WEEK_S, now_ms=created_at + 8 * DAY_MS) == 1
    assert service.load(untimed["id"]).status == "abandoned"
    assert service.load(slow["id"]).status == "active"
    # Nor at 13 days, nor at 20 (the deadline was at 14: its idleness counts from there) ...
    assert abandon_idle(service, WEEK_S, now_ms=created_at + 13 * DAY_MS) == 0
    assert abandon_idle(service, WEEK_S, now_ms=due + 6 * DAY_MS) == 0
    assert service.load(slow["id"]).status == "active"
    # ... but a week after the deadline with nothing done (no clock poll ran), it is.
    assert abandon_idle(service, WEEK_S, now_ms=due + 7 * DAY_MS + 1000) == 1
    assert service.load(slow["id"]).status == "abandoned"


# ---- a pause every seated person agrees to ---------------------------------------------------

def _pause(client, gid, token, verb="pause"):
    return client.post(f"/games/{gid}/{verb}", headers=auth(token))


def test_a_pause_needs_every_seated_person_and_one_resumes_it(client, app):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}],
                     clock={"days_per_move": 2})
    gid, t = created["id"], tokens(created)
    before = read(client, gid)["clock"]
    first = _pause(client, gid, t[0])
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["changed"] is True
    assert first.get_json()["pause"] == {"paused": False, "agreed": [0], "needed": [0, 1]}  # the bot needs no rest
    proposed = read(client, gid)
    assert proposed["clock"]["deadline"] == before["deadline"]  # proposed only: the clocks run
    assert proposed["pause"] == {"paused": False, "agreed": [0], "needed": [0, 1]}  # shown to everyone
    again = _pause(client, gid, t[0])
    # nothing appended for it (the version may have moved: the bot seat plays meanwhile)
    assert again.get_json()["changed"] is False and again.get_json()["version"] >= first.get_json()["version"]
    events = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    assert [e["data"]["seat"] for e in events if e["type"] == pe.PAUSE_AGREED] == [0]
    agreed = _pause(client, gid, t[1])
    assert agreed.get_json()["pause"]["paused"] is True
    paused = read(client, gid)["clock"]
    assert paused["deadline"] is None
    assert all(s["paused"] == ["agreed"] for s in paused["seats"] if s["remaining_ms"] is not None)
    resumed = _pause(client, gid, t[1], "resume")
    assert resumed.status_code == 200 and resumed.get_json()["pause"]["paused"] is False
    assert "pause" not in read(client, gid)
    after = read(client, gid)["clock"]
    assert after["deadline"] is not None and after["deadline"] >= before["deadline"]  # no time lost to the pause
    types = [e["type"] for e in client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]]
    # the pause's own events, in order (the bot's bid may fall between: the session's turn
    # workers play it whenever they reach its job)
    pausing = {pe.PAUSE_AGREED, pe.PAUSE_WITHDRAWN, pe.CLOCK_PAUSED, pe.CLOCK_RESUMED}
    assert [t for t in types if t in pausing][-4:] == [pe.PAUSE_AGREED, pe.PAUSE_AGREED, pe.CLOCK_PAUSED,
                                                        pe.CLOCK_RESUMED]
    nothing = _pause(client, gid, t[0], "resume")  # nothing paused, nothing proposed
    assert nothing.get_json()["changed"] is False
    # A proposal withdrawn drops the agreements so far.
    _pause(client, gid, t[0])
    withdrawn = _pause(client, gid, t[1], "resume")
    assert withdrawn.get_json()["pause"] == {"paused": False, "agreed": [], "needed": [0, 1]}
    assert client.post(f"/games/{gid}/pause").status_code == 401  # only a seated caller


def test_the_pause_events_are_told_in_the_callers_language(client):
    created = create(client, "splendor", [{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    _pause(client, gid, t[0]), _pause(client, gid, t[1]), _pause(client, gid, t[0], "resume")
    said = {e["type"]: e["text"] for e in client.get(f"/games/{gid}/events?limit=1000",
                                                     headers={"Accept-Language": "ko"}).get_json()["events"]}
    assert "일시 정지에 동의" in said[pe.PAUSE_AGREED] and "시계가 멈췄습니다" in said[pe.CLOCK_PAUSED]
    assert said[pe.CLOCK_RESUMED] == "Ann 님이 게임을 재개해 시계가 다시 갑니다."


def test_a_pause_stops_the_clocks_exactly_and_abandonment_waits():
    services = fakes.services()
    service, pauses = services.service, services.pauses
    created = service.create("high-card", [{"name": "Ann"}, {"name": "Bob"}], {}, 5, clock={"initial_s": 600})
    gid = created["id"]
    for seat in (0, 1):
        pauses.agree(gid, seat)
    game = service.load(gid)
    assert game.platform.agreed_pause and clocks.next_deadline(game.platform) is None
    stopped_at = service.store.last_event(gid).at
    # Paused for weeks: not abandoned, however long.
    assert abandon_idle(service, WEEK_S, now_ms=stopped_at + 30 * DAY_MS) == 0
    assert service.load(gid).status == "active"
    pauses.resume(gid, 0)
    resumed = service.load(gid)
    resumed_at = service.store.last_event(gid).at
    for seat in (0, 1):  # each bank as it was when the clocks stopped, counted from the resumption
        left = clocks.deadline(resumed.platform, seat) - resumed_at
        assert left == 600_000 - (stopped_at - service.store.read(gid)[1].at)
    # Replayed from the history, the same clocks.
    assert fakes.service(service.store).load(gid).platform == resumed.platform


def test_a_pause_is_refused_in_a_game_over_and_for_a_bot(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    r = _pause(client, gid, t[1])
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"


# ---- vacations -------------------------------------------------------------------------------

@pytest.fixture
def away(app):
    """The services over a prefix of this test's own (no session reconciler polls its clocks or
    vacations): the test drives the time."""
    settings = dataclasses.replace(app.extensions["settings"], key_prefix=f"vac{uuid.uuid4().hex[:8]}:")
    return wiring.bootstrap(settings, app.extensions["services"].connections)


def _today(offset_days=0):
    return (datetime.now(UTC).date() + timedelta(days=offset_days)).isoformat()


def _seated(services, *names, clock):
    people = [services.players.create(n)[0] for n in names]
    created = services.service.create("high-card", [{"name": p.name, "player": p.id} for p in people], {}, None,
                                      clock=clock)
    return people, created["id"]


def test_a_vacation_pauses_every_game_of_its_player_and_replays_identically(away):
    (ann, bob), slow = _seated(away, "Ann", "Bob", clock={"days_per_move": 3})
    carl = away.players.create("Carl")[0]
    quick = away.service.create("high-card", [{"name": "Ann", "player": ann.id}, {"name": "Carl", "player": carl.id}],
                                {}, None, clock={"per_move_s": 3600})["id"]
    before = {gid: clocks.deadline(away.service.load(gid).platform, 0) for gid in (slow, quick)}
    now = int(time.time() * 1000)
    vacation = away.vacations.plan(ann.id, _today(), _today(1), now)
    assert away.vacations.summary(ann.id, now)["left_days"] == 28
    tick = away.clock_tick.away
    assert tick.apply_due(now) == 2  # both of Ann's games
    assert tick.apply_due(now) == 0  # a second poll: nothing more
    for gid in (slow, quick):
        game = away.service.load(gid)
        assert game.seats[0]["paused"] == ("vacation",) and clocks.deadline(game.platform, 0) is None
        assert clocks.deadline(game.platform, 1) is not None  # Bob's and Carl's clocks run
        paused = [e for e in away.store.read(gid) if e.type == pe.CLOCK_PAUSED][0]
        assert paused.data == {"type": pe.CLOCK_PAUSED, "seats": [0], "reason": "vacation",
                               "since": vacation["start"], "player": ann.id}
    # Ten days on (her 3-day deadline long past), the clock poll times no one out and the
    # abandonment pass ends nothing: the clocks are stopped.
    assert fire_due(away.service, away.seat_control, now=now + 10 * DAY_MS, away=tick) == 2  # Bob and Carl
    assert abandon_idle(away.service, WEEK_S, now_ms=now + 10 * DAY_MS) == 0
    assert not away.service.load(slow).seats[0].get("takeover")
    time.sleep(0.05)
    assert tick.apply_due(vacation["end"]) == 2  # back: her clocks run again
    for gid in (slow, quick):
        stored = away.store.read(gid)
        paused = next(e for e in stored if e.type == pe.CLOCK_PAUSED)
        resumed = next(e for e in stored if e.type == pe.CLOCK_RESUMED)
        game = away.service.load(gid)
        # Exactly the time she had: the deadline moved on by the time her clock stood still.
        assert clocks.deadline(game.platform, 0) == before[gid] + (resumed.at - paused.data["since"])
        cold = fakes.service(away.store).load(gid)  # replayed from the history, no cache
        assert cold.platform == game.platform and cold.state == game.state
        state, platform = None, pe.START
        for e in stored:  # one event at a time, as the live stream folds them
            state, platform = pe.fold_stored(game.definition, [e], state, platform)
        assert platform == game.platform


def test_a_deadline_takes_a_day_of_vacation_when_the_player_allows_it(away):
    (ann, bob), gid = _seated(away, "Ann", "Bob", clock={"per_move_s": 60})
    away.vacations.set_auto(ann.id, True)
    due = clocks.deadline(away.service.load(gid).platform, 0)
    assert fire_due(away.service, away.seat_control, now=due + 1, away=away.clock_tick.away) == 0
    game = away.service.load(gid)
    assert game.seats[0]["paused"] == ("vacation",) and game.seats[1].get("paused") == ()
    paused = [e.data for e in away.store.read(gid) if e.type == pe.CLOCK_PAUSED]
    assert paused[0]["since"] == due  # from the deadline itself: no time lost to the poll
    summary = away.vacations.summary(ann.id, due + 1)
    assert summary["used_days"] == 1 and summary["vacations"][0]["auto"] is True
    # Bob did not allow it: his seat times out at his deadline as before.
    bob_due = clocks.deadline(game.platform, 1)
    assert fire_due(away.service, away.seat_control, now=bob_due + 1, away=away.clock_tick.away) == 1
    assert [e.data["seat"] for e in away.store.read(gid) if e.type == pe.TIMED_OUT] == [1]


def test_a_game_started_during_a_vacation_is_paused_at_its_deadline(away):
    ann, bob = away.players.create("Ann")[0], away.players.create("Bob")[0]
    now = int(time.time() * 1000)
    vacation = away.vacations.plan(ann.id, _today(), _today(1), now)  # (past midnight too)
    assert away.clock_tick.away.apply_due(now) == 0  # no game of hers yet
    gid = away.service.create("high-card", [{"name": "Ann", "player": ann.id}, {"name": "Bob", "player": bob.id}],
                              {}, None, clock={"per_move_s": 60})["id"]
    due = clocks.deadline(away.service.load(gid).platform, 0)
    assert fire_due(away.service, away.seat_control, now=due + 1, away=away.clock_tick.away) == 0
    game = away.service.load(gid)
    assert game.seats[0]["paused"] == ("vacation",) and not game.seats[0].get("takeover")
    assert away.clock_tick.away.apply_due(vacation["end"]) == 1  # her vacation's end resumes it too
    resumed = away.service.load(gid)
    assert clocks.deadline(resumed.platform, 0) == away.store.last_event(gid).at + 60_000  # all her minute, again


def _summary(client, key):
    r = client.get("/players/me/vacations", headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


@pytest.mark.parametrize("body, status, code, says", [
    ({"start": "tomorrow", "end": "2099-01-01"}, 400, "invalid_vacation", "YYYY-MM-DD"),
    ({"start": 20, "end": 21}, 400, "invalid_vacation", "is a date"),
    ("yesterday", 400, "invalid_vacation", "before today"),
    ("reversed", 400, "invalid_vacation", "before it starts"),
    ("far", 400, "invalid_vacation", "within 366 days"),
    ({"start": "2099-01-01"}, 400, "validation_error", ""),
    ("overlapping", 409, "vacation_overlaps", "overlaps"),
    ("too long", 409, "vacation_allowance_exceeded", "of your 30 left"),
])
def test_a_bad_vacation_is_refused_and_changes_nothing(client, body, status, code, says):
    from tests.lobby.helpers import player

    key = player(client, "Dora")["key"]
    planned = client.post("/players/me/vacations", json={"start": _today(2), "end": _today(6)}, headers=auth(key))
    assert planned.status_code == 201, planned.get_json()
    assert planned.get_json()["days"] == 5 and planned.get_json()["left"]["left_days"] == 25
    named = {"yesterday": {"start": _today(-1), "end": _today(1)},
             "reversed": {"start": _today(9), "end": _today(8)},
             "far": {"start": _today(400), "end": _today(401)},
             "overlapping": {"start": _today(6), "end": _today(8)},
             "too long": {"start": _today(10), "end": _today(70)}}  # 61 days: over 30 in one year at least
    body = named[body] if isinstance(body, str) else body
    before = _summary(client, key)
    r = client.post("/players/me/vacations", json=body, headers=auth(key))
    assert r.status_code == status and r.get_json()["code"] == code, r.get_json()
    assert says in r.get_json()["detail"]
    assert _summary(client, key) == before
    ko = client.post("/players/me/vacations", json=body,
                     headers={**auth(key), "Accept-Language": "ko"}).get_json()
    assert ko["code"] == code and (code == "validation_error" or "휴가" in ko["detail"])


def test_vacations_are_read_set_and_cancelled(client):
    from tests.lobby.helpers import player

    key = player(client, "Eve")["key"]
    assert client.get("/players/me/vacations").status_code == 401
    empty = _summary(client, key)
    assert (empty["allowance_days"], empty["left_days"], empty["auto"], empty["vacations"]) == (30, 30, False, [])
    assert empty["year"] == datetime.now(UTC).year
    r = client.post("/players/me/vacations", json={"start": _today(1), "end": _today(1)}, headers=auth(key))
    vacation = r.get_json()
    assert r.status_code == 201 and vacation["days"] == 1 and vacation["current"] is False
    assert client.patch("/players/me/vacations", json={"auto": True}, headers=auth(key)).get_json()["auto"] is True
    assert client.patch("/players/me/vacations", json={"auto": "yes"}, headers=auth(key)).status_code == 400
    assert client.delete(f"/players/me/vacations/{vacation['id']}", headers=auth(key)).status_code == 204
    assert client.delete(f"/players/me/vacations/{vacation['id']}", headers=auth(key)).get_json()["code"] == \
        "unknown_vacation"
    assert _summary(client, key)["left_days"] == 30


def test_the_reconciler_pauses_a_players_games_when_a_vacation_begins(client, workers):
    """End to end: planned over HTTP, applied by the real reconciler process (its clock tick)."""
    from tests.lobby.helpers import claim, open_game, player

    ann, bob = player(client, "Ann"), player(client, "Bob")
    games = []
    for clock in ({"days_per_move": 5}, {"per_move_s": 3600}):
        created = open_game(client, ann["key"], type_="high-card", clock=clock)
        assert claim(client, created["id"], 1, bob["key"]).status_code == 201
        games.append(created["id"])
    wait_for(lambda: len(client.get("/players/me/games", headers=auth(ann["key"])).get_json()["games"]) == 2)
    r = client.post("/players/me/vacations", json={"start": _today(), "end": _today(1)}, headers=auth(ann["key"]))
    assert r.status_code == 201 and r.get_json()["current"] is True, r.get_json()
    for gid in games:
        clock = wait_for(lambda: (c := read(client, gid)["clock"])["seats"][0].get("paused") and c)
        assert clock["seats"][0]["paused"] == ["vacation"] and clock["seats"][0]["deadline"] is None
        assert "paused" not in clock["seats"][1]
        history = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]  # the spec checks each
        paused = [e for e in history if e["type"] == pe.CLOCK_PAUSED]
        assert len(paused) == 1 and paused[0]["actor"] == "system" and paused[0]["data"]["player"] == ann["id"]


def test_two_plans_racing_for_the_last_days_take_them_once(app):
    """WATCH/MULTI on the player's record: of requests racing for an allowance that holds one of
    them, exactly one is planned, whichever process or thread sends it."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from api.players.vacations import AllowanceExceeded

    vacations = fakes.services(redis=app.extensions["services"].connections.store, key_prefix=f"race{uuid.uuid4().hex[:6]}:",
                               vacation_days_per_year=5).vacations
    year = datetime.now(UTC).year + 1  # next January: always within the 366 days ahead, one year
    windows = [(f"{year}-01-{d:02d}", f"{year}-01-{d + 2:02d}") for d in range(2, 26, 4)]  # 3 days each, apart
    start = Barrier(len(windows))
    now = int(time.time() * 1000)

    def plan(window):
        start.wait()
        try:
            return vacations.plan("racer", *window, now)
        except AllowanceExceeded:
            return None

    with ThreadPoolExecutor(len(windows)) as pool:
        planned = [v for v in pool.map(plan, windows) if v is not None]
    assert len(planned) == 1
    assert vacations.summary("racer", now)["next_year_left_days"] == 2
