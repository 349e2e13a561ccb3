"""Hook objects: how races, special powers and markers change the rules.

The engine asks every hook that applies to the acting seat (its active race, its power and
the markers in the race's regions) a fixed set of questions. Each answer has a neutral
default here, so a race or power only overrides what it changes. Adding one is writing a
small subclass, registering it with `@race(...)`, `@power(...)` or `@marker(...)`, and
testing it; the engine does not change. Only registered keys are playable.
"""
from __future__ import annotations

from typing import NamedTuple, Optional

RACES: dict = {}
POWERS: dict = {}
MARKERS: dict = {}


class Ctx(NamedTuple):
    """What a hook sees: the state, the acting seat, its active regions, and, for a marker,
    the region (index) it lies in."""
    state: object
    seat: int
    regions: tuple
    at: Optional[int] = None

    @property
    def map(self):
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

    def places_wall(self, ctx: Ctx, i: int) -> bool:
        return False

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

    # --- markers that move -----------------------------------------------------------------
    # At the end of its owner's turn, the owner places this marker in one of its regions.
    moved_by_owner = False

    # --- scoring --------------------------------------------------------------------------
    def conquest_coins(self, ctx: Ctx, conquest) -> int:
        """Coins for one conquest of this turn (paid in the end-of-turn scoring)."""
        return 0

    def turn_coins(self, ctx: Ctx) -> int:
        """Coins at the end of the turn for what the active race holds."""
        return 0

    def payments(self, ctx: Ctx) -> dict:
        """{seat: coins} other seats pay the acting seat at the end of its turn."""
        return {}


def _register(table: dict, key: str):
    def wrap(cls):
        obj = cls()
        obj.key = key
        table[key] = obj
        return cls
    return wrap


def race(key: str):
    return _register(RACES, key)


def power(key: str):
    return _register(POWERS, key)


def marker(key: str):
    return _register(MARKERS, key)


def count(ctx: Ctx, pred) -> int:
    return sum(1 for i in ctx.regions if pred(i))
