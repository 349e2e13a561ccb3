"""The reconciler's passes: it re-enqueues what a worker owes, and it looks only at games that
have stopped moving (tests/robustness has it repairing real crashes with real RQ workers)."""
from __future__ import annotations

from api.service import GameService
from events.memory_store import InMemoryEventStore
from tests.platform.high_card import GAME  # noqa: F401 - registers high-card
from workers.reconciler import Watch, reconcile_once


class RecordingScheduler:
    """The scheduler port, recording what is asked of it (the real one is RQ's, tested apart)."""

    def __init__(self):
        self.ensured = []

    def __call__(self, game_id, version, actors):
        pass  # the enqueue after an append is "lost": only the reconciler may repair it

    def ensure(self, game_id, version, actor, repair=False):
        self.ensured.append((game_id, version, actor))
        return True


def _service():
    scheduler = RecordingScheduler()
    service = GameService(InMemoryEventStore(), scheduler)
    loads = []
    real = service.load
    service.load = lambda game_id: loads.append(game_id) or real(game_id)
    return service, scheduler, loads


def _bid(service, game_id, seat):
    game = service.games.load(game_id)
    service.move(game_id, seat, {"type": "bid", "chips": 1}, game.version)


def test_without_a_watch_every_game_is_judged_and_owed_turns_are_enqueued():
    service, scheduler, loads = _service()
    people = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 1)["id"]
    bots = service.create("high-card", [{"bot": "random"}, {"bot": "random"}], {}, 2)["id"]
    assert reconcile_once(service, scheduler) == 2  # both bots' bids were owed
    assert sorted(loads) == sorted([people, bots])
    assert {(g, a) for g, _, a in scheduler.ensured} == {(bots, 0), (bots, 1)}


def test_a_watch_judges_games_that_stopped_moving_and_leaves_moving_ones_alone():
    service, scheduler, loads = _service()
    waiting = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 1)["id"]
    owing = service.create("high-card", [{"bot": "random"}, {"name": "b"}], {}, 2)["id"]
    moving = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 3)["id"]
    watch = Watch()
    assert reconcile_once(service, scheduler, watch) == 0 and loads == []  # first sight: noted only
    _bid(service, moving, 0)
    assert reconcile_once(service, scheduler, watch) == 1  # the bot's lost turn
    assert sorted(loads) == sorted([waiting, owing])  # the game that moved was not loaded
    assert [(g, a) for g, _, a in scheduler.ensured] == [(owing, 0)]
    loads.clear()
    reconcile_once(service, scheduler, watch)
    assert sorted(loads) == sorted([owing, moving])  # `moving` stopped; `waiting` was judged already
    loads.clear()
    _bid(service, waiting, 0)
    reconcile_once(service, scheduler, watch)
    assert loads == [owing]  # it owes a turn: judged every pass; the others are alive or owe nothing
    loads.clear()
    reconcile_once(service, scheduler, watch)
    assert sorted(loads) == sorted([waiting, owing])  # `waiting` stopped at its new version
