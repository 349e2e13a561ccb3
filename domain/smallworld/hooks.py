"""Hook objects: how races, special powers and markers change the rules.

The engine asks every hook that applies to the acting seat (its active race, its power and
the markers in the race's regions) a fixed set of questions. Each answer has a neutral
default here, so a race or power only overrides what it changes. Adding one is writing a
small subclass, registering it with `@race(...)`, `@power(...)` or `@marker(...)`, and
testing it; the engine does not change. Only registered keys are playable.

The hooks themselves live in `abilities/`, which registers them here when imported (the
package's `__init__` imports it, so the registry is full before any rule runs). The registry
sits below both: the board queries and tolls read it, and the hooks call those queries, with
no import going back up.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from .state import State

if TYPE_CHECKING:

    from .islands import Map
    from .state import Conquest

RACES: dict[str, Ability] = {}
POWERS: dict[str, Ability] = {}
MARKERS: dict[str, Ability] = {}


class Ctx(NamedTuple):
    """What a hook sees: the state, the acting seat, its active regions, and, for a marker,
    the region (index) it lies in."""
    state: State
    seat: int
    regions: tuple
    at: int | None = None

    @property
    def map(self) -> Map:
        return self.state.map


class Ability:
    key = ""

    # --- conquest -------------------------------------------------------------------------
    def can_conquer_water(self, ctx: Ctx) -> bool:
        """Lakes and seas are closed to all but the races that say so."""
        return False

    def reachable_as_adjacent(self, ctx: Ctx, i: int, first: bool) -> bool:
        """Region i may be attacked as though adjacent (no travel cost)."""
        return False

    def travel_free(self, ctx: Ctx, i: int) -> bool:
        """No +1 travel cost for a non-adjacent entry region."""
        return False

    def cost_reduction(self, ctx: Ctx, i: int) -> int:
        """Tokens less to conquer region i (each reduction keeps the cost at 1 or more)."""
        return 0

    # Once per turn, a conquest may use this hook for `use_reduction` tokens less.
    use_reduction = 0

    def use_cost(self, ctx: Ctx, i: int, cost: int | None, near: int) -> int | None:
        """The cost of conquering region i by using this hook (once per turn), or None when it
        cannot be used there. `cost` is the usual cost (None when i is out of reach), `near`
        the cost as though i were adjacent. The default applies `use_reduction`."""
        if not self.use_reduction or cost is None:
            return None
        return max(1, cost - self.use_reduction)

    # The use rolls a free reinforcement die before the conquest (Gnomes).
    use_die = False
    # Coins paid to the region's previous owner (or the bank) when used (Doomhammer).
    use_toll = 0
    # The use leaves this piece in the conquered region (Championing: "champion").
    use_piece: str | None = None

    def places_wall(self, ctx: Ctx, i: int) -> bool:
        return False

    # The race gives Harmony tokens; a holder pays it 2 coins before attacking it (Pandaren).
    harmony = False
    # Coins an opponent pays the owner before conquering a Swamp region of the race.
    swamp_toll = 0
    # The power keeps working for the race in decline (MarshDweller).
    works_in_decline = False
    # A marker whose region is immune to other seats' powers, and costs them `conquest_toll`
    # coins paid to its owner before a conquest (the Aegis).
    shields = False
    conquest_toll = 0

    # Fewest tokens the race may leave in a region (Tauren: 2), in decline too.
    min_tokens = 1
    # The race keeps the first token it would lose in each opponent's turn (Draenei).
    spares_first_loss = False
    # The race occupying this place loses no token when attacked (Light's Hope Chapel).
    spares_losses = False

    # --- turn start and redeployment ------------------------------------------------------
    def start_options(self, ctx: Ctx) -> list:
        """Extra fields of the `ready` move (a choice made at the start of the turn)."""
        return [{}]

    def start_coins(self, option: dict) -> int:
        """Coins gained (or paid, negative) for the choice made at the start of the turn."""
        return 0

    def redeploy_tokens(self, ctx: Ctx) -> int:
        """Extra tokens from the tray at the start of the active seat's redeployment."""
        return 0

    def tokens_to_buy(self, ctx: Ctx) -> int:
        """Tokens the seat may buy for 1 coin each once its conquests are over (Forsaken)."""
        return 0

    def start_beasts(self, ctx: Ctx) -> int:
        """Beasts taken into hand at the start of each turn (Beast Master)."""
        return 0

    # --- actions during the conquests (moves of their own) ----------------------------------
    def actions(self, ctx: Ctx) -> list:
        """Extra moves open now (steal an artifact, intimidate, swap by portal)."""
        return []

    # --- pieces placed at the end of the turn ---------------------------------------------
    # Automatically placed defences ("fort" on every region, "tower" by majority).
    defence: str | None = None

    def defence_regions(self, ctx: Ctx) -> list:
        return []

    # Pieces the owner places one by one at the end of its turn ("objective", "bomb").
    placed_piece: str | None = None

    def piece_targets(self, ctx: Ctx) -> list:
        return []

    def pieces_to_place(self, ctx: Ctx) -> int:
        return 0

    # --- markers that move -----------------------------------------------------------------
    # At the end of its owner's turn, the owner places this marker in one of its regions.
    moved_by_owner = False

    # --- scoring --------------------------------------------------------------------------
    def conquest_coins(self, ctx: Ctx, conquest: Conquest) -> int:
        """Coins for one conquest of this turn (paid in the end-of-turn scoring)."""
        return 0

    def turn_coins(self, ctx: Ctx) -> int:
        """Coins at the end of the turn for what the active race holds."""
        return 0

    def payments(self, ctx: Ctx) -> dict:
        """{seat: coins} other seats pay the acting seat at the end of its turn."""
        return {}

    def table_coins(self, state: State, seat: int, at: int) -> int:
        """Coins a marker lying at `at` gives whoever's turn ends, held or not (Well)."""
        return 0

    # The faction bonus counts twice for 2+ regions of one race; Neutral may take a side.
    battleground = False


A = TypeVar("A", bound=Ability)


def _register(table: dict[str, Ability], key: str) -> Callable[[type[A]], type[A]]:
    def wrap(cls: type[A]) -> type[A]:
        obj = cls()
        obj.key = key
        table[key] = obj
        return cls
    return wrap


def race(key: str) -> Callable[[type[A]], type[A]]:
    return _register(RACES, key)


def power(key: str) -> Callable[[type[A]], type[A]]:
    return _register(POWERS, key)


def marker(key: str) -> Callable[[type[A]], type[A]]:
    return _register(MARKERS, key)


def count(ctx: Ctx, pred: Callable[[int], bool]) -> int:
    return sum(1 for i in ctx.regions if pred(i))


def hook(key: str | None) -> Ability | None:
    """The race, power or marker hook of that key (None for another word)."""
    if key is None:
        return None
    return RACES.get(key) or POWERS.get(key) or MARKERS.get(key)


def hooks_for(state: State, seat: int) -> list[tuple[Ability, Ctx]]:
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
