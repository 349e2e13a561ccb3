"""Correspondence time (issue 36): days per move, abandonment that waits for a clocked seat's
deadline, vacations and a pause everyone agrees to. Time is driven as the other clock tests
drive it: the pollers (abandonment, clocks, vacations) are called with the moment they judge."""
from __future__ import annotations

import pytest

from api.games.service import GameService
from api.platform import clocks
from api.platform import events as pe
from api.seating.pauses import Pauses
from events.memory_store import InMemoryEventStore
from tests.api.helpers import auth, create, read, tokens
from workers.abandon import abandon_idle

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


def test_days_per_move_gives_each_decision_that_many_days(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], clock={"days_per_move": 14})
    clock = read(client, created["id"])["clock"]
    assert clock["days_per_move"] == 14 and clock["on_timeout"] == "bot"
    for seat in clock["seats"]:
        assert 14 * DAY_MS - 60_000 < seat["remaining_ms"] <= 14 * DAY_MS


# ---- abandonment waits for the deadline ------------------------------------------------------

def _service():
    return GameService(InMemoryEventStore())


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
    assert read(client, gid)["clock"]["deadline"] == before["deadline"]  # proposed only: the clocks run
    again = _pause(client, gid, t[0])
    assert again.get_json()["changed"] is False and again.get_json()["version"] == first.get_json()["version"]
    agreed = _pause(client, gid, t[1])
    assert agreed.get_json()["pause"]["paused"] is True
    paused = read(client, gid)["clock"]
    assert paused["deadline"] is None
    assert all(s["paused"] == ["agreed"] for s in paused["seats"] if s["remaining_ms"] is not None)
    resumed = _pause(client, gid, t[1], "resume")
    assert resumed.status_code == 200 and resumed.get_json()["pause"]["paused"] is False
    after = read(client, gid)["clock"]
    assert after["deadline"] is not None and after["deadline"] >= before["deadline"]  # no time lost to the pause
    types = [e["type"] for e in client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]]
    assert types[-4:] == [pe.PAUSE_AGREED, pe.PAUSE_AGREED, pe.CLOCK_PAUSED, pe.CLOCK_RESUMED]
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
    service = _service()
    pauses = Pauses(service)
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
    assert GameService(service.store).load(gid).platform == resumed.platform


def test_a_pause_is_refused_in_a_game_over_and_for_a_bot(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    gid, t = created["id"], tokens(created)
    client.post(f"/games/{gid}/resign", headers=auth(t[0]))
    r = _pause(client, gid, t[1])
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"
