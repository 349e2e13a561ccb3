"""Fairy Tile's conservation laws, true after every event of any game (the property tests,
tests/contract/test_properties.py, check them along drawn playouts)."""
from __future__ import annotations

from domain.fairy_tile.data import CARD_IDS
from domain.fairy_tile.state import State
from domain.fairy_tile.tiles import KINGDOM_TILES, START_LAYOUT

HEXES_PER_TILE = 3


def check(state: State, before: State | None = None, settled: bool = True) -> None:
    cards = [c for seat in state.seats for c in (*seat.book, *([seat.hand] if seat.hand else []), *seat.told)]
    assert sorted(cards) == sorted(CARD_IDS), "every card is in one book, hand or told pile, once"
    assert all(seat.hand is not None or not seat.book for seat in state.seats), "a card is in hand while the book has one"
    tiles = [t for t, _ in state.pile] + [t for t, *_ in state.laid]
    assert sorted(tiles) == sorted(KINGDOM_TILES), "every tile is in the pile or laid, once"
    laid_tiles = len(START_LAYOUT) + len(state.laid)
    assert len(state.kingdom.cells) == HEXES_PER_TILE * laid_tiles, "no tile laid over another"
    assert all(h in state.kingdom.cells for h in state.figures), "the figures stand in the kingdom"
    if not state.over:
        # between a `player_out` of the seat to play and its `turn_ended` (one decision's events)
        # the seat to play is out for an event: only a settled state has it still in
        assert not settled or not state.seats[state.current].out, "the seat to play is still in"
        assert state.turn <= state.turn_limit
