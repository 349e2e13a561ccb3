"""The `expert` level (a one-turn lookahead over the unseen cards, issue 34) and determinize: the
expert is the last (strongest) level, plays legal moves to the end of a game, is deterministic
for a seed, and decides alike for states its seat cannot tell apart. The budgets are the
tests' (BOT_ITERATIONS, conftest)."""
import random
from collections import Counter

from domain import search
from domain.fairy_tile import GAME
from domain.fairy_tile.data import CARD_IDS
from domain.fairy_tile.determinize import determinize
from domain.fairy_tile.tiles import KINGDOM_TILES
from domain.play import bot_move, fold

from .helpers import started


def _play(levels, seed, stop_at=None):
    """Plays a 2-seat game with bot_move (determinized states), checking every move is legal;
    returns the states met on the way and the last."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), 2, random.Random(seed)))
    seen = []
    while GAME.actors(state) and (stop_at is None or len(seen) < stop_at):
        seat = GAME.actors(state)[0]
        seen.append(state)
        move = bot_move(GAME, state, seat, levels[seat], rng)
        assert move in GAME.legal_moves(state, seat), move
        state = fold(GAME, GAME.decide(state, seat, move, rng), state)
    return seen, state


def test_the_expert_is_the_last_level():
    # it beats the storyteller (bench/README.md, issue 34): it takes over timed-out seats
    assert list(GAME.bots) == ["random", "storyteller", "expert"]


def test_the_expert_plays_legal_moves_to_the_end_of_a_game():
    _, state = _play({0: "expert", 1: "storyteller"}, seed=3)
    assert GAME.result(state) is not None


def test_the_expert_is_deterministic_for_a_seed():
    states, _ = _play({0: "storyteller", 1: "random"}, seed=5, stop_at=24)
    for state in states[::4]:
        seat = state.current
        first = GAME.bots["expert"](state, seat, random.Random(9))
        assert first == GAME.bots["expert"](state, seat, random.Random(9))


def test_the_expert_decides_alike_for_states_its_seat_cannot_tell_apart(monkeypatch):
    monkeypatch.setattr(search, "_scale", 0.1)  # a few iterations more: several worlds searched
    states, _ = _play({0: "storyteller", 1: "storyteller"}, seed=8, stop_at=30)
    for k, state in enumerate(states[::5]):
        seat = state.current
        other = determinize(state, seat, random.Random(100 + k))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        assert GAME.bots["expert"](state, seat, random.Random(k)) == GAME.bots["expert"](other, seat, random.Random(k))


def test_determinize_resamples_only_what_the_seat_cannot_see():
    state, _ = started(n=3, seed=4)
    for seat in range(3):
        world = determinize(state, seat, random.Random(seat))
        assert world.seats[seat].hand == state.seats[seat].hand
        assert [len(s.book) for s in world.seats] == [len(s.book) for s in state.seats]
        assert world.pile[0] == state.pile[0] and len(world.pile) == len(state.pile)
        cards = Counter(c for s in world.seats for c in (*s.book, s.hand, *s.told))
        assert cards == Counter(CARD_IDS)
        assert sorted(t for t, _ in world.pile) == sorted(KINGDOM_TILES)
    worlds = {determinize(state, 0, random.Random(k)).seats[1].hand for k in range(20)}
    assert len(worlds) > 1  # another seat's hand is drawn anew


def test_the_bots_thinking_stays_off_the_games_own_state():
    """What a bot derives while it thinks is cached on its own copy of the kingdom, not on the
    state the server keeps (about 650 KB a game, pickled, before); a turn's later decisions
    still find it there."""
    from domain.fairy_tile.determinize import thinking_copy

    seen, _ = _play({0: "expert", 1: "expert"}, seed=5, stop_at=12)
    state = seen[-1]
    keys = set(state.kingdom._cache)
    seat = GAME.actors(state)[0]
    bot_move(GAME, state, seat, "expert", random.Random(1))
    assert set(state.kingdom._cache) == keys
    assert any(k[0] == "laid" for k in thinking_copy(state.kingdom)._cache if isinstance(k, tuple))
    assert thinking_copy(state.kingdom).cells is state.kingdom.cells


def test_under_a_small_bot_iterations_the_expert_weighs_a_spread_share_of_its_candidates():
    """BOT_ITERATIONS scales the expert as it scales the search levels: a share of the candidates
    (each one a turn played out), spread over them, at least WEIGHED_MIN; at 1 every one."""
    from domain.fairy_tile.expert import WEIGHED_MIN, _within_budget, candidates

    found = [{"type": "move", "n": k} for k in range(20)]
    assert _within_budget(found, 1.0) == found
    assert _within_budget(found, 0.5) == found[::2]
    small = _within_budget(found, 0.02)
    assert small == [found[0], found[6], found[13]] and len(small) == WEIGHED_MIN
    assert _within_budget(found[:2], 0.02) == found[:2]
    state, _ = started(2, seed=5)
    seat = GAME.actors(state)[0]
    with_scale = search.iterations_scale()
    try:
        search.set_iterations_scale(1.0)
        every = candidates(state, seat)
    finally:
        search.set_iterations_scale(with_scale)
    assert candidates(state, seat) == _within_budget(every, with_scale)
    assert len(every) > WEIGHED_MIN and len(candidates(state, seat)) < len(every)


def test_the_seat_to_play_is_out_only_between_its_player_out_and_its_turn_ended():
    """The invariant (tests/fairy_tile/invariants.py) holds the seat to play in on a settled
    state; within a decision's events (a `player_out` of the seat to play, then `turn_ended`)
    it is out for one event, which a smaller expert budget's playout met."""
    import pytest

    from domain.fairy_tile.rules import evolve
    from tests.fairy_tile.invariants import check

    state, _ = started(2, seed=5)
    out = evolve(state, {"type": "player_out", "seat": state.current})
    check(out, state, settled=False)
    with pytest.raises(AssertionError, match="the seat to play is still in"):
        check(out, state, settled=True)
