"""Race hooks (sources §2). One small class per race; see hooks.Ability for the questions."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalog, query, targets
from ..hooks import Ability, count, race

if TYPE_CHECKING:
    from ..hooks import Ctx
    from ..state import Conquest


@race("blood_elves")
class BloodElves(Ability):
    """+1 coin per Magic region at the end of the turn."""
    def turn_coins(self, ctx: Ctx) -> int:
        return count(ctx, lambda i: ctx.map.has(i, "magic"))


@race("dwarves")
class Dwarves(Ability):
    """Conquering a Mountain region costs 2 tokens less."""
    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        return 2 if ctx.map.terrain[i] == "mountain" else 0


@race("kobolds")
class Kobolds(Ability):
    """Caverns are attacked as though adjacent (a first conquest too, without travel)."""
    def reachable_as_adjacent(self, ctx: Ctx, i: int, first: bool) -> bool:
        return ctx.map.has(i, "cavern")


@race("naga")
class Naga(Ability):
    """May conquer seas and lakes; the first conquest may be one, for the normal cost."""
    def can_conquer_water(self, ctx: Ctx) -> bool:
        return True

    def reachable_as_adjacent(self, ctx: Ctx, i: int, first: bool) -> bool:
        return first and ctx.map.water(i)


@race("night_elves")
class NightElves(Ability):
    """Forests cost 1 token less; each conquered forest gets a Wisp Wall while walls last."""
    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        return 1 if ctx.map.terrain[i] == "forest" else 0

    def places_wall(self, ctx: Ctx, i: int) -> bool:
        return ctx.map.terrain[i] == "forest"


@race("orcs")
class Orcs(Ability):
    """+1 coin per conquest of an Alliance-occupied region (on top of the faction bonus)."""
    def conquest_coins(self, ctx: Ctx, conquest: Conquest) -> int:
        return 1 if catalog.faction(conquest.race) == "alliance" else 0


@race("trolls")
class Trolls(Ability):
    """Conquering a non-empty region costs 1 token less."""
    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        return 1 if ctx.state.regions[i].tokens > 0 else 0


@race("worgen")
class Worgen(Ability):
    """A form each turn: human (+2 coins at once) or worgen (pay 1: conquests cost 1 less)."""
    def start_options(self, ctx: Ctx) -> list:
        forms = [{"form": "human"}]
        if ctx.state.players[ctx.seat].coins >= 1:
            forms.append({"form": "worgen"})
        return forms

    def start_coins(self, option: dict) -> int:
        return 2 if option.get("form") == "human" else -1

    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        return 1 if ctx.state.turn.form == "worgen" else 0


@race("draenei")
class Draenei(Ability):
    """Holy Light: in each opponent's turn, the first token the race would lose is kept in
    hand and redeployed (flow.lose)."""
    spares_first_loss = True


@race("ethereals")
class Ethereals(Ability):
    """Once per turn, either steal a face-up artifact from a region adjacent to theirs into
    their adjacent region (move `steal_artifact`), or conquer an adjacent region holding a
    legendary place for 2 tokens less (`use: "ethereals"`)."""
    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        s = ctx.state
        marker = s.regions[i].marker
        if cost is None or catalog.MARKERS.get(marker, {}).get("kind") != "place":
            return None
        if not any(j in ctx.regions for j in s.map.adj[i]):
            return None
        return max(1, cost - 2)

    def actions(self, ctx: Ctx) -> list:
        return targets.steals(ctx, self.key)


@race("forsaken")
class Forsaken(Ability):
    """For each opponent token their conquests made leave the game this turn, 1 coin buys a
    token from the tray, after the last conquest (move `buy_tokens`)."""
    def tokens_to_buy(self, ctx: Ctx) -> int:
        return ctx.state.turn.forced


@race("gnomes")
class Gnomes(Ability):
    """Once per turn an airborne assault on any land region, as though adjacent (no travel):
    a free reinforcement die lowers its cost first; as the final conquest, the usual die is
    rolled as well."""
    use_die = True

    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        return near


@race("goblins")
class Goblins(Ability):
    """Bombs: at the end of the turn, face down, one per adjacent region of an opponent's
    active race; revealed at the start of the Goblins' next turn (or their decline): a live
    bomb empties the region as a conquest would, a dud does nothing (flow.resolve_bombs)."""
    placed_piece = "bomb"

    def piece_targets(self, ctx: Ctx) -> list:
        return targets.bomb_targets(ctx)

    def pieces_to_place(self, ctx: Ctx) -> int:
        return query.bombs_in_stack(ctx.state)


@race("humans")
class Humans(Ability):
    """Military Objectives: at the end of the turn the 2 objectives go to up to 2 non-Alliance
    regions; a non-Horde conqueror of one gains 2 coins and so do the Humans (unless they
    conquered it); they leave with the Humans' decline (decision 7)."""
    placed_piece = "objective"

    def piece_targets(self, ctx: Ctx) -> list:
        return targets.objective_targets(ctx)

    def pieces_to_place(self, ctx: Ctx) -> int:
        return 2


@race("pandaren")
class Pandaren(Ability):
    """Harmony: at the end of each turn a Harmony token goes to every opponent whose active
    race they did not attack; a holder pays 2 coins before attacking them (tolls)."""
    harmony = True


@race("tauren")
class Tauren(Ability):
    """Never fewer than 2 tokens in a region (conquest, readying, redeployment); 2 tokens a
    region stay when declining; a conquered Tauren region still loses just 1."""
    min_tokens = 2
