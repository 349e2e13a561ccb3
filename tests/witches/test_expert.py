"""The `expert` level (a determinized search, domain/search.py) and Witches' `determinize`:
legal to the end of a game, deterministic for a seed, blind to what its seat cannot see.
Budgets are the tests' (BOT_ITERATIONS from tests/conftest.py)."""
import random

from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.witches import GAME
from domain.witches.bots import expert_bot
from domain.witches.state import PLAYING, pass_target


def _game(n=3, seed=1, **opts):
    return fold(GAME, GAME.setup({**GAME.default_options(), **opts}, n, random.Random(seed)))


def _step(state, actor, move, rng):
    assert move in GAME.legal_moves(state, actor), move
    return fold(GAME, GAME.decide(state, actor, move, rng), state)


def _playing(n=3, seed=1, tricks=0):
    """A state of trick play: everyone passed as `careful` does, then `tricks` tricks played."""
    state, rng = _game(n, seed), random.Random(seed)
    while state.phase != PLAYING or state.tricks_played < tricks:
        actor = GAME.actors(state)[0]
        state = _step(state, actor, GAME.bots["careful"](state, actor, rng), rng)
    return state


def test_expert_plays_legal_moves_to_the_end_of_a_game():
    state, rng = _game(3, seed=4, rounds=1), random.Random(4)
    levels = ["expert", "careful", "expert"]
    while actors := GAME.actors(state):
        actor = actors[0]
        move = GAME.legal_moves(state, SYSTEM)[0] if actor == SYSTEM else \
            bot_move(GAME, state, actor, levels[actor], rng)
        state = _step(state, actor, move, rng)
    assert GAME.result(state)["rounds_played"] == 1


def test_expert_is_deterministic_for_a_seed():
    state = _playing(seed=2, tricks=3)
    (seat,) = GAME.actors(state)
    first = bot_move(GAME, state, seat, "expert", random.Random(9))
    assert first == bot_move(GAME, state, seat, "expert", random.Random(9))
    assert first in GAME.legal_moves(state, seat)


def test_expert_decides_the_same_for_states_its_seat_cannot_tell_apart():
    for seed, tricks in ((3, 0), (5, 4), (6, 11)):
        state = _playing(seed=seed, tricks=tricks)
        (seat,) = GAME.actors(state)
        other = GAME.determinize(state, seat, random.Random(100 + seed))
        assert other != state  # the other hands really differ
        assert expert_bot(state, seat, random.Random(seed)) == expert_bot(other, seat, random.Random(seed))
        assert bot_move(GAME, state, seat, "expert", random.Random(seed)) == \
            bot_move(GAME, other, seat, "expert", random.Random(seed))


def test_determinize_keeps_hand_sizes_and_where_the_seats_own_pass_went():
    state = _playing(n=4, seed=7, tricks=1)
    for seat in range(4):
        world = GAME.determinize(state, seat, random.Random(seat))
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert sorted(c for h in world.hands for c in h) == sorted(c for h in state.hands for c in h)
        target = pass_target(4, state.direction, seat)
        played = {c for t in state.taken for c in t} | {c for _, c in state.trick}
        assert {c for c in state.passed[seat] if c not in played} <= set(world.hands[target])


def test_determinize_redraws_the_passes_not_yet_exchanged():
    state, rng = _game(3, seed=8), random.Random(8)
    state = _step(state, 1, GAME.bots["careful"](state, 1, rng), rng)  # seat 1 passed, face down
    world = GAME.determinize(state, 0, random.Random(1))
    assert world.passed[0] is None and world.passed[2] is None and len(world.passed[1]) == 4
    assert world.hands[0] == state.hands[0]
    unseen = set(state.hands[1]) | set(state.hands[2]) | set(state.passed[1])
    assert set(world.hands[1]) | set(world.hands[2]) | set(world.passed[1]) == unseen
    assert GAME.view(world, 0) == GAME.view(state, 0)
    assert GAME.legal_moves(world, 0) == GAME.legal_moves(state, 0)
