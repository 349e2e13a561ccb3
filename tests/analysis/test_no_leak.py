"""An analysis tells nothing of what its seat could not see (issue 34): for each seat's
decision along seeded playouts of every game's configurations, the analysis of the decision is
the same when everything the seat cannot see is permuted, before the move and after it (the
game's determinize: the seat's view kept, its hidden part drawn anew; test_bots_see.py proves
determinize keeps the view and depends on nothing else).

`played_suggested` is left out: it compares the suggestion with the events of the move played,
which the finished game's history shows everyone (a permuted world has other events)."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from domain import registry
from domain.analysis import Decision, appraise, searcher_of
from domain.contract import is_seat
from domain.play import fold, rng_for
from domain.search import Searcher
from tests.contract.test_bots_see import SEEN
from tests.contract.test_game_contract import _options

ITERATIONS = 8
CHECKED = 5  # decisions analysed per configuration
EVERY = 5  # playout steps between them


def _decisions(game, n, options, seed):
    """(before, seat, the move, after) at some of a seeded playout's steps, a seat to act."""
    rng = random.Random(seed)
    state = fold(game, game.setup(_options(game, options), n, random.Random(seed)))
    step = found = 0
    while (actors := game.actors(state)) and found < CHECKED:
        actor = rng.choice(actors)
        move = rng.choice(game.legal_moves(state, actor))
        events = game.decide(state, actor, move, rng_for(seed, step, str(actor)))
        after = fold(game, events, state)
        if is_seat(actor) and step % EVERY == 0:
            found += 1
            yield step, Decision(step, actor, state, after, events)
        state, step = after, step + 1


def _seen(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "played_suggested"}


@pytest.mark.parametrize("game,n,options", SEEN)
def test_an_analysis_is_the_same_whatever_the_seat_could_not_see(game, n, options):
    for step, real in _decisions(game, n, options, seed=5 * n + 1):
        seat = real.seat
        permuted = Decision(step, seat, game.determinize(real.before, seat, random.Random(100 + step)),
                            game.determinize(real.after, seat, random.Random(200 + step)), real.events)
        assert _seen(appraise(game, real, 42, ITERATIONS)) == _seen(appraise(game, permuted, 42, ITERATIONS)), \
            f"{game.name}: seat {seat}'s analysis at step {step} depends on what it could not see"


def test_a_peeking_analysis_would_fail_it():
    """The test above can fail: the same search valuing the real state (the game's rules
    without its determinize) gives another chance for a Splendor deal whose decks are permuted."""
    game = registry.get("splendor")
    real = fold(game, game.setup(_options(game, {}), 2, random.Random(3)))
    permuted = game.determinize(real, 0, random.Random(9))
    assert game.view(permuted, 0) == game.view(real, 0) and permuted != real
    honest = searcher_of(game)
    rules = game  # GameDef is frozen: a namespace of its rules without determinize
    blind = SimpleNamespace(legal_moves=rules.legal_moves, decide=rules.decide, evolve=rules.evolve,
                            actors=rules.actors, result=rules.result, determinize=None)
    peeking = Searcher(blind, honest.n_seats, honest.spec)
    assert peeking.appraise(real, 0, random.Random(1), 40) != peeking.appraise(permuted, 0, random.Random(1), 40)
    assert honest.appraise(real, 0, random.Random(1), 40) == honest.appraise(permuted, 0, random.Random(1), 40)
