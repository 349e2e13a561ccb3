"""api/games/appending.py: load, decide, append at the loaded version; a lost race is judged
again on the reloaded game, ATTEMPTS times at most, then 409 version_conflict."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from api.errors import VersionConflict
from api.games import appending
from events.store import Conflict


class Service:
    """Loads a game whose version grows by one per load; its append loses `losses` races."""

    def __init__(self, losses: int):
        self.losses, self.loads, self.appended = losses, 0, []
        self.store = SimpleNamespace(version=lambda game_id: 99)

    def load(self, game_id):
        self.loads += 1
        return SimpleNamespace(id=game_id, version=self.loads)

    def append_platform(self, game, events, at):
        if self.losses:
            self.losses -= 1
            raise Conflict(game.version + 1)
        self.appended.append((game.version, events, at))
        return SimpleNamespace(version=game.version + len(events))


class Counter:
    def __init__(self):
        self.count = 0

    def inc(self):
        self.count += 1


def test_a_lost_race_is_judged_again_on_the_reloaded_game_and_counted():
    service, lost, judged = Service(losses=2), Counter(), []

    def decide(game, at):
        judged.append(game.version)
        return [{"type": "x", "on": game.version}]

    decided = appending.decide_and_append(service, "g", decide, lost=lost)
    assert judged == [1, 2, 3] and lost.count == 2
    assert decided.game.version == 3 and decided.events == [{"type": "x", "on": 3}]
    assert decided.appended.version == 4 and service.appended[0][0] == 3


def test_a_lost_race_whose_refusal_carried_the_events_is_judged_again_without_a_load():
    """A refused append that answers the events its writer lacks (events/store.py's `held`):
    the game caught up with them is judged again, with no read of its own."""
    service, judged, caught = Service(losses=0), [], []

    class Games:
        def caught_up(self, game, tail):
            caught.append(tail)
            return SimpleNamespace(id=game.id, version=game.version + len(tail))

    service.games = Games()
    races = [Conflict(3, ["e2", "e3"])]

    def append(game, events, at):
        if races:
            raise races.pop()
        return SimpleNamespace(version=game.version + len(events))

    def decide(game, at):
        judged.append(game.version)
        return [{"type": "x"}]

    decided = appending.decide_and_append(service, "g", decide, append)
    assert judged == [1, 3] and service.loads == 1 and caught == [["e2", "e3"]]
    assert decided.appended.version == 4


def test_the_moment_given_to_the_decision_is_the_one_appended():
    service, seen = Service(losses=0), []
    appending.decide_and_append(service, "g", lambda game, at: seen.append(at) or [{"type": "x"}])
    assert service.appended[0][2] == seen[0]


def test_a_decision_of_nothing_appends_nothing():
    service = Service(losses=0)
    decided = appending.decide_and_append(service, "g", lambda game, at: [])
    assert decided.events == [] and decided.appended is None and service.appended == []


def test_a_held_game_is_judged_first_then_reloaded():
    service, judged = Service(losses=1), []
    held = SimpleNamespace(id="g", version=7)
    appending.decide_and_append(service, "g", lambda game, at: judged.append(game.version) or [{}], game=held)
    assert judged == [7, 1]


def test_a_refusal_is_not_retried():
    service = Service(losses=0)

    def decide(game, at):
        raise VersionConflict("no")

    with pytest.raises(VersionConflict, match="no"):
        appending.decide_and_append(service, "g", decide)
    assert service.loads == 1


def test_after_attempts_races_lost_the_answer_is_409_version_conflict_with_the_version():
    service = Service(losses=10 ** 6)
    with pytest.raises(VersionConflict) as refused:
        appending.decide_and_append(service, "g", lambda game, at: [{}])
    assert service.loads == appending.ATTEMPTS
    error = refused.value
    assert (error.status, error.code, error.version) == (409, "version_conflict", 99)
    assert error.message == "The game is changing too fast; read it again and retry."
