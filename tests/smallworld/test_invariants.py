"""Whole games by the bots keep the box's invariants and never show a coin total to others."""
import json
import random

import pytest

from domain.contract import SPECTATOR, SYSTEM
from domain.play import fold
from domain.smallworld import GAME
from tests.smallworld.invariants import check


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (4, {}), (5, {}), (4, {"team": True}), (5, {"team": True})])
def test_bot_games_keep_the_invariants_and_the_secrets(n, options):
    rng = random.Random(n)
    events = GAME.setup(options, n, random.Random(n))
    state = fold(GAME, events)
    bots = [GAME.bots["greedy" if s % 2 else "random"] for s in range(n)]
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else bots[actor](state, actor, rng)
        for e in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, e)
            events.append(e)
            check(state)
            if e["type"] == "turn_scored":
                for viewer in [s for s in range(n) if s != e["seat"]] + [SPECTATOR]:
                    assert GAME.redact(e, viewer) == {"type": "turn_scored", "seat": e["seat"], "payments": e["payments"]}
        if state.turn.step != "over":
            for viewer in range(n):
                shown = GAME.view(state, viewer)["players"]
                assert all(("coins" in p) == (p["seat"] == viewer) for p in shown)
    assert GAME.result(state)["scores"] == [p.coins for p in state.players]
    assert fold(GAME, json.loads(json.dumps(events))) == state
