"""Where the pieces and the actions of races and powers may go: the choices their hooks offer.

The hooks (`abilities/`) offer these; `actions` builds and applies the events of the choice
made. Nothing here imports the abilities or the engine above them (`actions`, `flow`), so the
abilities import this module, not the engine: the imports stay a graph without cycles.
"""
from __future__ import annotations

from . import catalog, query
from . import tolls as toll_rules
from .hooks import Ctx
from .state import CONQUER, State

INTIMIDATIONS = 3   # uses of Intimidating per turn
PORTALS = 2         # uses of Portal Mage per turn


# --- pieces placed at the end of the turn ---------------------------------------------------

def objective_targets(ctx: Ctx) -> list:
    """Land regions not held by an Alliance race, without an objective placed this turn."""
    s = ctx.state
    fresh = "objective" not in s.turn.pieces
    return [i for i, r in enumerate(s.regions)
            if not s.map.water(i) and catalog.faction(r.race) != "alliance" and (fresh or not r.objective)]


def bomb_targets(ctx: Ctx) -> list:
    """Regions adjacent to the Goblins held by an opponent's active race, without a bomb."""
    s = ctx.state
    near = {j for i in ctx.regions for j in s.map.adj[i]}
    return [j for j in sorted(near)
            if s.regions[j].bomb is None and query.marker_owner(s, j) not in (None, ctx.seat)
            and not query.shielded(s, j, ctx.seat)
            and toll_rules.affordable(s, ctx.seat, toll_rules.power_tolls(s, ctx.seat, j))]


def tower_regions(ctx: Ctx) -> list:
    """Fields regions where the race holds more adjacent regions than any other race."""
    s = ctx.state
    race = s.players[ctx.seat].race
    out = []
    for i in ctx.regions:
        if s.map.terrain[i] != "fields":
            continue
        held: dict = {}
        for j in s.map.adj[i]:
            if s.regions[j].race:
                held[s.regions[j].race] = held.get(s.regions[j].race, 0) + 1
        mine = held.pop(race, 0)
        if mine > max(held.values(), default=0):
            out.append(i)
    return out


# --- actions during the conquests -----------------------------------------------------------

def _uses(s: State, key: str) -> int:
    return s.turn.used.count(key)


def steals(ctx: Ctx, key: str) -> list:
    """Ethereals: a face-up artifact in a region adjacent to theirs, into their adjacent
    region that has no marker (once per turn, instead of the Legendary Place discount)."""
    s = ctx.state
    if s.turn.step != CONQUER or key in s.turn.used:
        return []
    ids = s.map.ids
    out = []
    for i, r in enumerate(s.regions):
        if i in ctx.regions or catalog.MARKERS.get(r.marker, {}).get("kind") != "artifact":
            continue
        if query.shielded(s, i, ctx.seat):
            continue
        for j in s.map.adj[i]:
            if j in ctx.regions and s.regions[j].marker is None:
                out.append({"type": "steal_artifact", "from": ids[i], "to": ids[j]})
    return out


def intimidations(ctx: Ctx) -> list:
    """Intimidating: 3 times a turn, 1 token of an opponent's race out of an adjacent region
    into another region of that race (discarded if none; Murlocs always); a Wisp Wall or Fort
    there goes first, for one use. A Tauren token it leaves alone goes back to hand."""
    s = ctx.state
    if s.turn.step != CONQUER or _uses(s, "intimidating") >= INTIMIDATIONS:
        return []
    ids = s.map.ids
    near = {j for i in ctx.regions for j in s.map.adj[i]} - set(ctx.regions)
    out = []
    for i in sorted(near):
        r = s.regions[i]
        if not r.race or r.seat == ctx.seat and r.seat is not None or query.shielded(s, i, ctx.seat):
            continue
        if not toll_rules.affordable(s, ctx.seat, toll_rules.power_tolls(s, ctx.seat, i)):
            continue
        if r.wall or r.fort:
            out.append({"type": "intimidate", "region": ids[i]})
            continue
        others = [j for j, o in enumerate(s.regions)
                  if j != i and r.seat is not None and o.race == r.race and o.declined == r.declined]
        if not others:
            out.append({"type": "intimidate", "region": ids[i]})
        out += [{"type": "intimidate", "region": ids[i], "to": ids[j]} for j in others]
    return out


def portals(ctx: Ctx) -> list:
    """Portal Mage: twice a turn, two Magic land regions swap all they hold but the mountain
    and legendary places (regions with a face-down marker, a tower or a foreign Aegis cannot;
    a Harmony holder pays the Pandaren first, as for any attack on them)."""
    s = ctx.state
    if s.turn.step != CONQUER or _uses(s, "portal_mage") >= PORTALS:
        return []
    ok = [i for i, r in enumerate(s.regions)
          if s.map.has(i, "magic") and not s.map.water(i) and r.marker != "hidden"
          and not query.shielded(s, i, ctx.seat)]
    ids = s.map.ids
    return [{"type": "portal", "a": ids[a], "b": ids[b]} for k, a in enumerate(ok) for b in ok[k + 1:]
            if (s.regions[a].race or s.regions[b].race)
            and toll_rules.affordable(s, ctx.seat, portal_tolls(s, ctx.seat, a, b))]


def portal_tolls(s: State, seat: int, a: int, b: int) -> list:
    """What a portal costs first: a Harmony holder pays the Pandaren once when the swap takes
    their tokens out of a region ("forcing the removal of a Race token ... by any means")."""
    return toll_rules.power_tolls(s, seat, a) or toll_rules.power_tolls(s, seat, b)
