"""Hooks of the races, powers and markers; importing this package registers them all."""
from __future__ import annotations

from . import markers, powers, races  # noqa: F401  (registration by import)
from .base import MARKERS, POWERS, RACES, Ability, Ctx


def hook(key):
    """The race, power or marker hook of that key (None for another word)."""
    return RACES.get(key) or POWERS.get(key) or MARKERS.get(key)


def hooks_for(state, seat: int) -> list:
    """(hook, ctx) pairs for the seat's active race, power and the markers it holds."""
    player = state.players[seat]
    if player.race is None:
        return []
    regions = tuple(i for i, r in enumerate(state.regions) if r.race == player.race and not r.declined)
    ctx = Ctx(state, seat, regions)
    out = [(RACES[player.race], ctx), (POWERS[player.power], ctx)]
    for i in regions:
        key = state.regions[i].marker
        if key in MARKERS:
            out.append((MARKERS[key], ctx._replace(at=i)))
    return out


__all__ = ["Ability", "Ctx", "MARKERS", "POWERS", "RACES", "hook", "hooks_for"]
