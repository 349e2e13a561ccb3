"""The expert level (issue 34): determinized MCTS over greedy playouts, at the tests' budget
(BOT_ITERATIONS, tests/conftest.py). It plays legally to the end, the same move for a seed,
and the same move for states its seat cannot tell apart."""
import random

from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.smallworld import GAME
from domain.smallworld.bots import SEARCHED

EXPERT = "expert"


def _states(seed, n=2, levels=None):
    """The states of a 2-seat game the expert plays (seat 0) against greedy, with their moves."""
    levels = levels or {0: EXPERT, 1: "greedy"}
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup({}, n, random.Random(seed)))
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, actor)[0]
        else:
            move = bot_move(GAME, state, actor, levels[actor], rng)
            assert move in GAME.legal_moves(state, actor), (state.turn.step, move)
        yield state, actor, move
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
    assert GAME.result(state) is not None


def test_expert_is_last_and_plays_a_whole_game_legally():
    assert list(GAME.bots)[-1] == EXPERT
    moves = sum(1 for _, actor, _ in _states(5) if actor == 0)
    assert moves > 20


def _choices(seed, every=4):
    """Some of the expert's searched decisions (a choice at a pick, start or conquest)."""
    out = []
    for k, (state, actor, _) in enumerate(_states(seed, levels={0: "greedy", 1: "greedy"})):
        if actor == 0 and state.turn.step in SEARCHED and len(GAME.legal_moves(state, 0)) > 1 and k % every == 0:
            out.append(state)
    return out[:8]


def test_expert_is_deterministic_for_a_seed():
    for k, state in enumerate(_choices(7)):
        assert bot_move(GAME, state, 0, EXPERT, random.Random(k)) == bot_move(GAME, state, 0, EXPERT, random.Random(k))


def test_expert_decides_alike_for_states_its_seat_cannot_tell_apart():
    for k, state in enumerate(_choices(9)):
        rich = state.players[1]._replace(coins=state.players[1].coins + 17 + k)  # hidden from seat 0
        other = state.set_player(1, rich)
        assert GAME.view(other, 0) == GAME.view(state, 0) and other != state
        assert bot_move(GAME, state, 0, EXPERT, random.Random(k)) == bot_move(GAME, other, 0, EXPERT, random.Random(k))


def test_determinize_redraws_only_the_others_coins():
    state = _choices(3)[-1]
    world = GAME.determinize(state, 0, random.Random(1))
    assert world.players[0] == state.players[0]
    assert world.players[1]._replace(coins=0) == state.players[1]._replace(coins=0)
    assert world.with_(players=state.players) == state
    assert GAME.legal_moves(world, 0) == GAME.legal_moves(state, 0)
