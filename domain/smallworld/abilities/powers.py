"""Special power hooks (sources §3). One small class per power."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog, targets
from ..hooks import Ability, count, power

if TYPE_CHECKING:
    from ..hooks import Ctx
    from ..state import Conquest


def _terrain_bonus(terrain: str) -> type[Ability]:
    class TerrainBonus(Ability):
        __doc__ = f"+1 coin per {terrain} region at the end of the turn."
        def turn_coins(self, ctx: Ctx) -> int:
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
    def turn_coins(self, ctx: Ctx) -> int:
        return count(ctx, lambda i: ctx.map.has(i, "cavern"))


@power("fishing")
class Fishing(Ability):
    """+1 coin per region adjacent to a lake or sea."""
    def turn_coins(self, ctx: Ctx) -> int:
        m = ctx.map
        return count(ctx, lambda i: any(m.water(j) for j in m.adj[i]))


@power("explorer")
class Explorer(Ability):
    """+1 coin per island with at least one region of the race."""
    def turn_coins(self, ctx: Ctx) -> int:
        return len({ctx.map.island[i] for i in ctx.regions})


@power("archaeologist")
class Archaeologist(Ability):
    """+1 coin per artifact and legendary place the race controls."""
    def turn_coins(self, ctx: Ctx) -> int:
        return count(ctx, lambda i: ctx.state.regions[i].marker not in (None, "hidden"))


@power("battle_master")
class BattleMaster(Ability):
    """+1 coin per conquest of a non-empty region."""
    def conquest_coins(self, ctx: Ctx, conquest: Conquest) -> int:
        return 1 if conquest.tokens > 0 else 0


@power("enraged")
class Enraged(Ability):
    """Coins equal to the defenders for each conquest of a region defended by 2+ tokens."""
    def conquest_coins(self, ctx: Ctx, conquest: Conquest) -> int:
        return conquest.tokens if conquest.tokens >= 2 else 0


@power("blacksmith")
class Blacksmith(Ability):
    """Every conquest costs 1 token less."""
    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        return 1


@power("sailing")
class Sailing(Ability):
    """No +1 travel cost for non-adjacent entry regions."""
    def travel_free(self, ctx: Ctx, i: int) -> bool:
        return True


@power("beast_master")
class BeastMaster(Ability):
    """At the start of each turn the old beasts go and one beast per Hill region comes (5 at
    most); beasts are race tokens for every purpose, but a conquered region loses a beast
    first (flow.lose)."""
    def start_beasts(self, ctx: Ctx) -> int:
        return min(catalog.SUPPLIES["beasts"], count(ctx, lambda i: ctx.map.terrain[i] == "hill"))


@power("championing")
class Championing(Ability):
    """Once per turn, conquer an adjacent region for 1 token whatever defends it, and put the
    Champion there (+1 defence). A conqueror of its region takes it prisoner instead of a
    token; its owner pays a 1-coin ransom and gets it back."""
    use_piece = "champion"

    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        adjacent = any(j in ctx.regions for j in ctx.map.adj[i])
        return 1 if adjacent else None


@power("defensive")
class Defensive(Ability):
    """At the end of the turn a Watch Tower on each Fields region where the race holds more
    of the adjacent regions than any other race (6 at most); towers leave regions that lost
    that majority. A tower region is immune to every power and conquest."""
    defence = "tower"

    def defence_regions(self, ctx: Ctx) -> list:
        return targets.tower_regions(ctx)


@power("garrisoned")
class Garrisoned(Ability):
    """A Fort (+1 defence) on each region of the race at the end of the turn (10 at most);
    forts stay in decline and go when the region is conquered or emptied."""
    defence = "fort"

    def defence_regions(self, ctx: Ctx) -> list:
        return list(ctx.regions)


@power("intimidating")
class Intimidating(Ability):
    """Three times a turn, before the last conquest: move 1 token of an opponent's race out of
    an adjacent region into another of that race's regions (discarded if it has none;
    Murlocs always); a Wisp Wall or Fort there is discarded first, for one use."""
    def actions(self, ctx: Ctx) -> list:
        return targets.intimidations(ctx)


@power("marshdweller")
class MarshDweller(Ability):
    """Opponents pay the owner 1 coin before conquering a Swamp region of the race, in
    decline too (tolls)."""
    swamp_toll = 1
    works_in_decline = True


@power("portal_mage")
class PortalMage(Ability):
    """Twice a turn, swap everything in two Magic regions but the mountain and legendary
    places (move `portal`)."""
    def actions(self, ctx: Ctx) -> list:
        return targets.portals(ctx)
