"""Artifact and legendary place hooks (sources §4). A marker's hook applies to the active
race occupying its region; `ctx.at` is that region."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import query
from ..hooks import Ability, count, marker

if TYPE_CHECKING:
    from ..hooks import Ctx
    from ..state import State


@marker("dark_portal")
class DarkPortal(Ability):
    """+2 coins at the end of the turn."""
    def turn_coins(self, ctx: Ctx) -> int:
        return 2


@marker("karazhan")
class Karazhan(Ability):
    """+1 coin per other region of the race with the terrain of Karazhan's region."""
    def turn_coins(self, ctx: Ctx) -> int:
        terrain, at = ctx.map.terrain, ctx.at
        if at is None:  # a marker's context always names its region
            return 0
        return count(ctx, lambda i: i != at and terrain[i] == terrain[at])


@marker("spirit_healer")
class SpiritHealer(Ability):
    """+1 token from the tray at the start of the redeployment, if one is left."""
    def redeploy_tokens(self, ctx: Ctx) -> int:
        race = ctx.state.players[ctx.seat].race
        return 1 if query.supply(ctx.state, race) > 0 else 0


@marker("meeting_stone")
class MeetingStone(Ability):
    """No +1 travel cost for non-adjacent entry regions."""
    def travel_free(self, ctx: Ctx, i: int) -> bool:
        return True


@marker("heart_of_azeroth")
class HeartOfAzeroth(Ability):
    """Placed by its owner at the end of each turn; every opponent whose active race holds a
    region adjacent to it then pays the owner 1 coin (decision 7)."""
    moved_by_owner = True

    def payments(self, ctx: Ctx) -> dict:
        s = ctx.state
        if ctx.at is None:  # a marker's context always names its region
            return {}
        near = s.map.adj[ctx.at]
        out = {}
        for seat, p in enumerate(s.players):
            if seat != ctx.seat and p.race and any(
                    s.regions[j].race == p.race and not s.regions[j].declined for j in near):
                out[seat] = 1
        return out


@marker("frostmourne")
class Frostmourne(Ability):
    """Once per turn, one conquest costs 2 tokens less."""
    use_reduction = 2


@marker("aegis_of_aggramar")
class Aegis(Ability):
    """Placed by its owner at the end of each turn; its region is immune to every power, and
    to conquest unless the attacker first pays the owner 2 coins (tolls)."""
    moved_by_owner = True
    shields = True
    conquest_toll = 2


@marker("ashes_of_alar")
class Ashes(Ability):
    """Once per turn, conquer any region of any island for its usual cost, as though
    adjacent (no travel)."""
    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        return near if cost is None or near < cost else None


@marker("doomhammer")
class Doomhammer(Ability):
    """Once per turn, conquer any one region with 1 token after paying 2 coins to the
    region's owner (the bank when it has none)."""
    use_toll = 2

    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        return 1


@marker("battleground")
class Battleground(Ability):
    """The faction bonus counts 2 for a race that lost 2+ regions this turn; a Neutral race
    holding it fights for the side that pays best this turn (scoring.faction_bonus)."""
    battleground = True


@marker("lights_hope_chapel")
class LightsHopeChapel(Ability):
    """The active race holding it loses no token when attacked (its own region included)."""
    spares_losses = True


@marker("well_of_eternity")
class WellOfEternity(Ability):
    """Moves to its island's lake or sea when revealed; at the end of a seat's turn, +2 coins
    if its active or declined race holds more regions adjacent to the Well than any other
    race (ties: nobody)."""
    def table_coins(self, state: State, seat: int, at: int) -> int:
        held: dict = {}
        for j in state.map.adj[at]:
            r = state.regions[j]
            if r.race:
                key = (r.race, r.declined)
                held[key] = held.get(key, 0) + 1
        if not held:
            return 0
        best = max(held.values())
        leaders = [k for k, v in held.items() if v == best]
        if len(leaders) != 1:
            return 0
        race, declined = leaders[0]
        p = state.players[seat]
        return 2 if (not declined and race == p.race) or (declined and race == p.declined) else 0
