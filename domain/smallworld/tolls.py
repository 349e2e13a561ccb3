"""Coins an attacker pays before a conquest or a power touches a region: Harmony (2 to the
Pandaren), MarshDweller (1 for its Swamp regions, in decline too), the Aegis (2 to its
owner) and Doomhammer (2 to the region's owner, or the bank). Paid in the event, public like
any payment on the table; a seat that cannot pay them all cannot attack there."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import query
from .hooks import MARKERS, POWERS, RACES
from .state import State

if TYPE_CHECKING:
    from .hooks import Ability

HARMONY_TOLL = 2


def _owner_power(state: State, i: int) -> Ability | None:
    """The hook of the power working for region i's race (in decline only if it says so)."""
    r = state.regions[i]
    if r.seat is None:
        return None
    p = state.players[r.seat]
    if not r.declined and p.race == r.race:
        return POWERS.get(p.power)
    if r.declined and p.declined == r.race and p.declined_power in POWERS:
        power = POWERS[p.declined_power]
        return power if power.works_in_decline else None
    return None


def power_tolls(state: State, seat: int, i: int) -> list:
    """What a power touching region i costs first: Harmony (2 coins to the Pandaren, once)."""
    r = state.regions[i]
    if (state.players[seat].harmony and r.race in RACES and RACES[r.race].harmony and not r.declined
            and r.seat is not None and r.seat != seat):
        return [{"seat": r.seat, "coins": HARMONY_TOLL, "for": "harmony"}]
    return []


def tolls(state: State, seat: int, i: int, use_toll: int = 0) -> list:
    """[{"seat": payee or None (the bank), "coins": n, "for": reason}] for conquering region i."""
    r = state.regions[i]
    out = power_tolls(state, seat, i)
    power = _owner_power(state, i) if r.seat not in (None, seat) else None
    if power and power.swamp_toll and state.map.terrain[i] == "swamp":
        out.append({"seat": r.seat, "coins": power.swamp_toll, "for": power.key})
    marker = MARKERS.get(r.marker)
    if marker and marker.conquest_toll:
        owner = query.marker_owner(state, i)
        if owner is not None and owner != seat:
            out.append({"seat": owner, "coins": marker.conquest_toll, "for": marker.key})
    if use_toll and r.seat != seat:
        out.append({"seat": r.seat, "coins": use_toll, "for": "doomhammer"})
    return out


def affordable(state: State, seat: int, owed: list) -> bool:
    return state.players[seat].coins >= sum(t["coins"] for t in owed)
