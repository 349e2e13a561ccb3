"""No seat's legal moves, nor their words, hold a secret of another seat: for every game and
every seat configuration it declares, a seeded random playout checks, at every state, each
actor's legal moves and each move's label (its words' arguments) against `secrets(state)`.

The in-memory half of what tests/robustness/test_leaks.py checks over HTTP (`GET /moves`, for
every viewer): views and redacted events are checked so by the properties (test_properties.py,
drawn seat counts) and the contract suite's bot games (test_game_contract.py, every seat
configuration), and the words of events by test_words.py; the HTTP
suite plays one seat count per game, since the API's routing of a viewer to its view does not
depend on how many seats there are.
"""
from __future__ import annotations

import random

import pytest

from domain.contract import is_seat
from domain.play import fold
from tests.contract.test_game_contract import CASES, _json, _needles, _options
from tests.contract.test_words import HOSTED


def _hidden_from(game, state, seat) -> list[str]:
    """Each secret `seat` may not see, as JSON text, as either encoder writes it."""
    return [needle for token, allowed in game.secrets(state).items() if seat not in allowed
            for needle in _needles(token)]


@pytest.mark.parametrize("game,n,options", CASES)
def test_no_actor_is_offered_a_move_naming_another_seats_secret(game, n, options):
    rng = random.Random(n * 7 + len(game.name))
    state = fold(game, game.setup(_options(game, options), n, random.Random(rng.randrange(10**6))))
    while actors := game.actors(state):
        listed = {}  # each actor's moves, listed once (a Witches pass lists 4,845)
        for actor in filter(is_seat, actors):
            moves = listed[actor] = game.legal_moves(state, actor)
            # orjson (test_game_contract's _json): a Witches pass lists up to 680 moves, each with
            # its label, at each of the three seats' turns; json.dumps of them was a third of
            # this test's CPU
            shown = _json(moves)
            if game.name in HOSTED:
                shown += "\n" + _json([game.words.move(state, actor, move).args for move in moves])
            for needle in _hidden_from(game, state, actor):
                assert needle not in shown, f"seat {actor} is offered a move naming {needle}"
        actor = rng.choice(actors)
        moves = listed[actor] if actor in listed else game.legal_moves(state, actor)
        state = fold(game, game.decide(state, actor, rng.choice(moves), rng), state)
