"""Read-only questions about a state that several modules ask."""
from __future__ import annotations

from . import catalog
from .state import State


def active_regions(state: State, seat: int) -> list:
    """Indexes of the regions the seat's active race occupies."""
    race = state.players[seat].race
    if race is None:
        return []
    return [i for i, r in enumerate(state.regions) if r.race == race and not r.declined]


def declined_regions(state: State, seat: int) -> list:
    race = state.players[seat].declined
    if race is None:
        return []
    return [i for i, r in enumerate(state.regions) if r.race == race and r.declined]


def race_regions(state: State, race: str) -> list:
    return [i for i, r in enumerate(state.regions) if r.race == race]


def tokens_in_play(state: State, race: str) -> int:
    on_map = sum(r.tokens for r in state.regions if r.race == race)
    in_hand = sum(p.hand for p in state.players if p.race == race)
    return on_map + in_hand


def supply(state: State, race: str) -> int:
    """Tokens of the race left in the tray (the box is a hard cap)."""
    return catalog.RACES[race]["box"] - tokens_in_play(state, race)


def walls_left(state: State) -> int:
    return catalog.SUPPLIES["wisp_walls"] - sum(1 for r in state.regions if r.wall)


def tokens_on_board(state: State, seat: int) -> int:
    """Active and in-decline race tokens of a seat on the map (the tie-break)."""
    return sum(r.tokens for r in state.regions if r.seat == seat)


def revealed_markers(state: State) -> set:
    return {r.marker for r in state.regions if r.marker not in (None, "hidden")}
