"""Special power hooks (sources §3). One small class per power."""
from __future__ import annotations

from .base import Ability, count, power


def _terrain_bonus(terrain):
    class TerrainBonus(Ability):
        __doc__ = f"+1 coin per {terrain} region at the end of the turn."
        def turn_coins(self, ctx):
            return count(ctx, lambda i: ctx.map.terrain[i] == terrain)
    return TerrainBonus


power("farmer")(_terrain_bonus("fields"))
power("ranger")(_terrain_bonus("forest"))
power("herbalist")(_terrain_bonus("hill"))
power("swamp_walker")(_terrain_bonus("swamp"))
power("mountaineer")(_terrain_bonus("mountain"))


@power("mining")
class Mining(Ability):
    """+1 coin per Cavern region."""
    def turn_coins(self, ctx):
        return count(ctx, lambda i: ctx.map.has(i, "cavern"))


@power("fishing")
class Fishing(Ability):
    """+1 coin per region adjacent to a lake or sea."""
    def turn_coins(self, ctx):
        m = ctx.map
        return count(ctx, lambda i: any(m.water(j) for j in m.adj[i]))


@power("explorer")
class Explorer(Ability):
    """+1 coin per island with at least one region of the race."""
    def turn_coins(self, ctx):
        return len({ctx.map.island[i] for i in ctx.regions})


@power("archaeologist")
class Archaeologist(Ability):
    """+1 coin per artifact and legendary place the race controls."""
    def turn_coins(self, ctx):
        return count(ctx, lambda i: ctx.state.regions[i].marker not in (None, "hidden"))


@power("battle_master")
class BattleMaster(Ability):
    """+1 coin per conquest of a non-empty region."""
    def conquest_coins(self, ctx, conquest):
        return 1 if conquest.tokens > 0 else 0


@power("enraged")
class Enraged(Ability):
    """Coins equal to the defenders for each conquest of a region defended by 2+ tokens."""
    def conquest_coins(self, ctx, conquest):
        return conquest.tokens if conquest.tokens >= 2 else 0


@power("blacksmith")
class Blacksmith(Ability):
    """Every conquest costs 1 token less."""
    def cost_reduction(self, ctx, i):
        return 1


@power("sailing")
class Sailing(Ability):
    """No +1 travel cost for non-adjacent entry regions."""
    def travel_free(self, ctx, i):
        return True
