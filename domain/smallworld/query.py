"""Read-only questions about a state that several modules ask."""
from __future__ import annotations

from . import catalog
from .hooks import MARKERS
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
    """The race's own tokens out of the tray (beasts are not race tokens of the box)."""
    on_map = sum(r.tokens - r.beasts for r in state.regions if r.race == race)
    in_hand = sum(p.hand - p.beasts for p in state.players if p.race == race)
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


def count_pieces(state: State, field: str) -> int:
    return sum(1 for r in state.regions if getattr(r, field))


def supply_left(state: State, field: str, box: str) -> int:
    return catalog.SUPPLIES[box] - count_pieces(state, field)


def bombs_in_stack(state: State) -> int:
    """Bombs not yet revealed and not on the map."""
    return sum(state.bombs) - sum(1 for r in state.regions if r.bomb is not None)


def active_seat_of(state: State, race: str) -> int | None:
    """The seat whose active race this is, or None."""
    for seat, p in enumerate(state.players):
        if p.race == race:
            return seat
    return None


def marker_owner(state: State, i: int) -> int | None:
    """The seat whose active race holds region i (markers work for active races only)."""
    r = state.regions[i]
    if r.seat is None or r.declined or state.players[r.seat].race != r.race:
        return None
    return r.seat


def shielded(state: State, i: int, seat: int) -> bool:
    """Region i is immune to the powers of `seat`: a Watch Tower, or the Aegis of an active
    race of another seat (decision 7: against every power)."""
    r = state.regions[i]
    if r.tower:
        return True
    return r.marker in MARKERS and MARKERS[r.marker].shields and marker_owner(state, i) not in (None, seat)


def held_marker(state: State, seat: int, key: str) -> bool:
    return any(r.marker == key for r in (state.regions[i] for i in active_regions(state, seat)))
