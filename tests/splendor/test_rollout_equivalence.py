"""The expert's playout policy `greedy_rollout` (issue 56: cheaper search) is `greedy_policy`
move for move: on positions from random and greedy games (reserves, gold, full hands, empty
decks), both given the same seeded rng pick the same move and leave the rng in the same state,
so a search decides exactly as it did with greedy_policy."""
import random
from dataclasses import replace

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.search import Searcher
from domain.splendor import GAME
from domain.splendor.bots import (
    RULES,
    _candidates,
    _card_value,
    _card_values,
    _exact_payment,
    _gain,
    _gems_of,
    _missing,
    _payments,
    _playout,
    _rollout_step,
    _rollout_target,
    _shortfalls,
    _take_gain,
    _target,
    _weighted,
    expert_policy,
    greedy_policy,
    greedy_rollout,
)
from domain.splendor.data import GOLD
from domain.splendor.moves import COSTS
from domain.splendor.searchplay import play as search_play
from domain.splendor.state import PLAY

pytestmark = pytest.mark.unit


def _positions(seed: int, n: int):
    rng = random.Random(seed)
    options = GAME.default_options() | {"strict_take_three": seed % 4 == 3}  # strict: fewer gem takes
    state = fold(GAME, GAME.setup(options, n, random.Random(seed)))
    wild = seed % 2  # half the games random (odd hands), half greedy (the playouts' own)
    while actors := GAME.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = GAME.legal_moves(state, actor)[0]
        else:
            yield state, actor
            move = rng.choice(GAME.legal_moves(state, actor)) if wild else greedy_policy(state, actor, rng)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)


def test_greedy_rollout_plays_as_greedy_with_the_same_draws():
    checked = 0
    for seed in range(24):
        for state, seat in _positions(seed, 2 + seed % 3):
            a, b = random.Random(checked), random.Random(checked)
            assert greedy_rollout(state, seat, b) == greedy_policy(state, seat, a), (seed, state)
            assert a.random() == b.random(), (seed, state)
            checked += 1 if state.phase == PLAY else 0
    assert checked > 500


def test_the_splendor_playout_is_the_generic_one():
    """The expert's own playout loop (`_playout`, issue 56) against domain/search.py's generic
    playout over the same rules and policy: the same rewards and the same draws, from positions
    all through games (their ends: scoring and results inside the depth), 2-4 seats."""
    generic = Searcher(RULES, lambda state: state.n, replace(expert_policy.spec, playout=None))
    checked = ended = 0
    for seed in range(12):
        for state, _seat in _positions(100 + seed, 2 + seed % 3):
            a, b = random.Random(checked), random.Random(checked)
            got = _playout(state, b)
            assert got == generic._playout(RULES, state, a), (seed, state)
            assert a.random() == b.random(), (seed, state)
            checked += 1
            ended += got in ([1.0, 0.0], [0.0, 1.0]) or 0.5 in got
    assert checked > 500 and ended > 20


def test_a_playout_step_is_search_play_of_greedys_move():
    """`_rollout_step` (issue 56: the move applied without its dict) gives the state and leaves
    the rng as search_play of greedy_rollout's move does, at every seat-to-act position (buys
    with gold, gem takes, reserves, returns of tokens, noble choices, passes), 2-4 seats."""
    kinds: set = set()
    checked = 0
    for seed in range(24):
        for state, seat in _positions(200 + seed, 2 + seed % 3):
            a, b = random.Random(checked), random.Random(checked)
            move = greedy_rollout(state, seat, a)
            assert _rollout_step(state, seat, b) == search_play(state, seat, move, a), (seed, state)
            assert a.random() == b.random(), (seed, state)
            kinds.add(move["type"])
            checked += 1
    assert checked > 1000
    assert {"buy", "take_gems", "take_two", "reserve", "return_tokens"} <= kinds


def test_packed_shortfalls_are_each_cards_sum_of_lacks():
    """`_shortfalls` (issue 56: every card's shortfall from five packed integers) against the
    sum over colours, for every card, at 5,000 random holdings (0-20 of a colour, above the
    dearest cost too)."""
    rng = random.Random(56)
    for _ in range(5000):
        have = [rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 20)) for _ in range(5)]
        short = _shortfalls(*have)
        for card, cost in enumerate(COSTS):
            assert short[card] == sum(max(0, c - h) for c, h in zip(cost, have)), (have, card)


def test_the_prunings_take_gain_is_greedys_gain():
    """`_prune` ranks gem takes by `_take_gain` over `_weighted` targets (issue 56): the very
    float `_gain` gives, for every take of every PLAY position, the targets any 1-3 candidates
    (gold in hand, full supplies and thin ones, 2-4 seats)."""
    checked = 0
    for seed in range(12):
        for state, seat in _positions(300 + seed, 2 + seed % 3):
            if state.phase != PLAY:
                continue
            player = state.players[seat]
            have = tuple(b + t for b, t in zip(player.bonuses, player.tokens))
            cards = _candidates(state, seat)
            targets = random.Random(checked).sample(cards, min(len(cards), 1 + checked % 3))
            weighted = _weighted(targets, have, _shortfalls(*have), player.tokens[GOLD])
            for move in GAME.legal_moves(state, seat):
                if move["type"] in ("take_gems", "take_two"):
                    assert _take_gain(weighted, move) == _gain(state, seat, _gems_of(move), targets), (state, move)
                    checked += 1
    assert checked > 2000


def test_the_playouts_card_values_and_exact_payments_are_greedys():
    """`_card_values` (every card's `_card_value` at once), the packed shortfall less gold (what
    `_missing` gives, as the playout and the pruning read it) and `_exact_payment` (the one payment
    of a card gold covers exactly) against greedy's own (issue 56), for every card and seat of
    every position of 12 games, 2-4 seats."""
    exact = 0
    for seed in range(12):
        for state, _seat in _positions(400 + seed, 2 + seed % 3):
            for seat, player in enumerate(state.players):
                values = _card_values(state.nobles, player.bonuses)
                have = tuple(b + t for b, t in zip(player.bonuses, player.tokens))
                short = _shortfalls(*have)
                for card in range(len(COSTS)):
                    assert values[card] == _card_value(state, seat, card)
                    assert max(0, short[card] - player.tokens[GOLD]) == _missing(state, seat, card)
                    if short[card] == player.tokens[GOLD]:
                        got = _exact_payment(card, player.bonuses, player.tokens, short[card])
                        assert (got,) == _payments(card, player.bonuses, player.tokens), (player, card)
                        exact += 1
    assert exact > 10000


def test_the_playouts_target_is_greedys():
    """`_rollout_target` (the return's target from every card's shortfall and value at once,
    issue 56) is `_target` for every seat of every position of 12 games, 2-4 seats."""
    checked = 0
    for seed in range(12):
        for state, _seat in _positions(500 + seed, 2 + seed % 3):
            for seat in range(state.n):
                assert _rollout_target(state, seat) == _target(state, seat), (state, seat)
                checked += 1
    assert checked > 2000
