"""Whole games by the bots keep the box's invariants and never show a coin total to others."""
import json
import random

import pytest

from domain.contract import SPECTATOR, SYSTEM
from domain.play import fold
from domain.smallworld import GAME, abilities, catalog, query


def check(state):
    for race in abilities.RACES:
        assert query.tokens_in_play(state, race) <= catalog.RACES[race]["box"]
    assert query.walls_left(state) >= 0
    for piece, box in (("fort", "forts"), ("tower", "watch_towers")):
        assert query.supply_left(state, piece, box) >= 0
    champions = query.count_pieces(state, "champion") + sum(p.champion for p in state.players)
    assert champions <= 1 and query.count_pieces(state, "objective") <= 2
    assert query.bombs_in_stack(state) >= 0 and sum(p.harmony for p in state.players) <= 4
    for r in state.regions:
        assert (r.race is None) == (r.tokens == 0)
        assert 0 <= r.beasts <= r.tokens
        if r.declined:
            assert r.tokens >= 1 and not (r.tower or r.champion or r.beasts)
        if r.race == "tauren" and not r.declined:
            assert r.tokens >= 2  # never alone
    places = [r for r, _, _ in state.display] + list(state.race_pile) + list(state.returned)
    badges = [p for _, p, _ in state.display] + list(state.power_pile) + list(state.power_discards)
    places += [x for row in state.rows for x in row[1:] if x]
    badges += [row[0] for row in state.rows if row[0]]
    for p in state.players:
        assert p.coins >= 0 and p.hand >= 0 and 0 <= p.beasts <= p.hand
        places += [x for x in (p.race, p.declined) if x]
        badges += [x for x in (p.power, p.declined_power) if x]
    assert sorted(places) == sorted(abilities.RACES)  # every banner is in exactly one place
    assert sorted(badges) == sorted(abilities.POWERS)  # and every badge
    assert len(state.display) <= catalog.DISPLAY_SIZE


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
