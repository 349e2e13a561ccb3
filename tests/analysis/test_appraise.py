"""One decision's appraisal (domain/analysis.py), pure: the same twice, the seat's own move
suggested, the suggestion told apart from another move when played, and the marks."""
from __future__ import annotations

import random

import pytest

from domain import registry
from domain.analysis import MARK_DROP, MARKS, Decision, appraise, marked
from domain.play import fold, rng_for

SEED, VERSION = 9, 4


def _decision(game, move=None):
    """Seat 0's first decision of a 2-seat game (3 for Witches), with `move` (or the suggestion)."""
    n = max(2, game.min_seats)
    before = fold(game, game.setup(game.default_options(), n, random.Random(SEED)))
    seat = game.actors(before)[0]
    probe = Decision(VERSION, seat, before, before, [])
    move = move or appraise(game, probe, SEED, 4)["suggested"]
    events = game.decide(before, seat, move, rng_for(SEED, VERSION, str(seat)))
    return Decision(VERSION, seat, before, fold(game, events, before), events)


@pytest.mark.parametrize("name", ["splendor", "witches", "setup", "fairy-tile", "smallworld-of-warcraft"])
def test_an_appraisal_is_deterministic_and_knows_the_suggestion_when_played(name):
    game = registry.get(name)
    played = _decision(game)
    first, again = appraise(game, played, SEED, 6), appraise(game, played, SEED, 6)
    assert first == again
    assert first["played_suggested"] is True
    assert first["suggested"] in game.legal_moves(played.before, played.seat)
    other = next(m for m in game.legal_moves(played.before, played.seat) if m != first["suggested"])
    assert appraise(game, _decision(game, other), SEED, 6)["played_suggested"] is False
    assert 0 <= first["chance_before"] <= 1 and 0 <= first["chance_after"] <= 1


def test_the_costliest_decisions_are_marked():
    drops = {3: 0.05, 5: 0.3, 8: 0.2, 9: 0.15, 12: 0.4, 15: MARK_DROP}
    analysed = [{"version": v, "drop": d} for v, d in drops.items()]
    assert marked(analysed) == [5, 8, 12] and MARKS == 3
    assert marked([{"version": 1, "drop": MARK_DROP - 0.01}, {"version": 2, "drop": -0.5}]) == []
    assert marked([{"version": 7, "drop": MARK_DROP}]) == [7]
