"""Splendor's conservation laws, true after every event of any game (the property tests,
tests/contract/test_properties.py, check them along drawn playouts)."""
from __future__ import annotations

from domain.splendor.data import (
    CARDS,
    COLORS,
    GEMS_PER_COLOR,
    GOLD,
    GOLD_TOKENS,
    NOBLE_POINTS,
    NOBLES,
    RESERVE_LIMIT,
    TOKEN_LIMIT,
)
from domain.splendor.state import EMPTY, RETURN, State


def check(state: State, before: State | None = None, settled: bool = True) -> None:
    players = state.players
    for colour in range(len(COLORS) + 1):  # every token is in the supply or with one player
        box = GOLD_TOKENS if colour == GOLD else GEMS_PER_COLOR[state.n]
        assert state.supply[colour] + sum(p.tokens[colour] for p in players) == box, f"tokens of {colour}"
        assert state.supply[colour] >= 0 and all(p.tokens[colour] >= 0 for p in players)
    places = ([c for deck in state.decks for c in deck] + [c for row in state.market for c in row if c != EMPTY]
              + [c for p in players for c in p.bought + p.reserved])
    assert sorted(places) == list(range(len(CARDS))), "every card is in exactly one place"
    for level, (row, deck) in enumerate(zip(state.market, state.decks), start=1):
        assert all(CARDS[c].level == level for c in row + deck if c != EMPTY)
        assert EMPTY not in row or not deck, "a market slot stays empty only when its deck is"
    nobles = list(state.nobles) + [x for p in players for x in p.nobles]
    assert len(set(nobles)) == len(nobles) == state.n + 1, "the players + 1 nobles, each on the table or with one player"
    for seat, p in enumerate(players):
        assert p.bonuses == tuple(sum(CARDS[c].bonus == colour for c in p.bought) for colour in range(len(COLORS)))
        assert p.points == sum(CARDS[c].points for c in p.bought) + NOBLE_POINTS * len(p.nobles)
        assert all(all(b >= r for b, r in zip(p.bonuses, NOBLES[x].requires)) for x in p.nobles)
        assert len(p.reserved) <= RESERVE_LIMIT and set(p.blind) <= set(p.reserved)
        assert sum(p.tokens) <= TOKEN_LIMIT or (state.phase == RETURN and state.seat == seat)
