"""Artifact and legendary place hooks (sources §4). A marker's hook applies to the active
race occupying its region; `ctx.at` is that region."""
from __future__ import annotations

from .. import query
from .base import Ability, count, marker


@marker("dark_portal")
class DarkPortal(Ability):
    """+2 coins at the end of the turn."""
    def turn_coins(self, ctx):
        return 2


@marker("karazhan")
class Karazhan(Ability):
    """+1 coin per other region of the race with the terrain of Karazhan's region."""
    def turn_coins(self, ctx):
        terrain = ctx.map.terrain
        return count(ctx, lambda i: i != ctx.at and terrain[i] == terrain[ctx.at])


@marker("spirit_healer")
class SpiritHealer(Ability):
    """+1 token from the tray at the start of the redeployment, if one is left."""
    def redeploy_tokens(self, ctx):
        race = ctx.state.players[ctx.seat].race
        return 1 if query.supply(ctx.state, race) > 0 else 0


@marker("meeting_stone")
class MeetingStone(Ability):
    """No +1 travel cost for non-adjacent entry regions."""
    def travel_free(self, ctx, i):
        return True


@marker("heart_of_azeroth")
class HeartOfAzeroth(Ability):
    """Placed by its owner at the end of each turn; every opponent whose active race holds a
    region adjacent to it then pays the owner 1 coin (decision 7)."""
    moved_by_owner = True

    def payments(self, ctx):
        s = ctx.state
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
