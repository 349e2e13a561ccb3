"""domain/search.py's information-set mode (issue 56, SearchSpec.information_sets): one tree over
the seat's information set, a fresh determinization per iteration, chance drawn afresh below
the root. It decides from the seat's view only (a state and the same state with its hidden part
permuted give the same move), a seed and a budget give the same move, every iteration lands on
one of the root's moves, and a chance outcome is averaged, not frozen at expansion."""
from __future__ import annotations

import dataclasses
import random

import pytest

from domain import registry
from domain.analysis import searcher_of
from domain.contract import SYSTEM
from domain.play import fold
from domain.search import Searcher, SearchRules, SearchSpec

pytestmark = pytest.mark.unit


def _sets(game, iterations: int) -> Searcher:
    base = searcher_of(game)
    return Searcher(base.rules, base.n_seats, dataclasses.replace(base.spec, information_sets=True,
                                                                  iterations=iterations))


def _positions(game, count: int, seed: int = 7):
    rng = random.Random(seed)
    state = fold(game, game.setup(game.default_options(), game.min_seats, random.Random(seed)))
    found = []
    while (actors := game.actors(state)) and len(found) < count:
        actor = actors[0]
        if actor == SYSTEM:
            move = game.legal_moves(state, actor)[0]
        else:
            if len(game.legal_moves(state, actor)) > 1 and rng.random() < 0.3:
                found.append((state, actor))
            move = game.bots["greedy"](state, actor, rng)
        state = fold(game, game.decide(state, actor, move, rng), state)
    return found


@pytest.mark.parametrize("name", ["splendor", "setup"])
def test_it_decides_from_the_seat_s_view_the_same_way_every_time(name):
    game = registry.get(name)
    search = _sets(game, 24)
    for k, (state, seat) in enumerate(_positions(game, 4)):
        permuted = game.determinize(state, seat, random.Random(100 + k))  # what the seat cannot see, drawn anew
        move = search(state, seat, random.Random(k))
        assert search(state, seat, random.Random(k)) == move
        assert search(permuted, seat, random.Random(k)) == move, "the search read what its seat cannot see"
        shares = search.policy(state, seat, random.Random(k), 24)
        assert abs(sum(shares.values()) - 1.0) < 1e-9  # every iteration went through one root move
        assert 0.0 <= search.appraise(state, seat, random.Random(k), 12) <= 1.0


# A one-decision game: seat 0 gambles (wins on a coin flip: 50%) or plays safe (wins 65% of the
# time), each outcome drawn by `decide` from the rng. Frozen at expansion, one world's gamble is a
# sure win or a sure loss; drawn afresh, it is worth its odds.
def _decide(state, actor, move, rng):
    odds = 0.5 if move["m"] == "gamble" else 0.65
    return [{"winner": 0 if rng.random() < odds else 1}]


COIN = SearchRules(
    legal_moves=lambda state, actor: [{"m": "gamble"}, {"m": "safe"}],
    decide=_decide,
    evolve=lambda state, event: ("over", event["winner"]),
    actors=lambda state: [] if state[0] == "over" else [0],
    result=lambda state: {"winners": [state[1]]} if state[0] == "over" else None,
)


def _coin(information_sets: bool) -> Searcher:
    return Searcher(COIN, lambda state: 2, SearchSpec(iterations=300, rollout=lambda s, a, r: {}, evaluate=lambda s, seat: 0.5,
                                                      determinizations=1, information_sets=information_sets))


def _plays_safe(information_sets: bool, seed: int) -> bool:
    shares = _coin(information_sets).policy(("start",), 0, random.Random(seed), 300)  # (tests scale __call__'s budget)
    return shares['{"m": "safe"}'] > shares['{"m": "gamble"}']


def test_chance_below_the_root_is_drawn_afresh_each_iteration():
    safe_sets = sum(_plays_safe(True, seed) for seed in range(30))
    safe_frozen = sum(_plays_safe(False, seed) for seed in range(30))
    assert safe_sets >= 27, safe_sets
    assert safe_frozen <= 25, safe_frozen  # the per-world tree follows whichever outcome it froze
