"""Race hooks (sources §2). One small class per race; see base.Ability for the questions."""
from __future__ import annotations

from .. import catalog
from .base import Ability, count, race


@race("blood_elves")
class BloodElves(Ability):
    """+1 coin per Magic region at the end of the turn."""
    def turn_coins(self, ctx):
        return count(ctx, lambda i: ctx.map.has(i, "magic"))


@race("dwarves")
class Dwarves(Ability):
    """Conquering a Mountain region costs 2 tokens less."""
    def cost_reduction(self, ctx, i):
        return 2 if ctx.map.terrain[i] == "mountain" else 0


@race("kobolds")
class Kobolds(Ability):
    """Caverns are attacked as though adjacent (a first conquest too, without travel)."""
    def reachable_as_adjacent(self, ctx, i, first):
        return ctx.map.has(i, "cavern")


@race("naga")
class Naga(Ability):
    """May conquer seas and lakes; the first conquest may be one, for the normal cost."""
    def can_conquer_water(self, ctx):
        return True

    def reachable_as_adjacent(self, ctx, i, first):
        return first and ctx.map.water(i)


@race("night_elves")
class NightElves(Ability):
    """Forests cost 1 token less; each conquered forest gets a Wisp Wall while walls last."""
    def cost_reduction(self, ctx, i):
        return 1 if ctx.map.terrain[i] == "forest" else 0

    def places_wall(self, ctx, i):
        return ctx.map.terrain[i] == "forest"


@race("orcs")
class Orcs(Ability):
    """+1 coin per conquest of an Alliance-occupied region (on top of the faction bonus)."""
    def conquest_coins(self, ctx, conquest):
        return 1 if catalog.faction(conquest.race) == "alliance" else 0


@race("trolls")
class Trolls(Ability):
    """Conquering a non-empty region costs 1 token less."""
    def cost_reduction(self, ctx, i):
        return 1 if ctx.state.regions[i].tokens > 0 else 0


@race("worgen")
class Worgen(Ability):
    """A form each turn: human (+2 coins at once) or worgen (pay 1: conquests cost 1 less)."""
    def start_options(self, ctx):
        forms = [{"form": "human"}]
        if ctx.state.players[ctx.seat].coins >= 1:
            forms.append({"form": "worgen"})
        return forms

    def start_coins(self, option):
        return 2 if option.get("form") == "human" else -1

    def cost_reduction(self, ctx, i):
        return 1 if ctx.state.turn.form == "worgen" else 0
