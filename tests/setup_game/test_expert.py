"""The expert level (an expectimax over the greedy's best sets, issue 34): legal to the end,
deterministic for a seed, and blind to what its seat cannot see. Budgets as the suites set them (BOT_ITERATIONS)."""
import random

from domain.play import bot_move, fold
from domain.setup_game import GAME
from domain.setup_game.bots import evaluate, prune
from domain.setup_game.determinize import determinize
from domain.setup_game.levels import expert_policy


def _states(seed, plies=24):
    """States along a seeded greedy-vs-random 2-seat game, every ply."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup({"teams": False}, 2, rng))
    for _ in range(plies):
        if not GAME.actors(state):
            return
        yield state
        seat = GAME.actors(state)[0]
        move = GAME.bots["greedy" if seat else "random"](state, seat, rng)
        state = fold(GAME, GAME.decide(state, seat, move, rng), state)


def test_the_expert_is_the_strongest_level():
    assert list(GAME.bots) == ["random", "greedy", "expert"]  # it beats greedy: bench/README.md


def test_expert_plays_legal_moves_to_the_end_of_a_two_seat_game():
    for seed, levels in ((1, ("expert", "greedy")), (2, ("greedy", "expert"))):
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup({"teams": False}, 2, rng))
        for _ in range(GAME.max_events):
            if not GAME.actors(state):
                break
            seat = GAME.actors(state)[0]
            move = bot_move(GAME, state, seat, levels[seat], rng)
            assert move in GAME.legal_moves(state, seat)
            state = fold(GAME, GAME.decide(state, seat, move, rng), state)
        assert GAME.result(state) is not None


def test_expert_plays_legal_moves_with_more_seats_and_in_the_team_game():
    for n, options in ((3, {"teams": False}), (4, {"teams": True})):
        rng = random.Random(n)
        state = fold(GAME, GAME.setup(options, n, rng))
        for _ in range(2 * n):  # every seat twice: the others answer greedily in its search
            seat = GAME.actors(state)[0]
            move = bot_move(GAME, state, seat, "expert" if seat % 2 == 0 else "greedy", rng)
            assert move in GAME.legal_moves(state, seat)
            state = fold(GAME, GAME.decide(state, seat, move, rng), state)
            if not GAME.actors(state):
                break


def test_expert_is_deterministic_for_a_seed():
    for k, state in enumerate(_states(3, plies=8)):
        seat = state.turn
        first = expert_policy(state, seat, random.Random(k))
        assert first == expert_policy(state, seat, random.Random(k))
        assert first in GAME.legal_moves(state, seat)


def test_expert_decides_the_same_for_states_its_seat_cannot_tell_apart():
    for k, state in enumerate(_states(4, plies=8)):
        seat = state.turn
        other = determinize(state, seat, random.Random(100 + k))  # the other rack, the bag redealt
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert expert_policy(state, seat, random.Random(k)) == expert_policy(other, seat, random.Random(k))


def test_prune_keeps_legal_moves_and_evaluate_is_a_probability():
    for state in _states(5, plies=10):
        seat = state.turn
        legal = GAME.legal_moves(state, seat)
        kept = prune(state, seat, legal)
        assert kept and len(kept) <= 12 and all(m in legal for m in kept)
        for s in range(state.n):
            assert 0.0 < evaluate(state, s) < 1.0


def test_the_greedy_value_counts_as_plays_score_does():
    """bots._valued scores from bit masks: the same points and bonus as plays.score, every seat
    count and the team game."""
    from domain.setup_game.bots import _valued
    from domain.setup_game.moves import placements
    from domain.setup_game.plays import score
    from domain.setup_game.state import team_of, tops

    def _bonus_value(state, seat, bonus):  # the greedy's bonus value as it was counted from plays.score
        value = 0
        for other, points in enumerate(bonus):
            if state.teams and team_of(other) == team_of(seat):
                value += points
            else:
                value -= points
        return value

    for n, options in ((2, {"teams": False}), (3, {"teams": False}), (4, {"teams": True})):
        rng = random.Random(7 + n)
        state = fold(GAME, GAME.setup(options, n, rng))
        for _ in range(4 * n):
            if not GAME.actors(state):
                break
            seat = GAME.actors(state)[0]
            for pairs, value in _valued(state, seat, placements(state, seat)):
                after = tops(state)
                for q, t in pairs:
                    after[q] = t
                play = score(state, seat, list(pairs), after)
                assert value == (play.points, _bonus_value(state, seat, play.bonus))
            state = fold(GAME, GAME.decide(state, seat, GAME.bots["greedy"](state, seat, rng), rng), state)
