"""Setup and card data (spec: Setup)."""
import random

import pytest

from domain.contract import InvalidOptions
from domain.play import fold
from domain.splendor import GAME
from domain.splendor.data import CARDS, COLORS, NOBLES


def _setup(n, seed=1, **options):
    return GAME.setup({**GAME.default_options(), **options}, n, random.Random(seed))


def test_card_data_has_90_cards_40_30_20_and_10_nobles():
    assert len(CARDS) == 90
    assert [sum(1 for c in CARDS if c.level == lv) for lv in (1, 2, 3)] == [40, 30, 20]
    assert len(NOBLES) == 10 and all(n.points == 3 for n in NOBLES)
    assert len({c.id for c in CARDS}) == 90 and all(c.id.startswith("sp-") for c in CARDS)


def test_card_costs_total_33_41_43_per_colour_and_level():
    for level, total in ((1, 33), (2, 41), (3, 43)):
        for i, _ in enumerate(COLORS):
            assert sum(c.cost[i] for c in CARDS if c.level == level) == total


@pytest.mark.parametrize("n,gems", [(2, 4), (3, 5), (4, 7)])
def test_gems_per_colour_depend_on_seats_and_gold_is_always_5(n, gems):
    event = _setup(n)[0]
    assert event["supply"] == {**{c: gems for c in COLORS}, "gold": 5}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_players_plus_one_nobles_are_drawn(n):
    event = _setup(n)[0]
    assert len(event["nobles"]) == n + 1 == len(set(event["nobles"]))


def test_market_shows_4_cards_per_level_and_decks_hold_the_rest():
    event = _setup(2)[0]
    assert [len(row) for row in event["market"]] == [4, 4, 4]
    assert [len(d) for d in event["decks"]] == event["deck_sizes"] == [36, 26, 16]
    every = [c for row in event["market"] for c in row] + [c for d in event["decks"] for c in d]
    assert sorted(every) == sorted(c.id for c in CARDS)
    for level, row in enumerate(event["market"], start=1):
        assert all(c.startswith(f"sp-{level}-") for c in row)


def test_decks_are_shuffled_by_the_rng():
    assert _setup(2, seed=1)[0]["decks"] != _setup(2, seed=2)[0]["decks"]


def test_seat_0_starts_with_nothing():
    state = fold(GAME, _setup(3))
    assert GAME.actors(state) == [0] and state.phase == "play"
    assert all(sum(p.tokens) == 0 and p.points == 0 for p in state.players)


def test_options_and_seat_counts_are_checked():
    GAME.check_options({"strict_take_three": True}, 2)
    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            GAME.check_options({}, n)
    with pytest.raises(InvalidOptions):
        GAME.check_options({"strict_take_three": "yes"}, 2)
    with pytest.raises(InvalidOptions):
        GAME.check_options({"colours": 6}, 2)
    assert GAME.default_options() == {"strict_take_three": False}


def test_strict_option_is_recorded_in_the_first_event():
    assert _setup(2, strict_take_three=True)[0]["options"] == {"strict_take_three": True}
    assert fold(GAME, _setup(2, strict_take_three=True)).strict is True
