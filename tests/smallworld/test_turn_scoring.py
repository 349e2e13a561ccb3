"""A turn is scored by the move that ends it (issue 57): the game's `decide` gives the rules' step
and then exactly the events the system's `score_turn` would have appended after it, so a history
holds the same events as before, a person never waits on a scoring job between turns, and only
the scoring that ends the game is the system's turn (a worker's, as every game's final scoring)."""
import random

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.smallworld import GAME
from domain.smallworld.rules import decide_step
from domain.smallworld.state import OVER, SCORE


def _after(state, events):
    for e in events:
        state = GAME.evolve(state, e)
    return state


def _two_steps(state, actor, move, seed):
    """What the rules gave before: the step, then (at SCORE) the system's scoring turn."""
    step = decide_step(state, actor, move, random.Random(seed))
    after = _after(state, step)
    if after.turn.step != SCORE:
        return step, None
    return step, decide_step(after, SYSTEM, {"type": "score_turn"}, random.Random(seed))


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (5, {}), (4, {"team": True})])
def test_a_move_that_ends_a_turn_carries_the_systems_scoring_and_nothing_else(n, options):
    rng = random.Random(57 + n)
    state = fold(GAME, GAME.setup(options, n, random.Random(n)))
    bots = [GAME.bots["greedy" if s % 2 else "random"] for s in range(n)]
    scored_inline = system_turns = 0
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        if actor == SYSTEM:
            system_turns += 1
            move = GAME.legal_moves(state, SYSTEM)[0]
            events = GAME.decide(state, SYSTEM, move, random.Random(0))
            assert events[-1]["type"] == "game_over"  # only the game's last scoring is the system's
            state = _after(state, events)
            continue
        move = bots[actor](state, actor, rng)
        seed = rng.randrange(1 << 30)
        events = GAME.decide(state, actor, move, random.Random(seed))
        step, scoring = _two_steps(state, actor, move, seed)
        if scoring is None or scoring[-1]["type"] == "game_over":
            assert events == step
        else:
            assert events == step + scoring
            assert [e["type"] for e in scoring].count("turn_scored") == 1
            scored_inline += 1
        state = _after(state, events)
        assert state.turn.step != SCORE or GAME.actors(state) == [SYSTEM]
    assert state.turn.step == OVER and system_turns == 1 and scored_inline >= n


def test_a_history_left_at_score_is_still_scored_by_the_system():
    """A game recorded before this change may stand at SCORE: the system's move still scores it."""
    state = fold(GAME, GAME.setup({}, 2, random.Random(2)))
    rng = random.Random(3)
    while state.turn.step != SCORE:
        actor = GAME.actors(state)[0]
        state = _after(state, decide_step(state, actor, GAME.bots["greedy"](state, actor, rng), rng))
    assert GAME.actors(state) == [SYSTEM] and GAME.legal_moves(state, SYSTEM) == [{"type": "score_turn"}]
    events = GAME.decide(state, SYSTEM, {"type": "score_turn"}, random.Random(0))
    assert [e["type"] for e in events][-1] == "turn_scored" and _after(state, events).turn.step != SCORE
