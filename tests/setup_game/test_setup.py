"""Setup per seat count, options, and the unused bonus squares that become common."""
import random

import pytest

from domain.contract import InvalidOptions
from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.data import SQUARE_INDEX
from domain.setup_game.state import playable_squares


@pytest.mark.parametrize("n,filled", [
    (2, {"C1", "C2", "C3", "C4", "N1", "N2", "E1", "E2"}),
    (3, {"C1", "C2", "C3", "C4", "E1", "E2"}),
    (4, {"C1", "C2", "C3", "C4"}),
])
def test_setup_fills_common_squares_and_unused_bonus_squares(n, filled):
    event, = GAME.setup({"teams": False}, n, random.Random(5))
    assert set(event["board"]) == filled
    assert [len(r) for r in event["racks"]] == [4] * n
    assert len(event["market"]) == 4
    state = fold(GAME, [event])
    dealt = len(filled) + 4 * n + 4
    assert len(state.bag) == 50 - dealt
    assert len(set(event["board"].values()) | {t for r in event["racks"] for t in r}
               | set(event["market"])) == dealt
    assert state.goal == {2: 31, 3: 27, 4: 23}[n]
    assert GAME.actors(state) == [0]


def test_unused_bonus_squares_are_common_to_every_seat():
    names = lambda n, seat: {GAME_SQ[q] for q in playable_squares(n, seat)}
    assert names(2, 0) == {"C1", "C2", "C3", "C4", "S1", "S2", "N1", "N2", "E1", "E2"}
    assert names(2, 1) == {"C1", "C2", "C3", "C4", "W1", "W2", "N1", "N2", "E1", "E2"}
    assert names(3, 2) == {"C1", "C2", "C3", "C4", "N1", "N2", "E1", "E2"}
    assert names(4, 3) == {"C1", "C2", "C3", "C4", "E1", "E2"}


GAME_SQ = {i: q for q, i in SQUARE_INDEX.items()}


def test_team_game_turn_order_is_0_2_1_3():
    state = fold(GAME, GAME.setup({"teams": True}, 4, random.Random(1)))
    assert state.order == (0, 2, 1, 3)
    assert fold(GAME, GAME.setup({"teams": False}, 4, random.Random(1))).order == (0, 1, 2, 3)


@pytest.mark.parametrize("options,n", [({"teams": True}, 2), ({"teams": True}, 3),
                                       ({"teams": "yes"}, 4), ({}, 5), ({}, 1)])
def test_check_options_refuses_what_cannot_be_played(options, n):
    with pytest.raises(InvalidOptions):
        GAME.check_options(options, n)


def test_check_options_accepts_the_test_configs():
    for n, options in GAME.test_configs:
        GAME.check_options({**GAME.default_options(), **options}, n)
