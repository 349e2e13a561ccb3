"""The one rule of who a caller acts or looks as (api/games/callers.py `seat_as`), case by case:
a seat's token, the table token with and without `?seat=`, a player's key (a seat), nobody."""
from __future__ import annotations

import pytest

from api.errors import SeatNotYours, SeatRequired, TokenRequired
from api.games.callers import TABLE, seat_as


class Table:
    """A game as the rule reads it: the seats the table token holds, who is to act."""

    def __init__(self, held, to_act, bots=()):
        self.held, self.to_act, self.bots = list(held), list(to_act), set(bots)

    def table_seats(self):
        return self.held

    def actors(self):
        return self.to_act

    def bot_level(self, seat):
        return "random" if seat in self.bots else None


@pytest.mark.parametrize("acting", [False, True])
def test_nobody_is_a_spectator_and_names_no_seat(acting):
    assert seat_as(None, None, None, acting) is None
    with pytest.raises(TokenRequired):
        seat_as(None, None, 1, acting)


@pytest.mark.parametrize("acting", [False, True])
def test_a_seat_token_or_a_players_key_is_its_own_seat_only(acting):
    assert seat_as(None, 2, None, acting) == 2 and seat_as(None, 2, 2, acting) == 2
    with pytest.raises(SeatNotYours, match="This token is seat 2's, not seat 1's."):
        seat_as(None, 2, 1, acting)


@pytest.mark.parametrize("acting", [False, True])
def test_the_table_token_naming_a_seat_is_that_seat_if_it_holds_it(acting):
    game = Table(held=[0, 2], to_act=[1])
    assert seat_as(game, TABLE, 2, acting) == 2
    with pytest.raises(SeatNotYours):
        seat_as(game, TABLE, 1, acting)


def test_the_table_token_naming_none_looks_as_a_spectator():
    assert seat_as(Table(held=[0], to_act=[0]), TABLE, None, acting=False) is None


def test_the_table_token_holding_one_seat_acts_as_it_to_act_or_not():
    assert seat_as(Table(held=[0], to_act=[0]), TABLE, None, acting=True) == 0
    # Changed: this was 400 seat_required for moves (the seat is not to act); resign acted as it.
    assert seat_as(Table(held=[0], to_act=[1]), TABLE, None, acting=True) == 0
    assert seat_as(Table(held=[0], to_act=[]), TABLE, None, acting=True) == 0


def test_the_table_token_holding_several_acts_as_the_one_of_them_to_act():
    # Changed for resign and abort: this was 400 seat_required (they took the one seat held).
    assert seat_as(Table(held=[0, 1], to_act=[1, 2]), TABLE, None, acting=True) == 1
    # A bot playing a held seat (a takeover) is not a person to act.
    assert seat_as(Table(held=[0, 1], to_act=[0, 1], bots={0}), TABLE, None, acting=True) == 1


@pytest.mark.parametrize("to_act", [[0, 1], [], [2]])
def test_the_table_token_holding_several_must_name_one_unless_exactly_one_is_to_act(to_act):
    with pytest.raises(SeatRequired) as refused:
        seat_as(Table(held=[0, 1], to_act=to_act), TABLE, None, acting=True)
    assert refused.value.details == {"to_act": [s for s in to_act if s in (0, 1)]}
