"""Correspondence time (issue 36): days per move, abandonment that waits for a clocked seat's
deadline, vacations and a pause everyone agrees to. Time is driven as the other clock tests
drive it: the pollers (abandonment, clocks, vacations) are called with the moment they judge."""
from __future__ import annotations

import pytest

from api.games.service import GameService
from api.platform import clocks
from events.memory_store import InMemoryEventStore
from tests.api.helpers import create, read
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
