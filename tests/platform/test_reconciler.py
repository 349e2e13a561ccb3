"""The reconciler's passes: it re-enqueues what a worker owes, it looks only at games that may
owe work (marked by the append that made them owe it) and, of those, only at games that have
stopped moving; and it ends games idle for ABANDON_AFTER (tests/robustness has it repairing
real crashes with real RQ workers)."""
from __future__ import annotations

import time

from events.memory_store import InMemoryEventStore
from tests import fakes
from tests.platform.high_card import GAME  # noqa: F401 - registers high-card
from workers.abandon import abandon_idle
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
    service = fakes.service(InMemoryEventStore(), scheduler)
    loads = []
    real = service.load
    service.load = lambda game_id: loads.append(game_id) or real(game_id)
    return service, scheduler, loads


def _bid(service, game_id, seat):
    game = service.games.load(game_id)
    service.move(game_id, seat, {"type": "bid", "chips": 1}, game.version)


def test_only_games_that_owe_a_worker_are_judged_and_their_turns_enqueued():
    service, scheduler, loads = _service()
    people = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 1)["id"]
    bots = service.create("high-card", [{"bot": "random"}, {"bot": "random"}], {}, 2)["id"]
    assert [g for g, _ in service.store.owing_games()] == [bots]
    assert reconcile_once(service, scheduler) == 2  # both bots' bids were owed
    assert loads == [bots]  # the game waiting for people costs nothing
    assert {(g, a) for g, _, a in scheduler.ensured} == {(bots, 0), (bots, 1)}
    assert people in service.store.active_games()


def test_a_move_that_makes_a_game_owe_a_worker_marks_it_and_a_settled_game_leaves():
    service, scheduler, loads = _service()
    mixed = service.create("high-card", [{"name": "a"}, {"bot": "random"}], {}, 3)["id"]
    # High Card: everyone bids at once; the bot's bid is owed from the start
    assert [g for g, _ in service.store.owing_games()] == [mixed]
    game = service.load(mixed)
    service.move(mixed, 1, game.definition.legal_moves(game.state, 1)[0], game.version)  # the bot's turn, played
    assert service.automatic_actors(service.load(mixed)) == []
    reconcile_once(service, scheduler)
    assert service.store.owing_games() == []  # judged at its version: it owes nothing, it leaves
    _bid(service, mixed, 0)  # the person's bid: the system scores the round next
    assert [g for g, _ in service.store.owing_games()] == [mixed]
    assert reconcile_once(service, scheduler) == 1 and scheduler.ensured[-1][2] == "system"


def test_a_settle_judged_at_an_older_version_does_not_unmark_a_newer_mark():
    store = InMemoryEventStore()
    from events.store import NewEvent

    store.create("g", {"type": "high-card"}, {}, [NewEvent("game_created", {}, None)], owing=True)
    store.append("g", 1, [NewEvent("x", {}, 0)], owing=True)  # marked at version 2
    store.settle("g", 1)  # a judgement made at version 1 (it owed nothing then)
    assert store.owing_games() == [("g", 2)]
    store.settle("g", 2)
    assert store.owing_games() == []


def test_a_watch_leaves_moving_games_alone():
    service, scheduler, loads = _service()
    owing = service.create("high-card", [{"bot": "random"}, {"name": "b"}], {}, 2)["id"]
    moving = service.create("high-card", [{"bot": "random"}, {"name": "b"}], {}, 3)["id"]
    watch = Watch()
    assert reconcile_once(service, scheduler, watch) == 0 and loads == []  # first sight: noted only
    _bid(service, moving, 1)
    assert reconcile_once(service, scheduler, watch) == 1  # the lost bot turn of the stopped game
    assert loads == [owing]  # the game that moved was not loaded
    loads.clear()
    reconcile_once(service, scheduler, watch)
    assert sorted(loads) == sorted([owing, moving])  # `moving` stopped: judged now


def test_games_idle_for_abandon_after_are_ended_by_the_system_and_replay_so():
    service, scheduler, loads = _service()
    idle = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 4)["id"]
    played = service.create("high-card", [{"name": "a"}, {"name": "b"}], {}, 5)["id"]
    assert abandon_idle(service, 3600) == 0  # nobody idle for an hour
    time.sleep(0.4)
    _bid(service, played, 0)
    store = service.store
    assert abandon_idle(service, 0.3) == 1  # idle 0.4 s: ended; `played` moved just now: kept
    assert store._idle[played] > store.last_event(played).at - 1  # due again 0.3 s after its move
    game = service.load(idle)
    assert game.finished and game.status == "abandoned" and game.actors() == []
    assert game.result["outcome"] == "abandoned" and game.result["idle_seconds"] >= 0
    assert idle not in store.active_games() and played in store.active_games()
    last = store.last_event(idle)
    assert (last.type, last.actor) == ("game_abandoned", "system")
    # it replays from the history: a fresh service (no cache) sees the same
    fresh = fakes.service(store, scheduler)
    assert fresh.load(idle).status == "abandoned"
    # its chance still checks out from the revealed seed (the platform's event is not chance)
    from tools.verify import verify

    history = [{"version": e.version, "type": e.type, "actor": e.actor, "data": e.data} for e in store.read(idle)]
    assert verify(history).confirmed
    assert fresh.describe(fresh.load(idle), 0)["fairness"]["seed"] == 4  # over: the seed is revealed
    # no move on an abandoned game
    from api.errors import IllegalMove

    try:
        _bid(fresh, idle, 0)
    except IllegalMove as e:
        assert e.code == "game_over"
    else:
        raise AssertionError("a move was accepted on an abandoned game")
