"""The expert level (issue 34): legal to the end, deterministic for a seed, blind to what its
seat cannot see. Budgets as the tests set them (BOT_ITERATIONS, tests/conftest.py)."""
import random

from domain.contract import SYSTEM
from domain.play import bot_move, fold
from domain.splendor import GAME


def _start(seed, n=2):
    return fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))


def _advance(state, rng, steps):
    """A few random moves, so the states tested have reserves (blind ones too) and gaps."""
    for _ in range(steps):
        actors = GAME.actors(state)
        if not actors:
            break
        actor = actors[0]
        moves = GAME.legal_moves(state, actor)
        blind = [m for m in moves if m["type"] == "reserve_blind"]
        move = rng.choice(blind) if blind and rng.random() < 0.3 else rng.choice(moves)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    return state


def test_expert_is_the_last_level():
    assert list(GAME.bots) == ["random", "greedy", "expert"]


def test_expert_plays_legal_moves_to_the_end_of_a_two_seat_game():
    rng = random.Random(5)
    state = _start(5)
    while actors := GAME.actors(state):
        actor = actors[0]
        moves = GAME.legal_moves(state, actor)
        move = moves[0] if actor == SYSTEM else bot_move(GAME, state, actor, "expert" if actor == 0 else "greedy", rng)
        assert move in moves
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    result = GAME.result(state)
    assert result is not None and max(result["scores"]) >= 15


def test_expert_is_deterministic_for_a_seed():
    state = _advance(_start(8), random.Random(8), 14)
    seat = GAME.actors(state)[0]
    first = bot_move(GAME, state, seat, "expert", random.Random(3))
    assert first in GAME.legal_moves(state, seat)
    assert bot_move(GAME, state, seat, "expert", random.Random(3)) == first


def test_expert_decides_the_same_for_states_its_seat_cannot_tell_apart():
    checked = 0
    for seed in range(4):
        state = _advance(_start(20 + seed), random.Random(seed), 10 + 3 * seed)
        actors = GAME.actors(state)
        if not actors or actors[0] == SYSTEM:
            continue
        seat = actors[0]
        other = GAME.determinize(state, seat, random.Random(99 + seed))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert bot_move(GAME, state, seat, "expert", random.Random(seed)) == \
            bot_move(GAME, other, seat, "expert", random.Random(seed))
        checked += 1
    assert checked >= 3


def test_determinize_redraws_the_hidden_cards_and_keeps_the_rest():
    state = _advance(_start(31), random.Random(31), 40)
    hidden_seats = [s for s in range(state.n) if state.players[s].blind]
    for seat in range(state.n):
        worlds = [GAME.determinize(state, seat, random.Random(k)) for k in range(6)]
        for world in worlds:
            assert world.market == state.market and world.nobles == state.nobles
            assert [len(d) for d in world.decks] == [len(d) for d in state.decks]
            assert world.players[seat] == state.players[seat]
            for s in range(state.n):
                assert len(world.players[s].blind) == len(state.players[s].blind)
                assert set(world.players[s].blind) <= set(world.players[s].reserved)
            # the same cards are somewhere unseen: decks plus the others' blind reserves
            unseen = sorted(c for d in world.decks for c in d) + sorted(
                c for s in range(state.n) if s != seat for c in world.players[s].blind)
            real = sorted(c for d in state.decks for c in d) + sorted(
                c for s in range(state.n) if s != seat for c in state.players[s].blind)
            assert sorted(unseen) == sorted(real)
        assert len({w.decks for w in worlds}) > 1
        if any(s != seat for s in hidden_seats):
            assert len({tuple(w.players[s].blind for s in range(state.n)) for w in worlds}) > 1
